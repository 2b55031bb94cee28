package dev.luavm.audit;

/**
 * One entry of a sandbox's audit log. A run writes, in order: one {@link RunStarted}, one
 * {@link HostCallEvent} per host call (every call, including denied, forbidden, failing and
 * cancelled ones, exactly once, numbered from 1), and one {@link RunEnded}, also when the run
 * was ended by a limit or {@code cancel()}. Events are immutable values, safe to keep and to
 * read on any thread.
 *
 * Interleaved with the host calls, a {@link ClockReading} each time the wall clock the script
 * reads has changed.
 *
 * <p>Together the events hold what a later replay needs from outside the script: the source
 * digest and inputs digest, the random seed, the wall clock at the start and its changes, and
 * each host call's results or error (in full when {@link HostCallEvent#complete()}). A sandbox
 * built with {@code record(true)} also writes the {@link Recorded} full-value channel (source,
 * inputs, host results in full, {@code os.clock} readings, an output digest): the log is then a
 * recording that {@link dev.luavm.replay.Replayer} can replay.
 */
public sealed interface AuditEvent permits RunStarted, HostCallEvent, ClockReading, RunEnded, Recorded {
    /** The sandbox's name. */
    String sandbox();

    /** The run's number in its sandbox, from 1. */
    long run();
}
