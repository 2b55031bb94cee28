package dev.luavm.audit;

/**
 * One entry of a sandbox's audit log. A run writes, in order: one {@link RunStarted}, one
 * {@link HostCallEvent} per host call (every call, including denied, forbidden, failing and
 * cancelled ones, exactly once, numbered from 1), and one {@link RunEnded}, also when the run
 * was ended by a limit or {@code cancel()}. Events are immutable values, safe to keep and to
 * read on any thread.
 *
 * <p>Together the events hold what a later replay needs from outside the script: the source
 * digest and inputs digest, the random seed and the clock at the start, and each host call's
 * results or error (in full when {@link HostCallEvent#complete()}).
 */
public sealed interface AuditEvent permits RunStarted, HostCallEvent, RunEnded {
    /** The sandbox's name. */
    String sandbox();

    /** The run's number in its sandbox, from 1. */
    long run();
}
