package dev.luavm.audit;

import java.util.Arrays;

/**
 * A run of clock readings in one event: the reads of one clock whose value differed from the
 * clock's previous reading, each with its read number. A script that reads a clock in a loop
 * writes one of these per {@link #MAX_READS} changes, not one event per read, and a replay still
 * answers every read exactly: read {@code n} gets the value of the latest change at or before
 * {@code n} (before the first change: {@link RunStarted#clockMillis()} for the wall clock, 0 for
 * {@code os.clock}).
 *
 * <p>Reads are numbered per clock from 1 in the run. The wall clock ({@link Kind#WALL}:
 * {@code os.time}, {@code os.date}) is logged whenever there is an audit sink; {@code os.clock}
 * ({@link Kind#CPU}) only in a recording ({@code record(true)}). The runtime writes the pending
 * readings of a clock before any other event of the run, and when {@link #MAX_READS} are
 * pending, so the log keeps the order in which the script read clocks and called the host.
 *
 * @param clock  which clock
 * @param reads  the read numbers, strictly increasing, from 1
 * @param values what each of those reads returned: epoch milliseconds ({@code WALL}) or
 *               nanoseconds ({@code CPU})
 */
public record ClockReadings(String sandbox, long run, Kind clock, long[] reads, long[] values) implements AuditEvent {
    /** Readings kept in one event at most. */
    public static final int MAX_READS = 1024;

    /** Which clock was read. */
    public enum Kind {
        /** the wall clock ({@code os.time}, {@code os.date}), epoch milliseconds */
        WALL,
        /** {@code os.clock}, nanoseconds */
        CPU
    }

    /**
     * Copies the arrays and checks them: as many values as reads, between 1 and
     * {@link #MAX_READS}, read numbers positive and strictly increasing.
     */
    public ClockReadings {
        if (clock == null) throw new IllegalArgumentException("no clock");
        reads = reads.clone();
        values = values.clone();
        if (reads.length != values.length) {
            throw new IllegalArgumentException(reads.length + " read numbers but " + values.length + " values");
        }
        if (reads.length == 0 || reads.length > MAX_READS) {
            throw new IllegalArgumentException("between 1 and " + MAX_READS + " readings per event, not " + reads.length);
        }
        for (int i = 0; i < reads.length; i++) {
            if (reads[i] < 1 || i > 0 && reads[i] <= reads[i - 1]) {
                throw new IllegalArgumentException("read numbers must increase from 1: " + Arrays.toString(reads));
            }
        }
    }

    /** How many readings the event holds. */
    public int size() {
        return reads.length;
    }

    /** The read numbers (a copy). */
    @Override
    public long[] reads() {
        return reads.clone();
    }

    /** The values read (a copy). */
    @Override
    public long[] values() {
        return values.clone();
    }

    /** The number of reading {@code i}. */
    public long read(int i) {
        return reads[i];
    }

    /** The value of reading {@code i}. */
    public long value(int i) {
        return values[i];
    }

    /** The first read number. */
    public long firstRead() {
        return reads[0];
    }

    /** The last read number. */
    public long lastRead() {
        return reads[reads.length - 1];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClockReadings c && c.sandbox.equals(sandbox) && c.run == run && c.clock == clock
                && Arrays.equals(c.reads, reads) && Arrays.equals(c.values, values);
    }

    @Override
    public int hashCode() {
        return ((sandbox.hashCode() * 31 + Long.hashCode(run)) * 31 + clock.hashCode()) * 31
                + Arrays.hashCode(reads) * 17 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ClockReadings[sandbox=" + sandbox + ", run=" + run + ", clock=" + clock + ", reads="
                + Arrays.toString(reads) + ", values=" + Arrays.toString(values) + "]";
    }
}
