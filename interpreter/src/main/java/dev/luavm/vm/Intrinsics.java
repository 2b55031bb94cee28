package dev.luavm.vm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.lib.CallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;

/**
 * The library functions the VM implements itself ({@link Intrinsic}): protected calls and
 * coroutine switches as frame-stack operations, plus error, the coroutine queries and load.
 * All are immutable and shared by every sandbox.
 */
final class Intrinsics {
    private Intrinsics() {}

    static Builtin get(Intrinsic which) {
        return switch (which) {
            case PCALL -> PCALL;
            case XPCALL -> XPCALL;
            case ERROR -> ERROR;
            case COROUTINE_CREATE -> CREATE;
            case COROUTINE_RESUME -> RESUME;
            case COROUTINE_YIELD -> YIELD;
            case COROUTINE_WRAP -> WRAP;
            case COROUTINE_STATUS -> STATUS;
            case COROUTINE_RUNNING -> RUNNING;
            case COROUTINE_ISYIELDABLE -> ISYIELDABLE;
            case LOAD -> LOAD;
        };
    }

    // ---- pcall / xpcall

    static final VmBuiltin PCALL = new VmBuiltin("pcall") {
        @Override
        boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller) {
            if (nargs < 1) throw argError(st, co, this, caller, 1, "value expected");
            Calls.pushMarker(st, co, CallFrame.PCALL, this, func, nres, flags);
            Calls.precall(st, co, func + 1, nargs - 1, -1, 0, null);
            return false;
        }
    };

    static final VmBuiltin XPCALL = new VmBuiltin("xpcall") {
        @Override
        boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller) {
            Object[] s = co.stack;
            if (nargs < 2 || !(s[func + 2] instanceof dev.luavm.value.LuaFunction)) {
                String got = nargs < 2 ? "no value" : Meta.typeName(st, s[func + 2]);
                throw argError(st, co, this, caller, 2, "function expected, got " + got);
            }
            Object handler = s[func + 2];
            Calls.chargeValues(st, nargs - 2);
            // xpcall(f, h, args...): f stays at func+1, its arguments move down over h
            System.arraycopy(s, func + 3, s, func + 2, nargs - 2);
            s[func + nargs] = null;
            co.top = func + nargs;
            CallFrame m = Calls.pushMarker(st, co, CallFrame.XPCALL, this, func, nres, flags);
            m.handler = handler;
            Calls.precall(st, co, func + 1, nargs - 2, -1, 0, null);
            return false;
        }
    };

    // ---- coroutines

    static final VmBuiltin RESUME = new VmBuiltin("coroutine.resume") {
        @Override
        boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller) {
            if (!(co.stack[func + 1] instanceof Coroutine co2) || nargs < 1) {
                throw argError(st, co, this, caller, 1, "thread expected");
            }
            return resume(st, co, co2, this, CallFrame.RESUME, func, func + 2, nargs - 1, nres, flags, caller);
        }
    };

    /** The function returned by coroutine.wrap: it holds its coroutine, and reports it to the memory walk. */
    static final class WrapFn extends VmBuiltin {
        final Coroutine co;

        WrapFn(Coroutine co) {
            super("wrap");
            this.co = co;
        }

        @Override
        public void forEachReference(java.util.function.Consumer<Object> visitor) {
            visitor.accept(co);
        }

        @Override
        public long estimatedBytes() {
            return Sizes.CLOSURE_HEADER;
        }

        @Override
        boolean precall(LuaState st, Coroutine cur, int func, int nargs, int nres, int flags, CallFrame caller) {
            return resume(st, cur, co, this, CallFrame.WRAP, func, func + 1, nargs, nres, flags, caller);
        }
    }

    /** lua_resume without C recursion: marks the resumer, switches {@link LuaState#current}. */
    static boolean resume(LuaState st, Coroutine co, Coroutine co2, Builtin b, byte kind, int func, int args,
                          int nargs, int nres, int flags, CallFrame caller) {
        String problem = null;
        if (co2.status == Coroutine.Status.DEAD) problem = "cannot resume dead coroutine";
        else if (co2.status != Coroutine.Status.SUSPENDED) problem = "cannot resume non-suspended coroutine";
        else if (co.resumeDepth + st.javaDepth >= Calls.MAX_C_CALLS) problem = "C stack overflow";
        if (problem != null) {
            if (kind == CallFrame.WRAP) throw VmBuiltin.error(co, caller, problem);
            if ((flags & (CallFrame.FRESH | CallFrame.BOTTOM)) != 0) {
                // complete through a marker so the loop honours the flags
                Calls.pushMarker(st, co, kind, b, func, nres, flags);
                Calls.failMarker(co, co.nframes - 1, LuaString.of(problem));
                return false;
            }
            Object[] s = co.stack;
            s[func] = Boolean.FALSE;
            s[func + 1] = LuaString.of(problem);
            Calls.moveResults(co, func, 2, func, nres);
            return true;
        }
        Calls.pushMarker(st, co, kind, b, func, nres, flags);
        co.status = Coroutine.Status.NORMAL;
        co2.resumer = co;
        co2.status = Coroutine.Status.RUNNING;
        co2.resumeDepth = co.resumeDepth + 1;
        st.current = co2;
        Object[] from = co.stack;
        Calls.chargeValues(st, nargs); // element work: the arguments cross to the other stack
        if (!co2.started) {
            co2.started = true;
            co2.ensureStack(nargs + 1 + Coroutine.MIN_STACK);
            co2.stack[0] = co2.body;
            co2.body = null;
            System.arraycopy(from, args, co2.stack, 1, nargs);
            co2.top = 1 + nargs;
            if (Calls.precall(st, co2, 0, nargs, -1, CallFrame.BOTTOM, null)) Calls.coroutineDone(st, co2);
            return false;
        }
        int dst = co2.yieldFunc;
        co2.ensureStack(dst + nargs + Coroutine.EXTRA_STACK);
        System.arraycopy(from, args, co2.stack, dst, nargs);
        Calls.moveResults(co2, dst, nargs, dst, co2.yieldNres);
        if (co2.nframes == 0) Calls.coroutineDone(st, co2); // the body was yield itself
        return false;
    }

    static final VmBuiltin YIELD = new VmBuiltin("coroutine.yield") {
        @Override
        boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller) {
            if (co.resumer == null) throw LuaError.of("attempt to yield from outside a coroutine");
            if (co.nny > 0) throw LuaError.of("attempt to yield across a C-call boundary");
            co.yieldFunc = func;
            co.yieldNres = nres;
            co.status = Coroutine.Status.SUSPENDED;
            Coroutine r = co.resumer;
            co.resumer = null;
            Calls.deliver(st, co.stack, func + 1, nargs, r);
            co.top = func;
            co.shrinkStacks(); // suspended: no Java frame holds its stack now
            return false;
        }
    };

    static final Builtin CREATE = new Builtin("coroutine.create") { @Override public int call(CallContext c) {
        LuaFunction f = c.checkFunction(1);
        Ctx x = (Ctx) c;
        return c.ret(new Coroutine(x.st, f, Coroutine.INITIAL_STACK));
    }};

    static final Builtin WRAP = new Builtin("coroutine.wrap") { @Override public int call(CallContext c) {
        LuaFunction f = c.checkFunction(1);
        Ctx x = (Ctx) c;
        Coroutine co = new Coroutine(x.st, f, Coroutine.INITIAL_STACK);
        c.memory().charge(Sizes.CLOSURE_HEADER);
        return c.ret(new WrapFn(co));
    }};

    // coroutine.status answers, made once (not per call): immutable, shared by every sandbox
    private static final LuaString ST_SUSPENDED = LuaString.of(Coroutine.Status.SUSPENDED.luaName);
    private static final LuaString ST_RUNNING = LuaString.of(Coroutine.Status.RUNNING.luaName);
    private static final LuaString ST_NORMAL = LuaString.of(Coroutine.Status.NORMAL.luaName);
    private static final LuaString ST_DEAD = LuaString.of(Coroutine.Status.DEAD.luaName);

    static final Builtin STATUS = new Builtin("coroutine.status") { @Override public int call(CallContext c) {
        if (!(c.arg(1) instanceof Coroutine co)) throw c.argError(1, "thread expected");
        Ctx x = (Ctx) c;
        LuaString s = co == x.st.current ? ST_RUNNING : switch (co.status) {
            case SUSPENDED -> ST_SUSPENDED;
            case RUNNING -> ST_RUNNING;
            case NORMAL -> ST_NORMAL;
            case DEAD -> ST_DEAD;
        };
        return c.ret(s);
    }};

    static final Builtin RUNNING = new Builtin("coroutine.running") { @Override public int call(CallContext c) {
        Ctx x = (Ctx) c;
        Coroutine co = x.st.current;
        return c.ret(co, co.isMain());
    }};

    static final Builtin ISYIELDABLE = new Builtin("coroutine.isyieldable") { @Override public int call(CallContext c) {
        Ctx x = (Ctx) c;
        Coroutine co = x.st.current;
        // this builtin runs inside the loop, not a re-entry, so nny counts only outer Java levels
        return c.ret(!co.isMain() && co.nny == 0);
    }};

    // ---- error

    static final Builtin ERROR = new Builtin("error") { @Override public int call(CallContext c) {
        Object v = c.arg(1);
        long level = c.optInteger(2, 1);
        if (v instanceof LuaString s && level > 0) {
            Ctx x = (Ctx) c;
            String pos = DebugInfo.where(x.st.current, (int) Math.min(level, Integer.MAX_VALUE));
            if (!pos.isEmpty()) {
                byte[] p = pos.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                long n = (long) p.length + s.length();
                c.memory().charge(Sizes.string(n)); // before the copy: the message may be huge
                c.chargeGas(1 + GasMeter.byteWork(n));
                if (n > Integer.MAX_VALUE - 16) throw new LuaError(LuaString.of("not enough memory"));
                byte[] out = new byte[(int) n];
                System.arraycopy(p, 0, out, 0, p.length);
                System.arraycopy(s.bytesUnsafe(), 0, out, p.length, s.length());
                v = LuaString.wrap(out);
            }
        }
        throw new LuaError(v);
    }};

    // ---- load

    static final Builtin LOAD = new Builtin("load") { @Override public int call(CallContext c) { return Load.call(c); } };

    /** A main-chunk closure: fresh closed upvalues, the first one holding {@code env}. */
    static LuaClosure bind(LuaState st, Prototype p, Object env) {
        int n = p.upvalues.length;
        st.memory.charge(Sizes.CLOSURE_HEADER + n * (Sizes.REF + Sizes.UPVALUE));
        Upvalue[] ups = new Upvalue[n];
        for (int i = 0; i < n; i++) ups[i] = Upvalue.closed(i == 0 ? env : null);
        return new LuaClosure(p, ups, st.heatOf(p));
    }

    /** Unused helper kept for symmetry with InstallContext.newTable. */
    static LuaTable newTable(LuaState st) {
        return new LuaTable(st.memory);
    }
}
