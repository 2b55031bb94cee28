package dev.luavm.audit;

import dev.luavm.host.Safety;

import java.util.List;

/**
 * One call from Lua into a host function, written once its outcome is known.
 *
 * @param seq          the call's number in the run, from 1 (what policies see as the call number)
 * @param function     the dotted name called
 * @param safety       the grant's safety class
 * @param args         the arguments after the grant's redactor, bounded in size ({@link AuditValues})
 * @param verdict      what the gateway decided
 * @param reason       why: the policy's or operator's reason, the constraint that failed, the bad argument
 * @param outcome      what happened next
 * @param results      the results (redacted, bounded) when the function returned, else empty
 * @param error        the Lua error message when it raised or was refused, the limit when the run ended during the call; else null
 * @param gas          the run's gas used when the call began
 * @param elapsedNanos the run's elapsed time when the call began
 * @param complete     true when {@code args} and {@code results} are the values themselves (nothing cut or redacted)
 */
public record HostCallEvent(String sandbox, long run, long seq, String function, Safety safety, List<Object> args,
                            Verdict verdict, String reason, Outcome outcome, List<Object> results, String error,
                            long gas, long elapsedNanos, boolean complete) implements AuditEvent {
    /** The gateway's decision. */
    public enum Verdict {
        /** ran (a SAFE function, or the policy or operator allowed it) */
        ALLOWED,
        /** refused by the policy, the operator, a quota or an argument constraint */
        DENIED,
        /** refused because the grant is FORBIDDEN; the policy was not consulted */
        FORBIDDEN,
        /** refused because an argument had the wrong type or could not be converted */
        INVALID,
        /** no decision: the run ended first (gas, time, cancel while charging or waiting for an operator) */
        UNDECIDED,
        /** the policy or operator paused the run at this call ({@code Decision.suspend}) */
        PAUSED
    }

    /** What came of the call. */
    public enum Outcome {
        /** the function returned {@code results} */
        RETURNED,
        /** the function raised the Lua error {@code error} */
        RAISED,
        /** the function did not run: see {@code verdict} */
        REFUSED,
        /** the run ended (a limit or cancel, named in {@code error}) during the call */
        RUN_ENDED,
        /** the run paused at the call: a snapshot was taken, and a resumed run gives the call its results */
        PAUSED
    }

    /** Copies the lists (nil values kept as a marker). */
    public HostCallEvent {
        args = List.copyOf(args == null ? List.of() : nullSafe(args));
        results = List.copyOf(results == null ? List.of() : nullSafe(results));
    }

    /** List.copyOf refuses nulls, but nil is a value: nil is kept as {@link AuditValues#NIL}. */
    private static List<Object> nullSafe(List<Object> l) {
        boolean hasNull = false;
        for (Object o : l) hasNull |= o == null;
        if (!hasNull) return l;
        List<Object> out = new java.util.ArrayList<>(l.size());
        for (Object o : l) out.add(o == null ? AuditValues.NIL : o);
        return out;
    }
}
