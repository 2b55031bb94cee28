package dev.luavm.mcp;

import dev.luavm.LuaHandle;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values between JSON (as Jackson reads and writes them: Map, List, String, Long, Double,
 * Boolean, null) and the Java values a sandbox takes and gives ({@code ValueConverter}'s rules).
 *
 * <p>What Lua cannot say by itself is taken from the JSON Schema where one is known: an empty
 * table is {@code []} where the schema asks for an array and {@code {}} otherwise, and a table
 * with holes ({@code {1, nil, 3}}) is an array with nulls where the schema asks for an array.
 * Integers stay integers and floats floats both ways ({@code 2.0} stays a float). JSON null
 * becomes nil. Walks are bounded in depth and in the number of values, since a Lua result may
 * share one sub-table many times over (a DAG whose JSON form would be exponential).
 */
final class JsonValues {
    static final int MAX_DEPTH = 100;
    static final int MAX_VALUES = 200_000;
    /** Characters of strings and keys in one encoding: one string shared by many slots counts each time. */
    static final long MAX_CHARS = 16L << 20;

    /** A value that cannot be written as JSON; the message says which and why. */
    static final class JsonException extends RuntimeException {
        JsonException(String message) {
            super(message);
        }
    }

    private int values;
    private long chars;
    private final boolean lenient;

    private JsonValues(boolean lenient) {
        this.lenient = lenient;
    }

    /**
     * A script's results as JSON for the client to read: anything goes, what JSON lacks is
     * spelled as a string ({@code "<function>"}, {@code "inf"}, {@code "nan"}), a string that is
     * not UTF-8 as {@code {"base64": "..."}}.
     */
    static Object resultToJson(Object value) {
        return new JsonValues(true).toJson(value, null, 0);
    }

    /** Arguments for an upstream tool, shaped by its input schema where Lua is ambiguous; strict. */
    static Object argumentsToJson(Object value, Map<String, Object> schema) {
        return new JsonValues(false).toJson(value, schema, 0);
    }

    private Object toJson(Object v, Map<String, Object> schema, int depth) {
        if (++values > MAX_VALUES) throw new JsonException("more than " + MAX_VALUES + " values to encode as JSON");
        if (depth > MAX_DEPTH) throw new JsonException("more than " + MAX_DEPTH + " levels to encode as JSON");
        if (v instanceof String s) return text(s);
        if (v == null || v instanceof Boolean || v instanceof Long) return v;
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) return d;
            if (!lenient) throw new JsonException("cannot encode " + lua(d) + " as JSON");
            return lua(d);
        }
        if (v instanceof byte[] b) {
            text(b.length); // before decoding: a shared string is decoded once per slot
            String s = utf8(b);
            if (s != null) return s;
            if (!lenient) throw new JsonException("cannot encode a string that is not UTF-8 as JSON");
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("base64", Base64.getEncoder().encodeToString(b));
            return m;
        }
        if (v instanceof List<?> list) {
            Map<String, Object> items = subschema(schema, "items");
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) out.add(toJson(e, items, depth + 1));
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            if (isArraySchema(schema)) {
                List<Object> asArray = holeyArray(map, schema, depth);
                if (asArray != null) return asArray;
            }
            Map<String, Object> props = subschema(schema, "properties");
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = text(key(e.getKey()));
                out.put(key, toJson(e.getValue(), props == null ? null : subschema(props, key), depth + 1));
            }
            return out;
        }
        if (!lenient) throw new JsonException("cannot encode a " + kind(v) + " as JSON");
        return "<" + kind(v) + ">";
    }

    private String text(String s) {
        text(s.length());
        return s;
    }

    private void text(long n) {
        chars += n;
        if (chars > MAX_CHARS) throw new JsonException("more than " + MAX_CHARS + " characters to encode as JSON");
    }

    /** {1, nil, 3} (keys 1..n with holes) or {} as a JSON array; null when the keys are not that. */
    private List<Object> holeyArray(Map<?, ?> map, Map<String, Object> schema, int depth) {
        long max = 0;
        for (Object k : map.keySet()) {
            if (!(k instanceof Long n) || n < 1) return null;
            max = Math.max(max, n);
        }
        if (max > 2L * map.size() + 8) return null; // too sparse to spell with nulls
        Map<String, Object> items = subschema(schema, "items");
        List<Object> out = new ArrayList<>((int) max);
        for (long i = 1; i <= max; i++) out.add(toJson(map.get(i), items, depth + 1));
        return out;
    }

    private String key(Object k) {
        if (k instanceof String s) return s;
        if (k instanceof Long || k instanceof Boolean) return k.toString();
        if (k instanceof Double d) return lua(d);
        if (k instanceof byte[] b && utf8(b) != null) return utf8(b);
        if (lenient) return "<" + kind(k) + ">";
        throw new JsonException("cannot encode a " + kind(k) + " key as a JSON object key");
    }

    private static String lua(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        return dev.luavm.value.LuaNumbers.toString(d);
    }

    private static String kind(Object v) {
        if (v instanceof LuaHandle) return "function";
        if (v instanceof byte[]) return "binary string";
        return "userdata";
    }

    private static String utf8(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    static boolean isArraySchema(Map<String, Object> schema) {
        if (schema == null) return false;
        Object t = schema.get("type");
        return "array".equals(t) || (t instanceof List<?> l && l.contains("array") && !l.contains("object"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> subschema(Map<String, Object> schema, String key) {
        if (schema == null) return null;
        Object s = schema.get(key);
        return s instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    /**
     * JSON as Jackson read it, made into values a sandbox takes: integers as Long (past the long
     * range, as floats, as Lua reads such numerals), other numbers as Double, null object members
     * left out (nil), null array elements kept (holes).
     */
    static Object fromJson(Object json) {
        return fromJson(json, 0, new int[1]);
    }

    private static Object fromJson(Object v, int depth, int[] count) {
        if (++count[0] > MAX_VALUES) throw new JsonException("more than " + MAX_VALUES + " values in a JSON result");
        if (depth > MAX_DEPTH) throw new JsonException("more than " + MAX_DEPTH + " levels in a JSON result");
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof BigInteger b) return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        if (v instanceof BigDecimal || v instanceof Float) return ((Number) v).doubleValue();
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) out.add(fromJson(e, depth + 1, count));
            return out;
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() != null) out.put(String.valueOf(e.getKey()), fromJson(e.getValue(), depth + 1, count));
            }
            return out;
        }
        return v;
    }
}
