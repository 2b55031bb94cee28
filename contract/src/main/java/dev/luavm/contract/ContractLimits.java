package dev.luavm.contract;

import dev.luavm.Limits;

import java.time.Duration;

/**
 * The limits a contract sets. Every one but {@code audit} is required in a contract file, so what
 * a script may use is written down rather than inherited from a default that may change;
 * {@code audit} is optional (contracts written before it existed stay valid) and defaults to
 * {@link Limits#DEFAULT_AUDIT_EVENTS}.
 *
 * @param gas         units of work for the run (instructions, library work, host calls)
 * @param memoryBytes Lua memory the script may hold
 * @param time        wall-clock time of the run
 * @param outputBytes bytes the script may print
 * @param depth       nested Lua calls
 * @param auditEvents events the run may write to its audit log ({@code limits.audit})
 */
public record ContractLimits(long gas, long memoryBytes, Duration time, long outputBytes, int depth, long auditEvents) {
    /** The limits with the default audit bound. */
    public ContractLimits(long gas, long memoryBytes, Duration time, long outputBytes, int depth) {
        this(gas, memoryBytes, time, outputBytes, depth, Limits.DEFAULT_AUDIT_EVENTS);
    }

    /** As the runtime's {@link Limits}. */
    public Limits toLimits() {
        return Limits.defaults().withGas(gas).withMemory(memoryBytes).withTimeout(time).withOutput(outputBytes)
                .withCallDepth(depth).withAuditEvents(auditEvents);
    }
}
