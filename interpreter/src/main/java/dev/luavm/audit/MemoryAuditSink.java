package dev.luavm.audit;

import java.util.ArrayList;
import java.util.List;

/** Keeps events in memory, in order; thread-safe. For tests, and for hosts that ship the log themselves. */
public final class MemoryAuditSink implements AuditSink {
    private final List<AuditEvent> events = new ArrayList<>();

    @Override
    public synchronized void write(AuditEvent event) {
        events.add(event);
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

    /** Forgets the events kept so far. */
    public synchronized void clear() {
        events.clear();
    }
}
