package dev.luavm.audit;

import dev.luavm.Usage;

/**
 * A run ended, however it ended.
 *
 * @param outcome       how
 * @param limit         the limit's label ({@code "gas"}, {@code "time"}, {@code "memory"}...) for {@link Outcome#LIMIT}, else null
 * @param error         the error message for every outcome but OK (bounded), else null
 * @param resultDigest  SHA-256 of the results in the canonical encoding, for OK; else null
 * @param usage         what the run used ({@code Sandbox.usage()})
 * @param hostCalls     how many host call events the run wrote
 */
public record RunEnded(String sandbox, long run, Outcome outcome, String limit, String error, String resultDigest,
                       Usage usage, long hostCalls) implements AuditEvent {
    /** How a run ended. */
    public enum Outcome {
        /** returned results */
        OK,
        /** an uncaught Lua error (including a syntax error) */
        ERROR,
        /** a limit: gas, memory, time, output or depth */
        LIMIT,
        /** {@code Sandbox.cancel()} */
        CANCELLED,
        /** the audit sink failed: the run was stopped (fail closed) */
        AUDIT_FAILED,
        /** anything else the host saw (a conversion failure, an internal error) */
        FAILED
    }
}
