package dev.luavm.audit;

import dev.luavm.Usage;

/**
 * A run ended, however it ended: the run's last event, which seals it. Besides how the run ended
 * it records what a reader needs to tell a whole run from a cut or edited one: how many events the
 * run wrote (this one included), the digest of everything the run printed, and the digests of the
 * limits and capabilities its {@link RunStarted} claims. A JSON Lines log also seals its hash
 * chain on this event (docs/AUDIT.md).
 *
 * @param outcome            how
 * @param limit              the limit's label ({@code "gas"}, {@code "time"}, {@code "audit"}...) for {@link Outcome#LIMIT}, else null
 * @param error              the error message for every outcome but OK (bounded), else null
 * @param resultDigest       SHA-256 of the results in the canonical encoding, for OK; else null
 * @param usage              what the run used ({@code Sandbox.usage()})
 * @param hostCalls          how many host call events the run wrote
 * @param events             how many events the run wrote, its {@code RunStarted} and this one included
 * @param outputSha256       hex SHA-256 of the bytes the run printed (also when it printed none)
 * @param limitsSha256       {@link Digests#ofValues} of a list holding {@link RunStarted#limits()}
 * @param capabilitiesSha256 {@link Digests#ofValues} of {@link RunStarted#capabilities()}
 */
public record RunEnded(String sandbox, long run, Outcome outcome, String limit, String error, String resultDigest,
                       Usage usage, long hostCalls, long events, String outputSha256, String limitsSha256,
                       String capabilitiesSha256) implements AuditEvent {
    /** How a run ended. */
    public enum Outcome {
        /** returned results */
        OK,
        /** an uncaught Lua error (including a syntax error) */
        ERROR,
        /** a limit: gas, memory, time, output, depth or audit */
        LIMIT,
        /** {@code Sandbox.cancel()} */
        CANCELLED,
        /** the audit sink failed: the run was stopped (fail closed) */
        AUDIT_FAILED,
        /** anything else the host saw (a conversion failure, an internal error) */
        FAILED
    }
}
