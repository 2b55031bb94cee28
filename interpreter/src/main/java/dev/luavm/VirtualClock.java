package dev.luavm;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * The wall clock of {@link Sandbox.Builder#virtualTime}: a start instant plus virtual
 * nanoseconds derived from the sandbox's gas, so time advances with the work done and a loop
 * waiting on {@code os.time} still ends, while every run of the same script reads the same values.
 */
final class VirtualClock extends Clock {
    /** Virtual nanoseconds per unit of gas (1 s per 100 million gas). */
    static final long NANOS_PER_GAS = 10;

    private final Instant start;
    private final ZoneId zone;
    private LongSupplier nanos = () -> 0;

    VirtualClock(Instant start, Clock zoneFrom) {
        this.start = start;
        this.zone = zoneFrom != null ? zoneFrom.getZone() : ZoneOffset.UTC;
    }

    /** Where the elapsed virtual nanoseconds come from (set once the engine exists). */
    void nanos(LongSupplier nanos) {
        this.nanos = nanos;
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a sandbox's virtual clock has a fixed zone");
    }

    @Override
    public Instant instant() {
        return start.plusNanos(nanos.getAsLong());
    }

    @Override
    public long millis() {
        return start.toEpochMilli() + nanos.getAsLong() / 1_000_000;
    }
}
