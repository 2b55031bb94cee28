package dev.luavm.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps events in memory, in order, within a budget of host heap the host chooses; thread-safe.
 * For tests, and for hosts that ship the log themselves.
 *
 * <p>Each event is charged its estimated heap size ({@link AuditCost#heapBytes}) as it is kept.
 * Once the events kept reach the budget the sink is {@linkplain #full() full}: the runtime then
 * ends the next run, host call or clock read of any sandbox writing here with the {@code AUDIT}
 * limit instead of writing more (only the events already under way, a host call that had begun
 * and each run's end, are still kept). So the sink never grows without bound, whatever scripts
 * do; {@link #clear()} gives the budget back. The default budget is {@value #DEFAULT_MAX_BYTES}
 * bytes. Besides this budget each run is bounded by its own {@code Limits.auditEvents()}.
 */
public final class MemoryAuditSink implements AuditSink {
    /** The default budget: 32 MiB of estimated heap. */
    public static final long DEFAULT_MAX_BYTES = 32L << 20;

    private final long maxBytes;
    private final List<AuditEvent> events = new ArrayList<>();
    private long bytes;

    /** A sink with the default budget ({@value #DEFAULT_MAX_BYTES} bytes). */
    public MemoryAuditSink() {
        this(DEFAULT_MAX_BYTES);
    }

    /** A sink that keeps about {@code maxBytes} bytes of events at most. */
    public MemoryAuditSink(long maxBytes) {
        if (maxBytes <= 0) throw new IllegalArgumentException("budget must be positive: " + maxBytes);
        this.maxBytes = maxBytes;
    }

    @Override
    public synchronized void write(AuditEvent event) {
        bytes += AuditCost.heapBytes(event);
        events.add(event);
    }

    @Override
    public synchronized boolean full() {
        return bytes >= maxBytes;
    }

    /** The estimated heap the events kept take ({@link AuditCost#heapBytes}). */
    public synchronized long bytes() {
        return bytes;
    }

    /** The budget. */
    public long maxBytes() {
        return maxBytes;
    }

    /** A copy of the events so far. */
    public synchronized List<AuditEvent> events() {
        return List.copyOf(events);
    }

    /** The events of one type, in order. */
    public synchronized <T extends AuditEvent> List<T> events(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (AuditEvent e : events) if (type.isInstance(e)) out.add(type.cast(e));
        return out;
    }

    /** Forgets the events kept so far, and gives their budget back. */
    public synchronized void clear() {
        events.clear();
        bytes = 0;
    }
}
