package dev.luavm.binding;

import dev.luavm.LuaHandle;
import dev.luavm.host.HostFunctionException;
import dev.luavm.value.LuaNumbers;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Builds the {@link TypeAdapter} of a Java type, once, at registration; the types a module
 * method may take and return:
 * <ul>
 *   <li>{@code boolean}; {@code long}, {@code int}, {@code short}, {@code byte} (Lua integers,
 *       range-checked; a float with an integral value is accepted, as Lua's own functions do);
 *       {@code double}, {@code float}; and their boxes;</li>
 *   <li>{@code String} (UTF-8), {@code byte[]} (the string's bytes), enums (by constant name,
 *       {@code invalid option 'x'} otherwise);</li>
 *   <li>{@code List<T>} (a sequence), {@code Map<K, V>}, records (a table of named fields, public
 *       or not: absent fields are null, or empty for {@code Optional}, except primitives; unknown
 *       fields are refused), {@code Optional<T>} (nil is empty);</li>
 *   <li>Lua functions: {@link LuaCallback}, {@link LuaHandle}, {@code Function}, {@code BiFunction},
 *       {@code Supplier}, {@code Consumer}, {@code BiConsumer}, {@code Predicate}, {@code Runnable};</li>
 *   <li>{@code Object} (any value, converted as the gateway converts it).</li>
 * </ul>
 * Record accessors and constructors are looked up here as method handles, so no reflection runs
 * during a call. One instance per registration; recursive record types are handled by a
 * placeholder filled in when the record's adapter is complete.
 */
final class TypeAdapters {
    private final MethodHandles.Lookup lookup;
    private final Map<Type, TypeAdapter> cache = new HashMap<>();

    TypeAdapters(MethodHandles.Lookup lookup) {
        this.lookup = lookup;
    }

    /** The adapter of {@code type}; IllegalArgumentException naming what is not supported. */
    TypeAdapter of(Type type) {
        TypeAdapter a = cache.get(type);
        if (a != null) return a;
        a = build(type);
        cache.put(type, a);
        return a;
    }

    private TypeAdapter build(Type type) {
        if (type instanceof WildcardType w) return of(w.getUpperBounds()[0]);
        if (type instanceof TypeVariable<?> v) return of(v.getBounds()[0]);
        if (type instanceof GenericArrayType) throw unsupported(type);
        Class<?> raw = rawClass(type);
        if (raw == boolean.class || raw == Boolean.class) return BOOLEAN;
        if (raw == long.class || raw == Long.class) return new IntegerAdapter(Long.MIN_VALUE, Long.MAX_VALUE, Long::valueOf);
        if (raw == int.class || raw == Integer.class) {
            return new IntegerAdapter(Integer.MIN_VALUE, Integer.MAX_VALUE, l -> Integer.valueOf((int) l));
        }
        if (raw == short.class || raw == Short.class) return new IntegerAdapter(Short.MIN_VALUE, Short.MAX_VALUE, l -> Short.valueOf((short) l));
        if (raw == byte.class || raw == Byte.class) return new IntegerAdapter(Byte.MIN_VALUE, Byte.MAX_VALUE, l -> Byte.valueOf((byte) l));
        if (raw == double.class || raw == Double.class) return DOUBLE;
        if (raw == float.class || raw == Float.class) return FLOAT;
        if (raw == String.class || raw == CharSequence.class) return STRING;
        if (raw == byte[].class) return BYTES;
        if (raw == Object.class) return ANY;
        if (raw == LuaHandle.class) return HANDLE;
        if (raw.isEnum()) return new EnumAdapter(raw);
        if (raw == Optional.class) return new OptionalAdapter(of(typeArg(type, 0)));
        if (raw == List.class || raw == Collection.class) return new ListAdapter(of(typeArg(type, 0)));
        if (raw == Map.class) return new MapAdapter(of(typeArg(type, 0)), of(typeArg(type, 1)));
        if (raw.isRecord()) return record(raw);
        TypeAdapter callback = callback(raw, type);
        if (callback != null) return callback;
        throw unsupported(type);
    }

    static IllegalArgumentException unsupported(Type type) {
        return new IllegalArgumentException("type " + type.getTypeName() + " cannot cross into Lua (supported: primitives and"
                + " their boxes, String, byte[], enums, List, Map, records, Optional, Object, LuaCallback, LuaHandle and"
                + " java.util.function callbacks)");
    }

    static Class<?> rawClass(Type t) {
        if (t instanceof Class<?> c) return c;
        if (t instanceof ParameterizedType p) return (Class<?>) p.getRawType();
        if (t instanceof WildcardType w) return rawClass(w.getUpperBounds()[0]);
        if (t instanceof TypeVariable<?> v) return rawClass(v.getBounds()[0]);
        throw unsupported(t);
    }

    /** Type argument {@code i} of a parameterized type; Object for a raw type. */
    private static Type typeArg(Type t, int i) {
        return t instanceof ParameterizedType p ? p.getActualTypeArguments()[i] : Object.class;
    }

    // ------------------------------------------------------------------ scalars

    private static final TypeAdapter BOOLEAN = new TypeAdapter() {
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
    private static final class IntegerAdapter extends TypeAdapter {
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

    private static final TypeAdapter DOUBLE = new TypeAdapter() {
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

    private static final TypeAdapter FLOAT = new TypeAdapter() {
        @Override
        String luaType() {
            return "number";
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (v instanceof Number n) return n.floatValue();
            throw BadValue.expected("number", v);
        }

        @Override
        Object out(Object v, Crossing call) {
            return v;
        }
    };

    private static final TypeAdapter STRING = new TypeAdapter() {
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

    private static final TypeAdapter BYTES = new TypeAdapter() {
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

    private static final TypeAdapter ANY = new TypeAdapter() {
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

    private static final TypeAdapter HANDLE = new TypeAdapter() {
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

    private static final class EnumAdapter extends TypeAdapter {
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
            if (c == null) throw new BadValue("invalid option '" + s + "'");
            return c;
        }

        @Override
        Object out(Object v, Crossing call) {
            return ((Enum<?>) v).name();
        }
    }

    // ------------------------------------------------------------------ containers

    private static final class OptionalAdapter extends TypeAdapter {
        private final TypeAdapter value;

        OptionalAdapter(TypeAdapter value) {
            this.value = value;
        }

        @Override
        String luaType() {
            return value.luaType();
        }

        @Override
        String shape() {
            return value.shape();
        }

        @Override
        boolean acceptsNil() {
            return true;
        }

        @Override
        Object nil() {
            return Optional.empty();
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            return Optional.of(value.in(v, call));
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            Optional<?> o = (Optional<?>) v;
            return o.isEmpty() ? null : value.out(o.get(), call);
        }
    }

    private static final class ListAdapter extends TypeAdapter {
        private final TypeAdapter element;

        ListAdapter(TypeAdapter element) {
            this.element = element;
        }

        @Override
        String luaType() {
            return "table";
        }

        @Override
        String shape() {
            return "list of " + element.shape();
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return inNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object inNested(Object v, Crossing call) throws BadValue {
            if (v instanceof Map<?, ?> m && m.isEmpty()) return new ArrayList<>();
            if (v instanceof Map<?, ?>) throw new BadValue("sequence expected, got table with other keys");
            if (!(v instanceof List<?> list)) throw BadValue.expected("table", v);
            call.chargeGas(list.size()); // 1 per value copied
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                try {
                    out.add(element.in(list.get(i), call));
                } catch (BadValue e) {
                    throw e.inside("[" + (i + 1) + "]");
                }
            }
            return out;
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return outNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object outNested(Object v, Crossing call) throws BadValue {
            Collection<?> c = (Collection<?>) v;
            call.chargeGas(c.size());
            List<Object> out = new ArrayList<>(c.size());
            for (Object e : c) out.add(e == null ? null : element.out(e, call));
            return out;
        }
    }

    private static final class MapAdapter extends TypeAdapter {
        private final TypeAdapter key;
        private final TypeAdapter value;

        MapAdapter(TypeAdapter key, TypeAdapter value) {
            this.key = key;
            this.value = value;
        }

        @Override
        String luaType() {
            return "table";
        }

        @Override
        String shape() {
            return "table of " + key.shape() + " to " + value.shape();
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return inNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object inNested(Object v, Crossing call) throws BadValue {
            Map<Object, Object> out = new LinkedHashMap<>();
            if (v instanceof List<?> list) {
                call.chargeGas(list.size());
                for (int i = 0; i < list.size(); i++) put(out, (long) (i + 1), list.get(i), call);
            } else if (v instanceof Map<?, ?> m) {
                call.chargeGas(m.size());
                for (Map.Entry<?, ?> e : m.entrySet()) put(out, e.getKey(), e.getValue(), call);
            } else {
                throw BadValue.expected("table", v);
            }
            return out;
        }

        private void put(Map<Object, Object> out, Object k, Object v, Crossing call) throws BadValue {
            Object jk;
            try {
                jk = key.in(k, call);
            } catch (BadValue e) {
                throw new BadValue("key " + e.describe());
            }
            try {
                out.put(jk, value.in(v, call));
            } catch (BadValue e) {
                throw e.inside("[" + (k instanceof String s ? "'" + s + "'" : String.valueOf(k)) + "]");
            }
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return outNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object outNested(Object v, Crossing call) throws BadValue {
            Map<?, ?> m = (Map<?, ?>) v;
            call.chargeGas(m.size());
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) continue;
                out.put(key.out(e.getKey(), call), value.out(e.getValue(), call));
            }
            return out;
        }
    }

    // ------------------------------------------------------------------ records

    /** A component of a record: its name, adapter, accessor (record -> value) and whether nil is allowed. */
    private record Component(String name, TypeAdapter adapter, MethodHandle accessor, boolean primitive) {}

    private TypeAdapter record(Class<?> type) {
        RecordAdapter a = new RecordAdapter(type);
        cache.put(type, a); // before the components, so a recursive record finds itself
        try {
            MethodHandles.Lookup l = lookupFor(type, lookup);
            RecordComponent[] rc = type.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            List<Component> cs = new ArrayList<>();
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
                MethodHandle get = l.unreflect(rc[i].getAccessor()).asType(MethodType.methodType(Object.class, Object.class));
                cs.add(new Component(rc[i].getName(), of(rc[i].getGenericType()), get, rc[i].getType().isPrimitive()));
            }
            MethodHandle ctor = l.findConstructor(type, MethodType.methodType(void.class, types))
                    .asSpreader(Object[].class, rc.length).asType(MethodType.methodType(Object.class, Object[].class));
            a.complete(List.copyOf(cs), ctor);
            return a;
        } catch (IllegalAccessException | NoSuchMethodException e) {
            cache.remove(type);
            throw new IllegalArgumentException("cannot read record " + type.getName() + " (" + e.getMessage() + "): make it"
                    + " public, or register the module with Capabilities.Builder.module(instance, MethodHandles.lookup())"
                    + " from code that can read it (in a named module, open its package to dev.luavm)", e);
        } catch (IllegalArgumentException e) {
            cache.remove(type);
            throw new IllegalArgumentException("record " + type.getName() + ": " + e.getMessage(), e);
        }
    }

    /** A lookup with private access to {@code type}, when {@code base} may have one; else {@code base}. */
    static MethodHandles.Lookup lookupFor(Class<?> type, MethodHandles.Lookup base) {
        try {
            return MethodHandles.privateLookupIn(type, base);
        } catch (IllegalAccessException | SecurityException | IllegalArgumentException e) {
            return base;
        }
    }

    private static final class RecordAdapter extends TypeAdapter {
        private final Class<?> type;
        private List<Component> components;
        private Map<String, Integer> index;
        private MethodHandle constructor;
        private boolean inShape;

        RecordAdapter(Class<?> type) {
            this.type = type;
        }

        void complete(List<Component> cs, MethodHandle ctor) {
            components = cs;
            constructor = ctor;
            index = new HashMap<>();
            for (int i = 0; i < cs.size(); i++) index.put(cs.get(i).name(), i);
        }

        @Override
        String luaType() {
            return "table";
        }

        @Override
        String shape() {
            if (inShape) return type.getSimpleName(); // a recursive record names itself
            inShape = true;
            try {
                List<String> fields = new ArrayList<>();
                for (Component c : components) fields.add(c.name() + ": " + c.adapter().shape());
                return "{" + String.join(", ", fields) + "}";
            } finally {
                inShape = false;
            }
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return inNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object inNested(Object v, Crossing call) throws BadValue {
            Map<?, ?> m;
            if (v instanceof Map<?, ?> x) m = x;
            else if (v instanceof List<?>) throw new BadValue("table with fields " + fieldNames() + " expected, got a sequence");
            else throw BadValue.expected("table", v);
            call.chargeGas(components.size() + m.size());
            for (Object k : m.keySet()) {
                if (!(k instanceof String s) || !index.containsKey(s)) {
                    throw new BadValue("unknown field " + (k instanceof String s ? "'" + s + "'" : "[" + k + "]")
                            + " (fields: " + fieldNames() + ")");
                }
            }
            Object[] args = new Object[components.size()];
            for (int i = 0; i < args.length; i++) {
                Component c = components.get(i);
                Object fv = m.get(c.name());
                try {
                    if (fv != null) args[i] = c.adapter().in(fv, call);
                    else if (c.primitive()) throw BadValue.expected(c.adapter().luaType().equals("integer") ? "number" : c.adapter().luaType(), null);
                    else args[i] = c.adapter().nil();
                } catch (BadValue e) {
                    throw e.inside(c.name());
                }
            }
            try {
                return constructor.invokeExact(args);
            } catch (IllegalArgumentException e) { // the record's own validation: its message is the host's text
                throw new BadValue(e.getMessage() == null ? "invalid value" : e.getMessage());
            } catch (RuntimeException | Error e) { // anything else is the host's failure, not the script's
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        private String fieldNames() {
            return String.join(", ", index.keySet().stream().sorted().toList());
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            call.enter();
            try {
                return outNested(v, call);
            } finally {
                call.leave();
            }
        }

        private Object outNested(Object v, Crossing call) throws BadValue {
            call.chargeGas(components.size());
            Map<String, Object> out = new LinkedHashMap<>();
            for (Component c : components) {
                Object fv;
                try {
                    fv = c.accessor().invokeExact(v);
                } catch (RuntimeException | Error e) {
                    throw e;
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
                if (fv != null) {
                    Object lv = c.adapter().out(fv, call);
                    if (lv != null) out.put(c.name(), lv);
                }
            }
            return out;
        }
    }

    // ------------------------------------------------------------------ callbacks

    /** The adapter of a functional type taking Lua functions, or null when {@code raw} is none of them. */
    private TypeAdapter callback(Class<?> raw, Type type) {
        if (raw == LuaCallback.class) {
            return new CallbackAdapter("function", (h, call) -> (LuaCallback) args -> call.callLua(h, args));
        }
        if (raw == Runnable.class) return new CallbackAdapter("function()", (h, call) -> (Runnable) () -> call.callLua(h));
        if (raw == Supplier.class) {
            TypeAdapter r = of(typeArg(type, 0));
            return new CallbackAdapter("function() -> " + r.shape(), (h, call) -> (Supplier<Object>) () -> result(r, call, call.callLua(h)));
        }
        if (raw == Consumer.class) {
            TypeAdapter a = of(typeArg(type, 0));
            return new CallbackAdapter("function(" + a.shape() + ")", (h, call) -> (Consumer<Object>) x -> call.callLua(h, arg(a, call, x)));
        }
        if (raw == BiConsumer.class) {
            TypeAdapter a = of(typeArg(type, 0));
            TypeAdapter b = of(typeArg(type, 1));
            return new CallbackAdapter("function(" + a.shape() + ", " + b.shape() + ")",
                    (h, call) -> (BiConsumer<Object, Object>) (x, y) -> call.callLua(h, arg(a, call, x), arg(b, call, y)));
        }
        if (raw == Function.class) {
            TypeAdapter a = of(typeArg(type, 0));
            TypeAdapter r = of(typeArg(type, 1));
            return new CallbackAdapter("function(" + a.shape() + ") -> " + r.shape(),
                    (h, call) -> (Function<Object, Object>) x -> result(r, call, call.callLua(h, arg(a, call, x))));
        }
        if (raw == BiFunction.class) {
            TypeAdapter a = of(typeArg(type, 0));
            TypeAdapter b = of(typeArg(type, 1));
            TypeAdapter r = of(typeArg(type, 2));
            return new CallbackAdapter("function(" + a.shape() + ", " + b.shape() + ") -> " + r.shape(),
                    (h, call) -> (BiFunction<Object, Object, Object>) (x, y) ->
                            result(r, call, call.callLua(h, arg(a, call, x), arg(b, call, y))));
        }
        if (raw == Predicate.class) {
            TypeAdapter a = of(typeArg(type, 0));
            return new CallbackAdapter("function(" + a.shape() + ") -> boolean", (h, call) -> (Predicate<Object>) x -> {
                List<Object> r = call.callLua(h, arg(a, call, x));
                Object first = r.isEmpty() ? null : r.get(0);
                return first != null && !Boolean.FALSE.equals(first); // Lua truth
            });
        }
        return null;
    }

    /** A Java value passed to a Lua callback, converted as a result would be. */
    private static Object arg(TypeAdapter a, Crossing call, Object x) {
        try {
            return x == null ? null : a.out(x, call);
        } catch (BadValue e) {
            throw new IllegalArgumentException("a value passed to a Lua callback: " + e.describe());
        }
    }

    /** A Lua callback's first result as the declared type; a mismatch is the script's error. */
    private static Object result(TypeAdapter r, Crossing call, List<Object> results) {
        Object first = results.isEmpty() ? null : results.get(0);
        try {
            if (first == null) {
                if (r.acceptsNil()) return r.nil();
                throw BadValue.expected(r.luaType().equals("integer") ? "number" : r.luaType(), null);
            }
            return r.in(first, call);
        } catch (BadValue e) {
            throw new CallbackResultException("bad result from a Lua callback passed to '" + call.name() + "' ("
                    + e.describe() + ")");
        }
    }

    /** Raised through the module method to the gateway, which gives the script its message. */
    static final class CallbackResultException extends RuntimeException {
        CallbackResultException(String message) {
            super(message, null, false, false);
        }
    }

    private static final class CallbackAdapter extends TypeAdapter {
        private final String shape;
        private final BiFunction<LuaHandle, Crossing, Object> make;

        CallbackAdapter(String shape, BiFunction<LuaHandle, Crossing, Object> make) {
            this.shape = shape;
            this.make = make;
        }

        @Override
        String luaType() {
            return "function";
        }

        @Override
        String shape() {
            return shape;
        }

        @Override
        Object in(Object v, Crossing call) throws BadValue {
            if (!(v instanceof LuaHandle h) || !h.type().equals("function")) throw BadValue.expected("function", v);
            return make.apply(h, call);
        }

        @Override
        Object out(Object v, Crossing call) throws BadValue {
            throw new BadValue("a Java callback cannot be returned to Lua");
        }
    }

    /** For messages: the Java type's name as written in source. */
    static String typeName(Type t) {
        return t.getTypeName().replace("java.lang.", "").replace("java.util.", "");
    }

    /** Thrown where a HostFunctionException is wanted but a checked exception is not allowed. */
    static HostFunctionException badArgument(int i, String name, BadValue e) {
        return new HostFunctionException("bad argument #" + i + " to '" + name + "' (" + e.describe() + ")");
    }
}
