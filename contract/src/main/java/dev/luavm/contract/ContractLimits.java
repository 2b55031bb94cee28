package dev.luavm.contract;

import dev.luavm.Limits;

import java.time.Duration;

/**
 * The limits a contract sets. Every one is required in a contract file, so what a script may use
 * is written down rather than inherited from a default that may change.
 *
 * @param gas         units of work for the run (instructions, library work, host calls)
 * @param memoryBytes Lua memory the script may hold
 * @param time        wall-clock time of the run
 * @param outputBytes bytes the script may print
 * @param depth       nested Lua calls
 */
public record ContractLimits(long gas, long memoryBytes, Duration time, long outputBytes, int depth) {
    /** As the runtime's {@link Limits}. */
    public Limits toLimits() {
        return Limits.defaults().withGas(gas).withMemory(memoryBytes).withTimeout(time).withOutput(outputBytes)
                .withCallDepth(depth);
    }
}
