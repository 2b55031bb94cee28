package dev.luavm.vm;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.nio.charset.StandardCharsets;

/**
 * The VM's {@link CallContext} for one builtin call, viewing the arguments in place on the
 * coroutine's stack ({@code stack[func+1 .. func+nargs]}); result {@code i} is written to
 * {@code stack[func+i]}, where the caller expects it, so returning costs no copy.
 *
 * <p>Recycled: a coroutine keeps one spare context ({@link Coroutine#spareCtx}) that
 * {@link Calls#callBuiltin} takes, re-aims with {@link #aim} and gives back when the builtin
 * returns normally, so a builtin call allocates nothing. A call nested inside a running builtin
 * (library re-entry) finds no spare and makes its own; a context lost to an error is simply not
 * given back. This relies on no builtin keeping its context after returning (audited: gmatch
 * iterators make a matcher per step, {@code HostCall} is inert after its call and charges
 * through the state's meter, wrap functions are marker builtins).
 */
final class Ctx extends CallContext {
    final LuaState st;
    final Coroutine co;
    Builtin fn;
    int func;
    int nargs;
    /** the Lua frame whose instruction called the builtin, or null (called from Java or a marker) */
    CallFrame caller;
    /** called on an event (metamethod, message handler, finalizer), not by code ({@link #calledImplicitly}) */
    boolean implicit;

    Ctx(LuaState st, Coroutine co) {
        this.st = st;
        this.co = co;
    }

    /** Points this context at a new call. */
    void aim(Builtin fn, int func, int nargs, CallFrame caller) {
        this.fn = fn;
        this.func = func;
        this.nargs = nargs;
        this.caller = caller;
    }

    @Override
    public int nargs() {
        return nargs;
    }

    @Override
    public Object arg(int i) {
        return i >= 1 && i <= nargs ? co.stack[func + i] : null;
    }

    @Override
    public void ensureResults(int n) {
        if (n < 0 || (long) func + n + Coroutine.EXTRA_STACK > st.maxStackSlots) {
            throw error("stack overflow (too many results)");
        }
        try {
            co.ensureStack(func + n + Coroutine.EXTRA_STACK);
        } catch (VmError e) {
            throw error("stack overflow (too many results)");
        }
        if (co.top < func + n) co.top = func + n;
    }

    @Override
    public void setResult(int i, Object v) {
        co.stack[func + i] = v;
    }

    @Override
    public boolean canPause() {
        return st.canPause(co) && st.runningBuiltin == fn;
    }

    @Override
    public RuntimeException pause(String callName, java.util.List<Object> arguments) {
        if (!canPause()) throw new IllegalStateException("this call cannot pause the run");
        return new RunPaused(callName, arguments);
    }

    @Override
    public Builtin callee() {
        return fn;
    }

    @Override
    public void chargeGas(long units) {
        st.gas.charge(units);
    }

    @Override
    public MemoryMeter memory() {
        return st.memory;
    }

    @Override
    public LuaTable globals() {
        return st.globals;
    }

    @Override
    public LuaTable registry() {
        return st.registry;
    }

    @Override
    public HostEnvironment host() {
        return st.host;
    }

    @Override
    public Object[] call(Object f, Object... args) {
        return st.callJava(f, args);
    }

    @Override
    public Object call1(Object f, Object... args) {
        return args.length == 2 ? st.callJava1(f, args[0], args[1]) : super.call1(f, args);
    }

    @Override
    public Object call1(Object f, Object a, Object b) {
        return st.callJava1(f, a, b);
    }

    @Override
    public Object[] callImplicitly(Object f, Object... args) {
        return st.callJavaImplicitly(f, args);
    }

    @Override
    public String callerModule() {
        CallFrame[] fs = co.frames;
        for (int i = co.nframes - 1; i >= 0; i--) {
            CallFrame f = fs[i];
            if (f.kind == CallFrame.LUA) return f.closure.heat.module;
        }
        return null; // a coroutine whose body is a builtin: no Lua code asked
    }

    @Override
    public boolean calledImplicitly() {
        return implicit;
    }

    @Override
    public dev.luavm.value.LuaFunction asModule(dev.luavm.value.LuaFunction chunk, String module) {
        if (!(chunk instanceof dev.luavm.value.LuaClosure cl) || cl.proto.upvalues.length > 1) {
            throw new IllegalArgumentException("not a main chunk");
        }
        st.memory.charge(dev.luavm.meter.Sizes.CLOSURE_HEADER);
        // the same code and environment under a cell of its own: the closure load made is dropped
        return new dev.luavm.value.LuaClosure(cl.proto, cl.upvals, dev.luavm.value.Heat.ofModule(module));
    }

    @Override
    public Object index(Object t, Object k) {
        try {
            return Meta.index(st, t, k, false, VmError.NONE);
        } catch (VmError e) {
            throw e.plain();
        }
    }

    @Override
    public void setIndex(Object t, Object k, Object v) {
        try {
            Meta.setIndex(st, t, k, v, false, VmError.NONE);
        } catch (VmError e) {
            throw e.plain();
        }
    }

    @Override
    public boolean lessThan(Object a, Object b) {
        try {
            return (Boolean) Meta.lessThan(st, a, b, false);
        } catch (VmError e) {
            throw e.plain();
        }
    }

    @Override
    public boolean equalsLua(Object a, Object b) {
        return (Boolean) Meta.equals(st, a, b, false);
    }

    @Override
    public long length(Object v) {
        Object n;
        try {
            n = Meta.len(st, v, false);
        } catch (VmError e) {
            throw e.plain();
        }
        // lua_tointegerx: a numeric string returned by __len counts, read exactly ("2.0" is 2)
        if (n instanceof LuaString s) n = dev.luavm.value.LuaNumbers.parse(s);
        if (n instanceof Long l) return l;
        if (n instanceof Double d) {
            Long l = dev.luavm.value.LuaNumbers.floatToInteger(d);
            if (l != null) return l;
        }
        throw error("object length is not an integer");
    }

    @Override
    public LuaString toStringMeta(Object v) {
        return Meta.tostring(this, st, v);
    }

    @Override
    public LuaTable getMetatable(Object v) {
        return Meta.metatable(st, v);
    }

    @Override
    public LuaError errorAt(int level, String message) {
        String pos = level == 1 ? DebugInfo.where(caller) : DebugInfo.where(co, level);
        if (pos.isEmpty()) return new LuaError(LuaString.of(message));
        byte[] p = pos.getBytes(StandardCharsets.ISO_8859_1);
        byte[] m = message.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[p.length + m.length];
        System.arraycopy(p, 0, out, 0, p.length);
        System.arraycopy(m, 0, out, p.length, m.length);
        return new LuaError(LuaString.wrap(out));
    }

    @Override
    public String functionNameForErrors() {
        String[] name = DebugInfo.funcNameFromCode(caller);
        if (name != null) return name[1];
        String g = DebugInfo.globalFuncName(st, fn);
        return g != null ? g : fn.qualifiedName;
    }

    @Override
    public boolean calledAsMethod() {
        String[] name = DebugInfo.funcNameFromCode(caller);
        return name != null && name[0].equals("method");
    }
}
