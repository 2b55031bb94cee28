package dev.luavm.audit;

import dev.luavm.LuaHandle;
import dev.luavm.host.Redactor;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded copies of host-call arguments and results for the audit log. A log entry must stay
 * small whatever a script passes, and must not keep the script's values alive: strings are cut
 * to {@link #MAX_STRING} characters, tables to {@link #MAX_ENTRIES} entries and {@link #MAX_DEPTH}
 * levels, binary strings become a length, functions and host objects their type. What was cut
 * is marked in the copy ({@code "...(5000 more chars)"}) and by {@link Bounded#complete()}.
 */
public final class AuditValues {
    /** Logged in place of nil inside a list (immutable lists hold no null). */
    public static final String NIL = "<nil>";
    public static final int MAX_STRING = 256;
    public static final int MAX_ENTRIES = 32;
    public static final int MAX_DEPTH = 4;

    private AuditValues() {}

    /** A bounded copy and whether it is the whole value. */
    public record Bounded(List<Object> values, boolean complete) {}

    /**
     * The values after {@code redactor} (called with {@code names[i]}, else {@code prefix + (i+1)}),
     * bounded.
     */
    public static Bounded of(List<?> values, Redactor redactor, List<String> names, String prefix) {
        if (values.isEmpty()) return EMPTY;
        if (redactor == Redactor.none() && allSmallScalars(values)) {
            return new Bounded(List.copyOf(values), true); // the common case: copied as is (no nulls among scalars)
        }
        boolean[] complete = {true};
        List<Object> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            Object v = values.get(i);
            String name = i < names.size() ? names.get(i) : prefix + (i + 1);
            Object r = redactor.redact(name, v);
            if (r != v) complete[0] = false;
            out.add(copy(r, 0, complete));
        }
        return new Bounded(List.copyOf(out), complete[0]); // nil is NIL here, so List.copyOf takes it
    }

    private static final Bounded EMPTY = new Bounded(List.of(), true);

    private static boolean allSmallScalars(List<?> values) {
        for (Object v : values) {
            if (v instanceof Long || v instanceof Boolean || v instanceof Double) continue;
            if (v instanceof String s && s.length() <= MAX_STRING) continue;
            return false;
        }
        return true;
    }

    private static Object copy(Object v, int depth, boolean[] complete) {
        if (v == null) return NIL;
        if (v instanceof Boolean || v instanceof Long || v instanceof Double) return v;
        if (v instanceof Integer i) return (long) i;
        if (v instanceof String s) {
            if (s.length() <= MAX_STRING) return s;
            complete[0] = false;
            return s.substring(0, MAX_STRING) + "...(" + (s.length() - MAX_STRING) + " more chars)";
        }
        if (v instanceof byte[] b) {
            complete[0] = false;
            return "<" + b.length + " bytes>";
        }
        if (v instanceof List<?> l) {
            if (depth >= MAX_DEPTH) {
                complete[0] = false;
                return "<table>";
            }
            List<Object> out = new ArrayList<>(Math.min(l.size(), MAX_ENTRIES + 1));
            int n = 0;
            for (Object e : l) {
                if (n++ == MAX_ENTRIES) {
                    complete[0] = false;
                    out.add("...(" + (l.size() - MAX_ENTRIES) + " more)");
                    break;
                }
                out.add(copy(e, depth + 1, complete));
            }
            return Collections.unmodifiableList(out);
        }
        if (v instanceof Map<?, ?> m) {
            if (depth >= MAX_DEPTH) {
                complete[0] = false;
                return "<table>";
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            int n = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (n++ == MAX_ENTRIES) {
                    complete[0] = false;
                    out.put("...", "(" + (m.size() - MAX_ENTRIES) + " more)");
                    break;
                }
                out.put(copy(e.getKey(), depth + 1, complete), copy(e.getValue(), depth + 1, complete));
            }
            return Collections.unmodifiableMap(out);
        }
        complete[0] = false;
        if (v instanceof LuaHandle h) return "<" + h.type() + ">";
        return "<userdata>";
    }
}
