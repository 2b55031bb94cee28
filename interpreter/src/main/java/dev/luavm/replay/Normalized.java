package dev.luavm.replay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Logged (bounded) values as a JSON round trip leaves them, so a value read back from a log
 * file compares equal to the same value fresh from a replay: map keys become text, integers
 * Long, non-finite floats {@code "inf"}, {@code "-inf"}, {@code "nan"}, anything else its text.
 */
final class Normalized {
    private Normalized() {}

    static Object of(Object v) {
        if (v == null || v instanceof Boolean || v instanceof Long || v instanceof String) return v;
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) return "nan";
            if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
            return d;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>(c.size());
            for (Object o : c) out.add(of(o));
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) out.put(String.valueOf(e.getKey()), of(e.getValue()));
            return out;
        }
        return String.valueOf(v);
    }
}
