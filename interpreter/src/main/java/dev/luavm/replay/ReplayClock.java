package dev.luavm.replay;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The wall clock of a replay: answers each read of the current run from the recording (the
 * run's start, then read {@code n} with the change recorded at or before {@code n}).
 */
final class ReplayClock extends Clock {
    private final ZoneId zone;
    private Recording.Run run;
    /** -1 before the run's start reading */
    private long reads;

    ReplayClock(ZoneId zone) {
        this.zone = zone;
    }

    void startRun(Recording.Run run) {
        this.run = run;
        this.reads = -1;
    }

    @Override
    public long millis() {
        if (run == null) return 0;
        long n = reads++;
        return n < 0 ? run.started().clockMillis() : run.clockMillis(n + 1);
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
