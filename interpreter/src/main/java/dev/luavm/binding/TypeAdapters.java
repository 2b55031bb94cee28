package dev.luavm.binding;

import dev.luavm.LuaHandle;
import dev.luavm.host.HostFunctionException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link TypeAdapter} of a Java type, once, at registration; the types a module
 * method may take and return:
 * <ul>
 *   <li>{@code boolean}; {@code long}, {@code int}, {@code short}, {@code byte} (Lua integers,
 *       range-checked; a float with an integral value is accepted, as Lua's own functions do);
 *       {@code double}, {@code float} (a finite number beyond the float range is refused, never
 *       made an infinity); {@code char} (a string of one character); and their boxes;</li>
 *   <li>{@code String} (UTF-8), {@code byte[]} (the string's bytes), enums (by constant name,
 *       exactly: {@code invalid option 'x'; expected one of 'A', 'B'} otherwise);</li>
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
        if (raw == boolean.class || raw == Boolean.class) return Scalars.BOOLEAN;
        if (raw == long.class || raw == Long.class) return new Scalars.IntegerAdapter(Long.MIN_VALUE, Long.MAX_VALUE, Long::valueOf);
        if (raw == int.class || raw == Integer.class) {
            return new Scalars.IntegerAdapter(Integer.MIN_VALUE, Integer.MAX_VALUE, l -> Integer.valueOf((int) l));
        }
        if (raw == short.class || raw == Short.class) return new Scalars.IntegerAdapter(Short.MIN_VALUE, Short.MAX_VALUE, l -> Short.valueOf((short) l));
        if (raw == byte.class || raw == Byte.class) return new Scalars.IntegerAdapter(Byte.MIN_VALUE, Byte.MAX_VALUE, l -> Byte.valueOf((byte) l));
        if (raw == double.class || raw == Double.class) return Scalars.DOUBLE;
        if (raw == float.class || raw == Float.class) return Scalars.FLOAT;
        if (raw == char.class || raw == Character.class) return Scalars.CHAR;
        if (raw == String.class || raw == CharSequence.class) return Scalars.STRING;
        if (raw == byte[].class) return Scalars.BYTES;
        if (raw == Object.class) return Scalars.ANY;
        if (raw == LuaHandle.class) return Scalars.HANDLE;
        if (raw.isEnum()) return new Scalars.EnumAdapter(raw);
        if (raw == Optional.class) return new Containers.OptionalAdapter(of(typeArg(type, 0)));
        if (raw == List.class || raw == Collection.class) return new Containers.ListAdapter(of(typeArg(type, 0)));
        if (raw == Map.class) return new Containers.MapAdapter(of(typeArg(type, 0)), of(typeArg(type, 1)));
        if (raw.isRecord()) return record(raw);
        TypeAdapter callback = Callbacks.of(raw, type, this);
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
    static Type typeArg(Type t, int i) {
        return t instanceof ParameterizedType p ? p.getActualTypeArguments()[i] : Object.class;
    }

    private TypeAdapter record(Class<?> type) {
        RecordAdapter a = new RecordAdapter(type);
        cache.put(type, a); // before the components, so a recursive record finds itself
        try {
            MethodHandles.Lookup l = lookupFor(type, lookup);
            RecordComponent[] rc = type.getRecordComponents();
            Class<?>[] types = new Class<?>[rc.length];
            List<RecordAdapter.Component> cs = new ArrayList<>();
            for (int i = 0; i < rc.length; i++) {
                types[i] = rc[i].getType();
                MethodHandle get = l.unreflect(rc[i].getAccessor()).asType(MethodType.methodType(Object.class, Object.class));
                cs.add(new RecordAdapter.Component(rc[i].getName(), of(rc[i].getGenericType()), get, rc[i].getType().isPrimitive()));
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

    /** {@code bad argument #i to 'name' (problem)}, the script's message for an argument that does not convert. */
    static HostFunctionException badArgument(int i, String name, BadValue e) {
        return new HostFunctionException("bad argument #" + i + " to '" + name + "' (" + e.describe() + ")");
    }
}
