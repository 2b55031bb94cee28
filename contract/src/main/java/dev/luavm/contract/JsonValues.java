package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON to the Java values a sandbox takes as arguments, and a run's Java results back to JSON.
 * Objects are maps (in the document's order), arrays lists, integers {@code Long}, other numbers
 * {@code Double}, JSON null nil (a field whose value is null is absent in Lua).
 */
final class JsonValues {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** As deep as the sandbox converts (its default bound). */
    static final int MAX_DEPTH = 100;

    private JsonValues() {}

    /**
     * Thrown when a value has no JSON (or Lua) form. The message says where and why (the path
     * names the value's keys, which may be data); {@link #kind()} says only why, in fixed words.
     */
    static final class NotConvertible extends Exception {
        private final String kind;

        NotConvertible(String message, String kind) {
            super(message, null, false, false);
            this.kind = kind;
        }

        /** Why, without where: fixed text ("a table that contains itself"). */
        String kind() {
            return kind;
        }
    }

    /** As many values as the sandbox converts (its default bound). */
    static final long MAX_VALUES = 1_000_000;

    /** JSON to Java, for the script: at most {@link #MAX_DEPTH} levels and {@link #MAX_VALUES} values. */
    static Object toJava(JsonNode n, String at, int depth) throws NotConvertible {
        return toJava(n, at, depth, new long[1]);
    }

    private static Object toJava(JsonNode n, String at, int depth, long[] count) throws NotConvertible {
        if (++count[0] > MAX_VALUES) throw new NotConvertible("more than " + MAX_VALUES + " values", "more than " + MAX_VALUES + " values");
        if (depth > MAX_DEPTH) throw new NotConvertible(at + ": nested more than " + MAX_DEPTH + " levels", "nested more than " + MAX_DEPTH + " levels");
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                m.put(e.getKey(), toJava(e.getValue(), at + "/" + e.getKey(), depth + 1, count));
            }
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            for (int i = 0; i < n.size(); i++) l.add(toJava(n.get(i), at + "/" + i, depth + 1, count));
            return l;
        }
        if (n.isIntegralNumber()) {
            if (!n.canConvertToLong()) throw new NotConvertible(at + ": integer " + n.asText() + " does not fit in 64 bits", "an integer that does not fit in 64 bits");
            return n.longValue();
        }
        if (n.isNumber()) return n.doubleValue();
        if (n.isTextual()) return n.textValue();
        if (n.isBoolean()) return n.booleanValue();
        return null;
    }

    /** A run's result to JSON, for the output schema. */
    static JsonNode toJson(Object v) throws NotConvertible {
        return toJson(v, "result", 0, new IdentityHashMap<>());
    }

    private static JsonNode toJson(Object v, String at, int depth, IdentityHashMap<Object, Boolean> open) throws NotConvertible {
        if (depth > MAX_DEPTH) throw new NotConvertible(at + " is nested more than " + MAX_DEPTH + " levels", "nested more than " + MAX_DEPTH + " levels");
        if (v == null) return NODES.nullNode();
        if (v instanceof Boolean b) return NODES.booleanNode(b);
        if (v instanceof Long l) return NODES.numberNode(l);
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) throw new NotConvertible(at + " is " + d + ", which JSON cannot hold", "NaN or an infinity, which JSON cannot hold");
            return NODES.numberNode(d);
        }
        if (v instanceof String s) return NODES.textNode(s);
        if (v instanceof byte[]) throw new NotConvertible(at + " is a string that is not UTF-8 text", "a string that is not UTF-8 text");
        if (open.put(v, Boolean.TRUE) != null) throw new NotConvertible(at + " contains itself", "a table that contains itself");
        try {
            if (v instanceof List<?> list) {
                ArrayNode a = NODES.arrayNode(list.size());
                for (int i = 0; i < list.size(); i++) a.add(toJson(list.get(i), at + "[" + (i + 1) + "]", depth + 1, open));
                return a;
            }
            if (v instanceof Map<?, ?> map) {
                ObjectNode o = NODES.objectNode();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!(e.getKey() instanceof String k)) {
                        throw new NotConvertible(at + " has the key " + describeKey(e.getKey()) + "; JSON object keys are strings",
                                "a key that is not a string in a table that is not a sequence");
                    }
                    o.set(k, toJson(e.getValue(), at + "." + k, depth + 1, open));
                }
                return o;
            }
        } finally {
            open.remove(v);
        }
        String what = v instanceof dev.luavm.LuaHandle ? "a function or coroutine" : "a host object";
        throw new NotConvertible(at + " is " + what + ", which JSON cannot hold", what + ", which JSON cannot hold");
    }

    private static String describeKey(Object k) {
        return k instanceof String s ? "'" + s + "'" : String.valueOf(k);
    }
}
