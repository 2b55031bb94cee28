package dev.luavm.binding;

import dev.luavm.host.HostCall;
import dev.luavm.host.HostFunction;
import dev.luavm.host.HostFunctionException;
import dev.luavm.host.HostGrant;
import dev.luavm.host.Redactor;
import dev.luavm.host.Results;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a {@link LuaModule} object's {@link LuaFunction} methods as declared host functions,
 * which {@code Capabilities.Builder.module(instance)} grants. The class is read once, here: each
 * method becomes a declared host function (parameters with their Lua types and descriptions, results,
 * safety, effects, example, redaction) whose {@link HostFunction} calls the method through a
 * {@link MethodHandle} with its arguments converted by {@link TypeAdapters}; nothing is
 * reflected during a call.
 *
 * <p>Functions are granted in the order of their Lua names, so listings do not depend on the
 * JVM's method order. A parameter of type {@link HostCall} is not a Lua parameter: it receives the
 * call (to charge gas for the method's own work, or notice cancellation). A method may throw
 * {@link HostFunctionException} to give the script a message; anything else reaches the script
 * as {@code host function 'name' failed}, as with any grant. Registration fails with
 * {@link IllegalArgumentException} naming the method and the type it cannot convert, or the
 * record it cannot read.
 *
 * <p>The binder hands its declarations up as {@link HostGrant}s and never names
 * {@code Capabilities}: the public API depends on this package, not the reverse.
 */
public final class ModuleBinder {
    private ModuleBinder() {}

    /**
     * The functions of {@code instance}, declared, in the order of their Lua names, for the host
     * to grant ({@code Capabilities.Builder.module(instance, lookup)} does). {@code lookup} is
     * used to reach the class's methods and its records' components: the default (this module's
     * own lookup) reads any class on the class path, public or not; from a named module, pass
     * {@code MethodHandles.lookup()} of code that can read them.
     */
    public static List<HostGrant> functions(Object instance, MethodHandles.Lookup lookup) {
        Objects.requireNonNull(instance, "module instance");
        Objects.requireNonNull(lookup, "lookup");
        Class<?> type = instance.getClass();
        LuaModule module = type.getAnnotation(LuaModule.class);
        if (module == null) throw new IllegalArgumentException(type.getName() + " is not annotated @LuaModule");
        MethodHandles.Lookup l = TypeAdapters.lookupFor(type, lookup);
        TypeAdapters adapters = new TypeAdapters(l);
        List<Bound> functions = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Method m : methods(type)) {
            LuaFunction f = m.getAnnotation(LuaFunction.class);
            String name = f.name().isEmpty() ? snakeCase(m.getName()) : f.name();
            if (!names.add(name)) {
                throw new IllegalArgumentException(type.getName() + ": two methods are named '" + name + "' in Lua");
            }
            functions.add(bound(module.value() + "." + name, m, f, instance, l, adapters));
        }
        if (functions.isEmpty()) throw new IllegalArgumentException(type.getName() + " has no @LuaFunction method");
        functions.sort(Comparator.comparing(b -> b.path));
        List<HostGrant> out = new ArrayList<>();
        for (Bound b : functions) out.add(b.declared());
        return out;
    }

    /** Annotated methods of the class and its superclasses (a subclass's override wins). */
    private static List<Method> methods(Class<?> type) {
        List<Method> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.isSynthetic() || m.isBridge() || !m.isAnnotationPresent(LuaFunction.class)) continue;
                if (seen.add(m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes()))) out.add(m);
            }
        }
        return out;
    }

    /** {@code lookupVendor} is {@code lookup_vendor}, {@code getHTTPStatus} is {@code get_http_status}. */
    static String snakeCase(String javaName) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < javaName.length(); i++) {
            char c = javaName.charAt(i);
            if (Character.isUpperCase(c)) {
                boolean afterLower = i > 0 && !Character.isUpperCase(javaName.charAt(i - 1)) && javaName.charAt(i - 1) != '_';
                boolean acronymEnd = i > 0 && Character.isUpperCase(javaName.charAt(i - 1))
                        && i + 1 < javaName.length() && Character.isLowerCase(javaName.charAt(i + 1));
                if (afterLower || acronymEnd) sb.append('_');
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A parameter as declared for the gateway and docs. */
    private record ParamSpec(String name, String type, String description) {}

    /** One parameter: where its value comes from and how it is converted. */
    private record Slot(int luaIndex, TypeAdapter adapter, boolean injectCall) {}

    private static Bound bound(String path, Method m, LuaFunction f, Object instance, MethodHandles.Lookup l,
                               TypeAdapters adapters) {
        String where = path + " (" + m.getDeclaringClass().getName() + "." + m.getName() + ")";
        MethodHandle h;
        try {
            h = TypeAdapters.lookupFor(m.getDeclaringClass(), l).unreflect(m);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException(where + ": cannot call the method (" + e.getMessage() + "): make it public,"
                    + " or register with Capabilities.Builder.module(instance, MethodHandles.lookup()) from code that can", e);
        }
        if (!Modifier.isStatic(m.getModifiers())) h = h.bindTo(instance);
        Parameter[] ps = m.getParameters();
        h = h.asSpreader(Object[].class, ps.length).asType(MethodType.methodType(Object.class, Object[].class));

        Bound b = new Bound(path, f, h, m.getReturnType() == void.class);
        int lua = 0;
        for (int i = 0; i < ps.length; i++) {
            Parameter p = ps[i];
            if (p.getType() == HostCall.class) {
                b.slots.add(new Slot(-1, null, true));
                continue;
            }
            Param ann = p.getAnnotation(Param.class);
            String name = ann != null && !ann.name().isEmpty() ? ann.name() : p.isNamePresent() ? p.getName() : "arg" + (lua + 1);
            TypeAdapter a;
            try {
                a = adapters.of(p.getParameterizedType());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": parameter '" + name + "': " + e.getMessage(), e);
            }
            boolean optional = a.acceptsNil() || ann != null && ann.optional();
            if (optional && p.getType().isPrimitive()) {
                throw new IllegalArgumentException(where + ": parameter '" + name + "' is a primitive and cannot be optional"
                        + " (use its box or Optional)");
            }
            String type = a.luaType() + (optional && !a.luaType().equals("any") ? "?" : "");
            b.params.add(new ParamSpec(name, type, describe(ann == null ? "" : ann.value(), a)));
            if (ann != null && ann.redact()) b.redacted.add(name);
            b.slots.add(new Slot(lua++, a, false));
        }
        Type rt = m.getGenericReturnType();
        if (!b.isVoid && rt != Results.class) {
            try {
                b.result = adapters.of(rt);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": return type: " + e.getMessage(), e);
            }
        }
        return b;
    }

    /** A description followed by the value's shape when it says more than its Lua type. */
    private static String describe(String text, TypeAdapter a) {
        String shape = a.shape();
        if (shape.equals(a.luaType())) return text;
        return text.isEmpty() ? shape : text + "; " + shape;
    }

    /** A method ready to be granted, and the host function calling it. */
    private static final class Bound implements HostFunction {
        final String path;
        final LuaFunction f;
        final MethodHandle target;
        final boolean isVoid;
        final List<Slot> slots = new ArrayList<>();
        final List<ParamSpec> params = new ArrayList<>();
        final List<String> redacted = new ArrayList<>();
        TypeAdapter result;

        Bound(String path, LuaFunction f, MethodHandle target, boolean isVoid) {
            this.path = path;
            this.f = f;
            this.target = target;
            this.isVoid = isVoid;
        }

        /** This method as a declared function (the host's builder checks the declaration when it grants it). */
        HostGrant declared() {
            List<dev.luavm.host.Param> ps = new ArrayList<>();
            for (ParamSpec p : params) ps.add(new dev.luavm.host.Param(p.name(), p.type(), p.description(), List.of()));
            List<dev.luavm.host.Param> rs = new ArrayList<>();
            if (result != null) {
                String type = result.luaType() + (result.acceptsNil() && !result.luaType().equals("any") ? "?" : "");
                rs.add(new dev.luavm.host.Param("return#1", type, describe(f.returns(), result), List.of()));
            } else if (!isVoid && !f.returns().isEmpty()) {
                rs.add(new dev.luavm.host.Param("return#1", "any", f.returns(), List.of()));
            }
            Redactor r = redacted.isEmpty() ? Redactor.none() : Redactor.hide(redacted.toArray(String[]::new));
            return HostGrant.declared(path, f.description(), this, f.safety(), ps, rs, List.of(f.effects()), r,
                    f.example().isEmpty() ? null : f.example());
        }

        @Override
        public Object call(HostCall call) throws Exception {
            Crossing x = new Crossing(call);
            Object[] args = new Object[slots.size()];
            for (int i = 0; i < args.length; i++) {
                Slot s = slots.get(i);
                if (s.injectCall()) {
                    args[i] = call;
                    continue;
                }
                Object v = call.arg(s.luaIndex());
                try {
                    args[i] = v == null ? s.adapter().nil() : s.adapter().in(v, x);
                } catch (BadValue e) {
                    throw TypeAdapters.badArgument(s.luaIndex() + 1, path, e);
                }
            }
            Object r;
            try {
                r = target.invokeExact(args);
            } catch (Callbacks.CallbackResultException | Crossing.StaleCallbackException e) {
                throw new HostFunctionException(e.getMessage());
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            } finally {
                x.end();
            }
            if (isVoid) return Results.none();
            if (r == null || result == null) return r;
            try {
                return result.out(r, x);
            } catch (BadValue e) {
                // the host's value, not the script's: the script learns which function and why, never a Java class
                throw new HostFunctionException("host function '" + path + "' returned a value that cannot cross into Lua ("
                        + e.describe() + ")");
            }
        }
    }
}
