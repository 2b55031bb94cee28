package dev.luavm.binding;

import dev.luavm.LuaHandle;

import java.lang.reflect.Type;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The adapters of Lua functions passed as Java callbacks ({@link LuaCallback}, and the
 * {@code java.util.function} types converted by their type arguments), callable while the host
 * call that received them runs.
 */
final class Callbacks {
    private Callbacks() {}

    /** The adapter of a functional type taking Lua functions, or null when {@code raw} is none of them. */
    static TypeAdapter of(Class<?> raw, Type type, TypeAdapters types) {
        if (raw == LuaCallback.class) {
            return new CallbackAdapter("function", (h, call) -> (LuaCallback) args -> call.callLua(h, args));
        }
        if (raw == Runnable.class) return new CallbackAdapter("function()", (h, call) -> (Runnable) () -> call.callLua(h));
        if (raw == Supplier.class) {
            TypeAdapter r = types.of(TypeAdapters.typeArg(type, 0));
            return new CallbackAdapter("function() -> " + r.shape(), (h, call) -> (Supplier<Object>) () -> result(r, call, call.callLua(h)));
        }
        if (raw == Consumer.class) {
            TypeAdapter a = types.of(TypeAdapters.typeArg(type, 0));
            return new CallbackAdapter("function(" + a.shape() + ")", (h, call) -> (Consumer<Object>) x -> call.callLua(h, arg(a, call, x)));
        }
        if (raw == BiConsumer.class) {
            TypeAdapter a = types.of(TypeAdapters.typeArg(type, 0));
            TypeAdapter b = types.of(TypeAdapters.typeArg(type, 1));
            return new CallbackAdapter("function(" + a.shape() + ", " + b.shape() + ")",
                    (h, call) -> (BiConsumer<Object, Object>) (x, y) -> call.callLua(h, arg(a, call, x), arg(b, call, y)));
        }
        if (raw == Function.class) {
            TypeAdapter a = types.of(TypeAdapters.typeArg(type, 0));
            TypeAdapter r = types.of(TypeAdapters.typeArg(type, 1));
            return new CallbackAdapter("function(" + a.shape() + ") -> " + r.shape(),
                    (h, call) -> (Function<Object, Object>) x -> result(r, call, call.callLua(h, arg(a, call, x))));
        }
        if (raw == BiFunction.class) {
            TypeAdapter a = types.of(TypeAdapters.typeArg(type, 0));
            TypeAdapter b = types.of(TypeAdapters.typeArg(type, 1));
            TypeAdapter r = types.of(TypeAdapters.typeArg(type, 2));
            return new CallbackAdapter("function(" + a.shape() + ", " + b.shape() + ") -> " + r.shape(),
                    (h, call) -> (BiFunction<Object, Object, Object>) (x, y) ->
                            result(r, call, call.callLua(h, arg(a, call, x), arg(b, call, y))));
        }
        if (raw == Predicate.class) {
            TypeAdapter a = types.of(TypeAdapters.typeArg(type, 0));
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
}
