package dev.luavm.binding;

import dev.luavm.LuaHandle;
import dev.luavm.value.LuaNumbers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The adapters of single values: booleans, numbers, strings, bytes, enums, any value, Lua function handles. */
final class Scalars {
    private Scalars() {}

    static final TypeAdapter BOOLEAN = new TypeAdapter() {
        @Override
        String luaType() {
            return "boolean";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof Boolean) return v;
            throw BadValue.expected("boolean", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    /** An integral Java type: Lua integers (and floats with an integral value) within its range. */
    static final class IntegerAdapter extends TypeAdapter {
        private final long min;
        private final long max;
        private final java.util.function.LongFunction<Object> box;

        IntegerAdapter(long min, long max, java.util.function.LongFunction<Object> box) {
            this.min = min;
            this.max = max;
            this.box = box;
        }

        @Override
        String luaType() {
            return "integer";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            long l;
            if (v instanceof Long x) {
                l = x;
            } else if (v instanceof Double d) {
                Long x = LuaNumbers.floatToInteger(d);
                if (x == null) throw new BadValue("number has no integer representation");
                l = x;
            } else {
                throw BadValue.expected("number", v);
            }
            if (l < min || l > max) throw new BadValue("value out of range (" + min + ".." + max + ")");
            return box.apply(l);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    }

    static final TypeAdapter DOUBLE = new TypeAdapter() {
        @Override
        String luaType() {
            return "number";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof Number n) return n.doubleValue();
            throw BadValue.expected("number", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    static final TypeAdapter FLOAT = new TypeAdapter() {
        @Override
        String luaType() {
            return "number";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (!(v instanceof Number n)) throw BadValue.expected("number", v);
            double d = n.doubleValue();
            // a finite number beyond the float range would silently become an infinity
            if (Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE) throw new BadValue("value out of range for a float");
            return n.floatValue();
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    /** A Java {@code char}: a Lua string of exactly one character (one UTF-16 unit, so in the Basic Multilingual Plane). */
    static final TypeAdapter CHAR = new TypeAdapter() {
        @Override
        String luaType() {
            return "string";
        }

        @Override
        String shape() {
            return "one character";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            String s = (String) STRING.in(v, call);
            if (s.length() == 1) return s.charAt(0);
            if (s.codePointCount(0, s.length()) == 1) {
                throw new BadValue("a character outside the Basic Multilingual Plane does not fit a Java char");
            }
            throw new BadValue("one character expected, got " + (s.isEmpty() ? "an empty string" : s.length() + " characters"));
        }

        @Override
        Object out(Object v, Crossing call) {
            return String.valueOf((char) (Character) v);
        }
    };

    static final TypeAdapter STRING = new TypeAdapter() {
        @Override
        String luaType() {
            return "string";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof String) return v;
            if (v instanceof byte[] b) return new String(b, StandardCharsets.UTF_8);
            throw BadValue.expected("string", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v.toString();
        }
    };

    static final TypeAdapter BYTES = new TypeAdapter() {
        @Override
        String luaType() {
            return "string";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof byte[]) return v;
            if (v instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
            throw BadValue.expected("string", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    static final TypeAdapter ANY = new TypeAdapter() {
        @Override
        String luaType() {
            return "any";
        }

        @Override
        boolean acceptsNil() {
            return true;
        }

        @Override
        Object in(Object v, Crossing call) {
            return v;
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    static final TypeAdapter HANDLE = new TypeAdapter() {
        @Override
        String luaType() {
            return "function";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof LuaHandle) return v;
            throw BadValue.expected("function", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    static final class EnumAdapter extends TypeAdapter {
        private final Map<String, Object> byName = new LinkedHashMap<>();

        EnumAdapter(Class<?> type) {
            for (Object c : type.getEnumConstants()) byName.put(((Enum<?>) c).name(), c);
        }

        @Override
        String luaType() {
            return "string";
        }

        @Override
        String shape() {
            List<String> names = new ArrayList<>();
            for (String n : byName.keySet()) names.add("'" + n + "'");
            return "one of " + String.join(", ", names);
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            String s = (String) STRING.in(v, call);
            Object c = byName.get(s);
            if (c == null) throw new BadValue("invalid option " + BadValue.quote(s) + "; expected " + shape());
            return c;
        }

        @Override
        Object out(Object v, Crossing call) {
            return ((Enum<?>) v).name();
        }
    }
}
