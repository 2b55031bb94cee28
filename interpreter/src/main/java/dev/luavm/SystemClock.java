package dev.luavm;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The system clock in the default time zone, like {@link Clock#systemDefaultZone()}, except that
 * the zone is looked up when first asked for ({@code os.date} without "!"): loading the zone
 * rules is a visible part of start-up, and most runs never need them.
 */
final class SystemClock extends Clock {
    private volatile ZoneId zone;

    @Override
    public ZoneId getZone() {
        ZoneId z = zone;
        if (z == null) zone = z = ZoneId.systemDefault();
        return z;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.system(zone);
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
