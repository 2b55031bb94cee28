package dev.luavm;

import java.time.Duration;

/**
 * What a sandbox has used. Gas, output and elapsed time are for the most recent run
 * ({@code eval}, {@code run} or {@code call}; the gas limit applies to their total); memory is
 * the Lua heap of the sandbox, which persists between runs: {@code memoryBytes} as accounted now
 * (live at the last heap walk plus what was allocated since) and {@code peakMemoryBytes} since
 * the sandbox was created (the deterministic figure the memory limit is checked against, the
 * same on every JVM).
 */
public record Usage(long gas, long memoryBytes, long peakMemoryBytes, long outputBytes, Duration elapsed) {
    @Override
    public String toString() {
        return "gas=" + gas + " memory=" + memoryBytes + " peakMemory=" + peakMemoryBytes + " output=" + outputBytes
                + " elapsed=" + elapsed.toMillis() + "ms";
    }
}
