package dev.luavm.audit;

/**
 * One entry of a sandbox's audit log. A run writes, in order: one {@link RunStarted}, one
 * {@link HostCallEvent} per host call (every call, including denied, forbidden, failing and
 * cancelled ones, exactly once, numbered from 1), and one {@link RunEnded}, also when the run
 * was ended by a limit or {@code cancel()}. Events are immutable values, safe to keep and to
 * read on any thread. A run's events are bounded ({@code Limits.auditEvents()}) and cost it gas
 * ({@link AuditCost}).
 *
 * Interleaved with the host calls, {@link ClockReadings}: runs of the reads of a clock that
 * showed a new value (the wall clock always; {@code os.clock} in a recording).
 *
 * <p>Together the events hold what a later replay needs from outside the script: the source
 * digest and inputs digest, the random seed, the wall clock at the start and its changes, and
 * each host call's results or error (in full when {@link HostCallEvent#complete()}). A sandbox
 * built with {@code record(true)} also writes the {@link Recorded} full-value channel (source,
 * inputs, host results in full, {@code os.clock} readings, an output digest): the log is then a
 * recording that {@link dev.luavm.replay.Replayer} can replay.
 */
public sealed interface AuditEvent permits RunStarted, HostCallEvent, ClockReadings, RunEnded, Recorded {
    /** The sandbox's name. */
    String sandbox();

    /** The run's number in its sandbox, from 1. */
    long run();
}
