package dev.luavm;

import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed access to values that came out of a sandbox: {@code as(value, int.class)} where a cast
 * would fail ({@code (Integer) sb.eval("return 1")} fails, since a Lua integer arrives as
 * {@code Long}). Used by {@link Sandbox#evalAs}, {@link Sandbox#getGlobal(String, Class)} and
 * {@link dev.luavm.host.Results#get(int, Class)}; usable on any converted value.
 *
 * <h2>Rules</h2>
 * <table>
 *   <caption>What each requested type accepts</caption>
 *   <tr><th>requested</th><th>accepts</th></tr>
 *   <tr><td>{@code long, int, short, byte} (or boxed)</td><td>an integer in the type's range, or a
 *       float with an exact integer value in range (Lua's float-to-integer rule)</td></tr>
 *   <tr><td>{@code double, float} (or boxed)</td><td>any number</td></tr>
 *   <tr><td>{@code Number}</td><td>any number, as it is ({@code Long} or {@code Double})</td></tr>
 *   <tr><td>{@code boolean} (or boxed)</td><td>a boolean only (no truthiness)</td></tr>
 *   <tr><td>{@code String}, {@code CharSequence}</td><td>a string that is valid UTF-8</td></tr>
 *   <tr><td>{@code byte[]}</td><td>any string, as its bytes</td></tr>
 *   <tr><td>{@code List}, {@code Collection}, {@code Iterable}</td><td>a sequence; an empty
 *       table whatever its origin</td></tr>
 *   <tr><td>{@code Map}</td><td>any table; a sequence becomes a map keyed 1..n ({@code Long})</td></tr>
 *   <tr><td>arrays ({@code int[]}, {@code String[]}, {@code Object[]}, ...)</td><td>a sequence
 *       or an empty table, each element converted by these rules</td></tr>
 *   <tr><td>an enum type</td><td>a string naming one of its constants</td></tr>
 *   <tr><td>{@link LuaHandle}</td><td>a function or coroutine</td></tr>
 *   <tr><td>any other type</td><td>a value of that Java type (e.g. a userdata's payload)</td></tr>
 * </table>
 * nil converts to {@code null} for every reference type and fails for primitives. Numbers are
 * never parsed from strings, nor strings made from numbers. Every failure is a
 * {@link LuaConversionException} that names the Lua value and the requested type.
 */
public final class TypedAccess {
    private TypedAccess() {}

    /**
     * Converts {@code value} (as a sandbox returned it) to {@code type} by the rules above.
     *
     * @param <T> the requested type ({@code Integer} for {@code int.class})
     * @param value a value converted from Lua, or null for nil
     * @param type the Java type wanted
     * @return the value as {@code type}; null for nil unless {@code type} is primitive
     * @throws LuaConversionException the value does not convert to {@code type}
     */
    @SuppressWarnings("unchecked")
    public static <T> T as(Object value, Class<T> type) {
        return (T) convert(value, type, "");
    }

    /**
     * Converts a sequence to a list whose elements are each converted to {@code elementType}.
     *
     * @param <E> the element type
     * @param value a sequence, an empty table or nil (gives null)
     * @param elementType the type of each element
     * @return an unmodifiable list
     * @throws LuaConversionException the value is not a sequence or an element does not convert
     */
    public static <E> List<E> asList(Object value, Class<E> elementType) {
        if (value == null) return null;
        List<?> items = (List<?>) convert(value, List.class, "");
        List<E> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(boxed(elementType).cast(convert(items.get(i), elementType, "element " + (i + 1) + ": ")));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Converts a table to a map whose keys and values are each converted.
     *
     * @param <K> the key type
     * @param <V> the value type
     * @param value a table or nil (gives null)
     * @param keyType the type of each key
     * @param valueType the type of each value
     * @return an unmodifiable map in the table's traversal order
     * @throws LuaConversionException the value is not a table or a key or value does not convert
     */
    public static <K, V> Map<K, V> asMap(Object value, Class<K> keyType, Class<V> valueType) {
        if (value == null) return null;
        Map<?, ?> m = (Map<?, ?>) convert(value, Map.class, "");
        Map<K, V> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            K k = boxed(keyType).cast(convert(e.getKey(), keyType, "key " + e.getKey() + ": "));
            V v = boxed(valueType).cast(convert(e.getValue(), valueType, "field " + e.getKey() + ": "));
            out.put(k, v);
        }
        return Collections.unmodifiableMap(out);
    }

    /** The class whose {@code cast} accepts the converted value: Integer for {@code int.class}. */
    @SuppressWarnings("unchecked")
    private static <T> Class<T> boxed(Class<T> type) {
        if (!type.isPrimitive()) return type;
        Object sample = Array.get(Array.newInstance(type, 1), 0);
        return (Class<T>) sample.getClass();
    }

    private static Object convert(Object v, Class<?> type, String where) {
        if (type == Object.class) return v;
        if (v == null) {
            if (type.isPrimitive()) throw fail(where, v, type, null);
            return null;
        }
        if (type == long.class || type == Long.class) return integer(v, type, where, Long.MIN_VALUE, Long.MAX_VALUE);
        if (type == int.class || type == Integer.class) {
            return (int) integer(v, type, where, Integer.MIN_VALUE, Integer.MAX_VALUE);
        }
        if (type == short.class || type == Short.class) return (short) integer(v, type, where, Short.MIN_VALUE, Short.MAX_VALUE);
        if (type == byte.class || type == Byte.class) return (byte) integer(v, type, where, Byte.MIN_VALUE, Byte.MAX_VALUE);
        if (type == double.class || type == Double.class) return number(v, type, where).doubleValue();
        if (type == float.class || type == Float.class) return number(v, type, where).floatValue();
        if (type == Number.class) return number(v, type, where);
        if (type == boolean.class || type == Boolean.class) {
            if (v instanceof Boolean) return v;
            throw fail(where, v, type, null);
        }
        if (type == String.class || type == CharSequence.class) return string(v, type, where);
        if (type == byte[].class) {
            if (v instanceof byte[] b) return b.clone();
            if (v instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
            throw fail(where, v, type, null);
        }
        if (type == List.class || type == Collection.class || type == Iterable.class) return list(v, type, where);
        if (type == Map.class) return map(v, type, where);
        if (type.isArray()) return array(v, type, where);
        if (type.isEnum()) return enumConstant(v, type, where);
        if (type.isInstance(v)) return v;
        throw fail(where, v, type, null);
    }

    private static long integer(Object v, Class<?> type, String where, long min, long max) {
        long n;
        if (v instanceof Long l) {
            n = l;
        } else if (v instanceof Double d) {
            // Lua's rule (math.tointeger): a float converts when its value is an integer in range
            if (!(d >= -0x1p63 && d < 0x1p63) || d != Math.floor(d)) {
                throw fail(where, v, type, "number has no integer representation");
            }
            n = (long) d.doubleValue();
        } else {
            throw fail(where, v, type, null);
        }
        if (n < min || n > max) throw fail(where, v, type, "out of range");
        return n;
    }

    private static Number number(Object v, Class<?> type, String where) {
        if (v instanceof Long || v instanceof Double) return (Number) v;
        throw fail(where, v, type, null);
    }

    private static String string(Object v, Class<?> type, String where) {
        if (v instanceof String s) return s;
        if (v instanceof byte[] b) {
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                throw fail(where, v, type, "not valid UTF-8 (ask for byte[])");
            }
        }
        throw fail(where, v, type, null);
    }

    private static List<?> list(Object v, Class<?> type, String where) {
        if (v instanceof List<?> l) return l;
        if (v instanceof Map<?, ?> m && m.isEmpty()) return new ArrayList<>();
        throw fail(where, v, type, v instanceof Map ? "the table is not a sequence" : null);
    }

    private static Map<?, ?> map(Object v, Class<?> type, String where) {
        if (v instanceof Map<?, ?> m) return m;
        if (v instanceof List<?> l) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < l.size(); i++) m.put((long) (i + 1), l.get(i));
            return m;
        }
        throw fail(where, v, type, null);
    }

    private static Object array(Object v, Class<?> type, String where) {
        List<?> items = list(v, type, where);
        Class<?> component = type.getComponentType();
        Object out = Array.newInstance(component, items.size());
        for (int i = 0; i < items.size(); i++) {
            Array.set(out, i, convert(items.get(i), component, where + "element " + (i + 1) + ": "));
        }
        return out;
    }

    private static Object enumConstant(Object v, Class<?> type, String where) {
        if (v instanceof String s) {
            for (Object c : type.getEnumConstants()) {
                if (((Enum<?>) c).name().equals(s)) return c;
            }
            throw fail(where, v, type, "no such constant");
        }
        throw fail(where, v, type, null);
    }

    private static LuaConversionException fail(String where, Object v, Class<?> type, String why) {
        return new LuaConversionException(where + "cannot convert " + describe(v) + " to " + type.getSimpleName()
                + (why != null ? ": " + why : ""));
    }

    /**
     * The text Lua's {@code tostring} gives a number as a sandbox returned it: an integer in
     * decimal ({@code 42}), a float as {@code %.14g} with {@code .0} added when it would read as an
     * integer ({@code 0.5}, {@code 3.0}, {@code 1e+100}, {@code inf}, {@code -nan}). For hosts that
     * print or store results as text the way the script would have.
     *
     * @param number a Lua integer ({@code Long}, or any integral box) or float ({@code Double}, {@code Float})
     * @return the number's text, as PUC-Rio Lua 5.3 prints it
     */
    public static String numberToString(Number number) {
        if (number instanceof Double || number instanceof Float) {
            return dev.luavm.value.LuaNumbers.toString(number.doubleValue());
        }
        return Long.toString(number.longValue());
    }

    /** The value as a Lua programmer would name it: "Lua integer 3000000000", "Lua table". */
    static String describe(Object v) {
        if (v == null) return "nil";
        if (v instanceof Long l) return "Lua integer " + l;
        if (v instanceof Double d) return "Lua float " + dev.luavm.value.LuaNumbers.toString(d);
        if (v instanceof Boolean b) return "Lua boolean " + b;
        if (v instanceof String s) return "Lua string" + (s.length() <= 40 ? " \"" + s + "\"" : " of " + s.length() + " chars");
        if (v instanceof byte[] b) return "Lua string of " + b.length + " bytes";
        if (v instanceof List<?> || v instanceof Map<?, ?>) return "Lua table";
        if (v instanceof LuaHandle h) return "Lua " + h.type();
        return "Lua userdata (" + v.getClass().getSimpleName() + ")";
    }
}
