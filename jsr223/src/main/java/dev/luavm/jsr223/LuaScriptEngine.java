package dev.luavm.jsr223;

import dev.luavm.CompiledChunk;
import dev.luavm.LuaException;
import dev.luavm.LuaHandle;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;

import javax.script.AbstractScriptEngine;
import javax.script.Bindings;
import javax.script.Compilable;
import javax.script.CompiledScript;
import javax.script.Invocable;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;
import javax.script.ScriptException;
import javax.script.SimpleBindings;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One Lua sandbox behind the {@code javax.script} API. Made by {@link LuaScriptEngineFactory}.
 *
 * <ul>
 *   <li><b>Sandboxed by default.</b> The sandbox is made at the engine's first run with the
 *       standard capabilities and {@code Limits.defaults()}, or what its {@code luavm.*}
 *       attributes say ({@link EngineSettings}). Gas and memory limit the sandbox's whole life,
 *       time and output each run, as in the Java API.</li>
 *   <li><b>Bindings are globals.</b> The engine scope is a live view of the globals
 *       ({@link LuaBindings}): {@code engine.put("x", 5)} then {@code eval("return x * 2")} gives
 *       10, and {@code eval("y = 3")} then {@code engine.get("y")} gives 3. A context whose engine
 *       scope is another {@code Bindings} (for example {@code eval(script, bindings)}) has its
 *       entries set as globals before the run and refreshed from them after it (new globals
 *       added). Global-scope (the manager's) entries are set as globals before each run unless
 *       the engine scope has the key.</li>
 *   <li><b>Results.</b> {@code eval} returns the chunk's first result converted as
 *       {@code Sandbox.eval} converts it ({@code Long}, {@code Double}, {@code String}, {@code Map},
 *       {@code List}, {@code LuaHandle}...), or null. {@code print} writes to the context's
 *       writer. {@code ScriptEngine.FILENAME} names the chunk; {@code ScriptEngine.ARGV} (an
 *       array) is the chunk's {@code ...}.</li>
 *   <li><b>Errors.</b> A Lua error, a syntax error or a limit is a {@link ScriptException} whose
 *       cause is the {@code LuaException} ({@code LuaLimitException} for limits); its file name
 *       and line are the Lua error's.</li>
 *   <li><b>Compilable</b>: compiled chunks can be run in this engine any number of times.
 *       <b>Invocable</b>: {@code invokeFunction("name", args)} calls a global function (a dotted
 *       name reads nested tables); {@code invokeMethod(obj, "m", args)} calls {@code obj:m(args)},
 *       where {@code obj} is a table value got from the engine (a copy: fields the method sets
 *       are not seen by the host) or the name of a global table as a String (the table itself);
 *       {@code getInterface} implements a Java interface with global functions or methods.</li>
 * </ul>
 * Not thread-safe: one thread at a time (the sandbox refuses a second one). {@link #close()}
 * closes the sandbox.
 */
public final class LuaScriptEngine extends AbstractScriptEngine implements Compilable, Invocable, AutoCloseable {
    private static final Pattern LUA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> KEYWORDS = Set.of("and", "break", "do", "else", "elseif", "end", "false", "for",
            "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until",
            "while");
    /** {@code invokeMethod}: self (or nil and a path of names from _ENV), the method's name, then its arguments. */
    private static final String INVOKE_METHOD = """
            local self, path, name = ...
            if path then self = _ENV for i = 1, #path do self = self[path[i]] end end
            local function tail(_, _, _, ...) return ... end
            local f = self[name]
            if f == nil then return false end
            return true, f(self, tail(...))""";

    private final LuaScriptEngineFactory factory;
    private final LuaVM vm;
    private final WriterSink out = new WriterSink();
    private Sandbox sandbox;
    private CompiledChunk invokeMethod;

    LuaScriptEngine(LuaScriptEngineFactory factory, LuaVM vm) {
        this.factory = factory;
        this.vm = vm;
        context.setBindings(new LuaBindings(this), ScriptContext.ENGINE_SCOPE);
    }

    static boolean isLuaName(String s) {
        return LUA_NAME.matcher(s).matches() && !KEYWORDS.contains(s);
    }

    boolean started() {
        return sandbox != null;
    }

    /** The engine's sandbox, made now (from the current context's attributes) if not yet. */
    public Sandbox sandbox() {
        return sandbox(context);
    }

    private Sandbox sandbox(ScriptContext ctx) {
        if (sandbox == null) {
            Sandbox sb = EngineSettings.newSandbox(vm, ctx, out);
            sandbox = sb;
            if (context.getBindings(ScriptContext.ENGINE_SCOPE) instanceof LuaBindings own && own.engine() == this) {
                for (Map.Entry<String, Object> e : own.takePending().entrySet()) sb.setGlobal(e.getKey(), e.getValue());
            }
        }
        return sandbox;
    }

    // ------------------------------------------------------------------ ScriptEngine

    @Override
    public Object eval(String script, ScriptContext ctx) throws ScriptException {
        Objects.requireNonNull(script, "script");
        Object[] argv = argv(ctx);
        return run(ctx, sb -> argv.length == 0 ? sb.evalAll(chunkName(ctx), script)
                : sb.run(vm.compile(chunkName(ctx), script), argv));
    }

    @Override
    public Object eval(Reader reader, ScriptContext ctx) throws ScriptException {
        return eval(read(reader), ctx);
    }

    @Override
    public Bindings createBindings() {
        return new SimpleBindings();
    }

    @Override
    public ScriptEngineFactory getFactory() {
        return factory;
    }

    /** A run in {@code ctx}: its globals in, the output to its writer, its bindings refreshed, errors as ScriptException. */
    private Object run(ScriptContext ctx, LuaRun body) throws ScriptException {
        Sandbox sb;
        try {
            sb = sandbox(ctx);
        } catch (IllegalArgumentException e) {
            throw scriptException(e);
        }
        Bindings scope = ctx.getBindings(ScriptContext.ENGINE_SCOPE);
        Bindings foreign = scope instanceof LuaBindings own && own.engine() == this ? null : scope;
        Set<String> before = null;
        try {
            Bindings global = ctx.getBindings(ScriptContext.GLOBAL_SCOPE);
            if (global != null) {
                for (Map.Entry<String, Object> e : global.entrySet()) {
                    if (isGlobalKey(e.getKey()) && (scope == null || !scope.containsKey(e.getKey()))) {
                        sb.setGlobal(e.getKey(), e.getValue());
                    }
                }
            }
            if (foreign != null) {
                for (Map.Entry<String, Object> e : foreign.entrySet()) {
                    if (isGlobalKey(e.getKey())) sb.setGlobal(e.getKey(), e.getValue());
                }
                before = sb.globalNames();
            }
            out.target(ctx.getWriter());
            List<Object> results = body.run(sb);
            return results.isEmpty() ? null : results.get(0);
        } catch (LuaException e) {
            throw scriptException(e);
        } finally {
            out.finish();
            if (foreign != null && before != null && !sb.isRunning()) refresh(sb, foreign, before);
        }
    }

    private static boolean isGlobalKey(String key) {
        return !EngineSettings.isSetting(key) && isLuaName(key);
    }

    /** A foreign engine scope after a run: its keys re-read from the globals, new globals added. */
    private static void refresh(Sandbox sb, Bindings foreign, Set<String> before) {
        for (String key : new ArrayList<>(foreign.keySet())) {
            if (isGlobalKey(key)) foreign.put(key, sb.getGlobal(key));
        }
        for (String name : sb.globalNames()) {
            if (!before.contains(name) && isGlobalKey(name)) foreign.put(name, sb.getGlobal(name));
        }
    }

    @FunctionalInterface
    private interface LuaRun {
        List<Object> run(Sandbox sb);
    }

    private static String chunkName(ScriptContext ctx) {
        Object f = ctx.getAttribute(ScriptEngine.FILENAME);
        return f != null ? f.toString() : "script";
    }

    private static Object[] argv(ScriptContext ctx) {
        Object a = ctx.getAttribute(ScriptEngine.ARGV);
        if (a == null) return new Object[0];
        if (a instanceof Object[] arr) return arr;
        if (a instanceof List<?> l) return l.toArray();
        return new Object[] {a};
    }

    private static String read(Reader reader) throws ScriptException {
        StringBuilder sb = new StringBuilder();
        char[] buf = new char[8192];
        try {
            for (int n; (n = reader.read(buf)) > 0; ) sb.append(buf, 0, n);
        } catch (IOException e) {
            throw scriptException(e);
        }
        return sb.toString();
    }

    static ScriptException scriptException(Exception e) {
        ScriptException se;
        if (e instanceof LuaScriptException lse && lse.line() > 0) {
            se = new ScriptException(lse.getMessage(), lse.chunkName(), lse.line());
        } else {
            se = new ScriptException(e.getMessage());
        }
        se.initCause(e);
        return se;
    }

    // ------------------------------------------------------------------ Compilable

    @Override
    public CompiledScript compile(String script) throws ScriptException {
        Objects.requireNonNull(script, "script");
        try {
            return new LuaCompiledScript(this, vm.compile(chunkName(context), script));
        } catch (LuaException e) {
            throw scriptException(e);
        }
    }

    @Override
    public CompiledScript compile(Reader script) throws ScriptException {
        return compile(read(script));
    }

    Object run(CompiledChunk chunk, ScriptContext ctx) throws ScriptException {
        Object[] argv = argv(ctx);
        return run(ctx, sb -> sb.run(chunk, argv));
    }

    // ------------------------------------------------------------------ Invocable

    @Override
    public Object invokeFunction(String name, Object... args) throws ScriptException, NoSuchMethodException {
        Objects.requireNonNull(name, "name");
        Object[] a = args == null ? new Object[0] : args;
        Object[] found = new Object[1];
        Object r = run(context, sb -> {
            if (!(sb.getGlobal(name) instanceof LuaHandle)) return List.of();
            found[0] = Boolean.TRUE;
            return sb.call(name, a);
        });
        if (found[0] == null) throw new NoSuchMethodException("no function '" + name + "'");
        return r;
    }

    @Override
    public Object invokeMethod(Object thiz, String name, Object... args) throws ScriptException, NoSuchMethodException {
        Objects.requireNonNull(name, "name");
        if (thiz == null) throw new IllegalArgumentException("no object to call '" + name + "' on");
        Object[] a = args == null ? new Object[0] : args;
        if (invokeMethod == null) invokeMethod = vm.compile("=invokeMethod", INVOKE_METHOD);
        Object[] call = new Object[a.length + 3];
        if (thiz instanceof String path) call[1] = Arrays.asList(path.split("\\.", -1));
        else call[0] = thiz;
        call[2] = name;
        System.arraycopy(a, 0, call, 3, a.length);
        boolean[] found = new boolean[1];
        Object r = run(context, sb -> {
            List<Object> res = sb.run(invokeMethod, call);
            found[0] = Boolean.TRUE.equals(res.get(0));
            return res.size() > 1 ? res.subList(1, res.size()) : List.of();
        });
        if (!found[0]) throw new NoSuchMethodException("no method '" + name + "'");
        return r;
    }

    @Override
    public <T> T getInterface(Class<T> type) {
        return proxy(null, type);
    }

    @Override
    public <T> T getInterface(Object thiz, Class<T> type) {
        if (thiz == null) throw new IllegalArgumentException("no object to implement " + type.getName() + " with");
        return proxy(thiz, type);
    }

    /** An implementation of {@code type} calling Lua functions of the same names; null when one is missing. */
    private <T> T proxy(Object thiz, Class<T> type) {
        if (type == null || !type.isInterface()) throw new IllegalArgumentException("not an interface: " + type);
        Set<String> names = new HashSet<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isAbstract(m.getModifiers())) names.add(m.getName());
        }
        Sandbox sb = sandbox();
        for (String n : names) {
            Object f = thiz == null ? sb.getGlobal(n)
                    : thiz instanceof String path ? sb.getGlobal(path + "." + n)
                    : thiz instanceof Map<?, ?> m ? m.get(n) : null;
            if (!(f instanceof LuaHandle)) return null;
        }
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "Lua implementation of " + type.getName();
                };
            }
            if (method.isDefault()) return InvocationHandler.invokeDefault(proxy, method, args);
            Object r = thiz == null ? invokeFunction(method.getName(), args == null ? new Object[0] : args)
                    : invokeMethod(thiz, method.getName(), args == null ? new Object[0] : args);
            return coerce(r, method.getReturnType());
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }

    /** A Lua result as the Java return type wants it (Lua numbers are Long or Double). */
    private static Object coerce(Object r, Class<?> type) {
        if (type == void.class) return null;
        if (r instanceof Number n) {
            if (type == int.class || type == Integer.class) return n.intValue();
            if (type == long.class || type == Long.class) return n.longValue();
            if (type == double.class || type == Double.class) return n.doubleValue();
            if (type == float.class || type == Float.class) return n.floatValue();
            if (type == short.class || type == Short.class) return n.shortValue();
            if (type == byte.class || type == Byte.class) return n.byteValue();
        }
        if (r == null && type.isPrimitive()) {
            throw new IllegalStateException("the Lua function returned nil where " + type + " was expected");
        }
        return r;
    }

    /** Closes the sandbox; the engine cannot run afterwards. */
    @Override
    public void close() {
        if (sandbox != null) sandbox.close();
    }
}
