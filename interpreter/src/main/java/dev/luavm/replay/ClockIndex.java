package dev.luavm.replay;

import dev.luavm.audit.ClockReadings;

import java.util.ArrayList;
import java.util.List;

/**
 * One clock's recorded readings in a run, for answering read {@code n} with the latest change at
 * or before it: the {@link ClockReadings} events in order, searched by their first read number
 * (no copy of the readings, so a long recording costs no more here than in its events).
 */
final class ClockIndex {
    private final List<ClockReadings> events = new ArrayList<>();

    /** The last read number added (0 before any). */
    long lastRead() {
        return events.isEmpty() ? 0 : events.get(events.size() - 1).lastRead();
    }

    /** Adds the next event; its reads must come after those already added (checked by the caller). */
    void add(ClockReadings e) {
        events.add(e);
    }

    /** The value of read {@code read}: the latest change at or before it, else {@code otherwise}. */
    long valueAt(long read, long otherwise) {
        int lo = 0, hi = events.size() - 1, found = -1;
        while (lo <= hi) { // the last event whose first read is at or before read
            int mid = (lo + hi) >>> 1;
            if (events.get(mid).firstRead() <= read) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) return otherwise;
        ClockReadings e = events.get(found);
        int a = 0, b = e.size() - 1, at = 0;
        while (a <= b) {
            int mid = (a + b) >>> 1;
            if (e.read(mid) <= read) {
                at = mid;
                a = mid + 1;
            } else {
                b = mid - 1;
            }
        }
        return e.value(at);
    }
}
