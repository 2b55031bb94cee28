package dev.luavm.audit;

import dev.luavm.meter.GasMeter;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an audit event weighs: its size in the log as the runtime estimates it, which the run
 * pays for in gas, and what it takes on a host's heap, which an in-memory sink's budget pays for.
 *
 * <p>The estimates are deterministic: they depend on what the script did (the function it called,
 * the arguments, the results and errors it got, the clock values it read), never on the JVM or on
 * what the host alone chose (a policy's reason, the elapsed time), so a replay pays exactly the
 * gas of the recorded run. {@link #logBytes} is {@value #EVENT_BYTES} bytes per event plus its
 * values: a string its length, a number 8, a boolean or nil 1, a table 2 plus 1 per entry plus its
 * keys and values (a table met twice counted once), a clock reading {@value #READING_BYTES}.
 * Gas is one unit per {@link GasMeter#BYTES_PER_GAS} bytes of that, rounded up.
 */
public final class AuditCost {
    /** What any event costs in the log besides its values. */
    public static final int EVENT_BYTES = 64;
    /** What one clock reading costs in a {@link ClockReadings} event. */
    public static final int READING_BYTES = 8;
    /** What an event costs on the heap besides its values (the records, lists and boxes). */
    static final int HEAP_EVENT_BYTES = 256;

    private AuditCost() {}

    /**
     * The gas a run pays to write {@code e}: its {@link #logBytes} at the byte rule; a
     * {@link ClockReadings} event is paid as it fills, {@value #EVENT_BYTES} bytes (and the
     * sandbox's name) at its first reading and {@link #READING_GAS} per reading.
     */
    public static long gas(AuditEvent e) {
        if (e instanceof ClockReadings c) return readingsEventGas(c.sandbox()) + c.size() * READING_GAS;
        return GasMeter.byteWork(logBytes(e));
    }

    /** The gas of one more reading in a {@link ClockReadings} event. */
    public static final long READING_GAS = (READING_BYTES + GasMeter.BYTES_PER_GAS - 1) / GasMeter.BYTES_PER_GAS;

    /** The gas of a {@link ClockReadings} event of {@code sandbox} besides its readings. */
    static long readingsEventGas(String sandbox) {
        return GasMeter.byteWork(EVENT_BYTES + (long) sandbox.length());
    }

    /** The estimated size of {@code e} in the log (see the class comment). */
    public static long logBytes(AuditEvent e) {
        long n = EVENT_BYTES;
        if (e instanceof HostCallEvent h) {
            n += h.function().length() + values(h.args()) + values(h.results()) + length(h.error());
        } else if (e instanceof Recorded r) {
            n += values(r.values());
        } else if (e instanceof ClockReadings c) {
            n += (long) c.size() * READING_BYTES;
        } else if (e instanceof RunStarted s) {
            n += length(s.chunk()) + values(s.capabilities()) + values(List.of(s.limits())) + 128;
        } else if (e instanceof RunEnded r) {
            n += length(r.error()) + 192;
        }
        return n + length(e.sandbox());
    }

    /** The estimated heap {@code e} takes while a sink keeps it (an in-memory sink's budget). */
    public static long heapBytes(AuditEvent e) {
        long extra = e instanceof HostCallEvent h ? length(h.reason()) : 0;
        return HEAP_EVENT_BYTES + 2 * (logBytes(e) - EVENT_BYTES + extra);
    }

    private static long length(String s) {
        return s == null ? 0 : s.length();
    }

    /** The values' estimated size: a walk with an explicit stack, each table counted once. */
    static long values(Object root) {
        if (root instanceof List<?> list) { // the common case, a host call's few scalars: no walk
            long n = 2;
            for (Object v : list) {
                long s = scalar(v);
                if (s < 0) return walk(root);
                n += 1 + s;
            }
            return n;
        }
        return walk(root);
    }

    /** The size of a scalar value, or -1 for a table. */
    private static long scalar(Object v) {
        if (v == null || v instanceof Boolean) return 1;
        if (v instanceof Number) return 8;
        if (v instanceof CharSequence s) return s.length();
        if (v instanceof byte[] b) return b.length;
        if (v instanceof Collection<?> || v instanceof Map<?, ?> || v instanceof Object[]) return -1;
        return 8; // a handle, a host object: its type name in the log
    }

    private static long walk(Object root) {
        long n = 0;
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<Object> todo = new ArrayDeque<>();
        todo.push(root == null ? NIL : root);
        while (!todo.isEmpty()) {
            Object v = todo.pop();
            long size = v == NIL ? 1 : scalar(v);
            if (size >= 0) n += size;
            else {
                if (seen.put(v, Boolean.TRUE) != null) continue;
                n += 2;
                if (v instanceof Map<?, ?> m) {
                    for (Map.Entry<?, ?> e : m.entrySet()) {
                        n += 1;
                        todo.push(e.getKey() == null ? NIL : e.getKey());
                        todo.push(e.getValue() == null ? NIL : e.getValue());
                    }
                } else {
                    Iterable<?> items = v instanceof Object[] a ? java.util.Arrays.asList(a) : (Collection<?>) v;
                    for (Object o : items) {
                        n += 1;
                        todo.push(o == null ? NIL : o);
                    }
                }
            }
        }
        return n;
    }

    private static final Object NIL = new Object();
}
