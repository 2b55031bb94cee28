package dev.luavm;

import java.time.Duration;

/**
 * What a sandbox has used. Gas, output and elapsed time are for the most recent run
 * ({@code eval}, {@code run} or {@code call}), each compared with its per-run limit; memory is
 * the live Lua heap of the sandbox, which persists between runs: {@code memoryBytes} now and
 * {@code peakMemoryBytes} since the sandbox was created (the deterministic estimate the memory
 * limit is checked against, the same on every JVM).
 */
public record Usage(long gas, long memoryBytes, long peakMemoryBytes, long outputBytes, Duration elapsed) {
    @Override
    public String toString() {
        return "gas=" + gas + " memory=" + memoryBytes + " peakMemory=" + peakMemoryBytes + " output=" + outputBytes
                + " elapsed=" + elapsed.toMillis() + "ms";
    }
}
