package dev.luavm;

import java.time.Duration;

/**
 * What a sandbox has used. Gas, output and elapsed time are for the most recent run
 * ({@code eval}, {@code run} or {@code call}; the gas limit applies to their total). Memory is the
 * Lua heap of the sandbox, which persists between runs, as its memory meter accounts it, the same
 * on every JVM: {@code memoryBytes}, what the sandbox holds now (live at the latest walk of the
 * heap, plus what was allocated since, plus what the compiler holds), and {@code peakMemoryBytes},
 * the highest {@code memoryBytes} since the sandbox was created. Both are never above the memory
 * limit, and {@code memoryBytes <= peakMemoryBytes}; {@code collectgarbage("count")} is
 * {@code memoryBytes} in KiB.
 */
public record Usage(long gas, long memoryBytes, long peakMemoryBytes, long outputBytes, Duration elapsed) {
    @Override
    public String toString() {
        return "gas=" + gas + " memory=" + memoryBytes + " peakMemory=" + peakMemoryBytes + " output=" + outputBytes
                + " elapsed=" + elapsed.toMillis() + "ms";
    }
}
