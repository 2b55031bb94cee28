package dev.luavm.vm;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaValues;
import dev.luavm.value.Upvalue;

/**
 * The shape of the frame stack: calls, returns, markers, coroutine switches and error
 * unwinding ({@code ldo.c}). Everything here runs on behalf of {@link Interpreter}'s loop and
 * never recurses into it, except {@link LuaState#callJava} for library re-entry (VM rule 3).
 */
final class Calls {
    private Calls() {}

    /** Sentinel answer of a slow path: a Lua frame was pushed; continue the loop with it. */
    static final Object PENDING = new Object() {
        @Override
        public String toString() {
            return "pending";
        }
    };

    /**
     * Values a call, return or transfer moves within its base price; each further value costs 1
     * (element work), so a vararg list of 200,000 values is paid for every time it is copied.
     */
    static final int FREE_VALUES = 8;

    /** Charges the element work of moving {@code n} values (nothing up to {@link #FREE_VALUES}). */
    static void chargeValues(LuaState st, int n) {
        if (n > FREE_VALUES) st.gas.charge(n - FREE_VALUES);
    }

    /** PUC's LUAI_MAXCCALLS: nested Java re-entries and resume chains. */
    static final int MAX_C_CALLS = 200;
    /** handler re-invocations before "error in error handling" */
    static final int MAX_HANDLER_NESTING = 20;
    static final LuaString ERRERR = LuaString.of("error in error handling");

    // ---- calls

    /** Pushes a frame running {@code cl} whose function sits at {@code stack[func]} with {@code nargs} args. */
    static CallFrame pushLua(LuaState st, Coroutine co, LuaClosure cl, int func, int nargs, int nres, int flags) {
        Prototype p = cl.proto;
        int n = co.nframes;
        if (n >= st.maxCallDepth && (flags & CallFrame.HANDLER) == 0) throw VmError.stackOverflow();
        CallFrame[] fs = co.frames;
        CallFrame nf = n < fs.length ? fs[n] : null;
        if (nf == null) nf = co.frameAt(n);
        int np = p.numParams;
        int base;
        if (!p.isVararg) {
            base = func + 1;
            int need = base + p.maxStackSize + Coroutine.EXTRA_STACK;
            if (need > co.stack.length) co.growStack(need);
            Object[] s = co.stack;
            for (int i = nargs; i < np; i++) s[base + i] = null;
        } else {
            base = func + 1 + nargs;
            int need = base + p.maxStackSize + Coroutine.EXTRA_STACK;
            if (need > co.stack.length) co.growStack(need);
            Object[] s = co.stack;
            for (int i = 0; i < np; i++) {
                if (i < nargs) {
                    s[base + i] = s[func + 1 + i];
                    s[func + 1 + i] = null;
                } else {
                    s[base + i] = null;
                }
            }
        }
        nf.kind = CallFrame.LUA;
        nf.flags = flags;
        nf.closure = cl;
        nf.func = func;
        nf.base = base;
        nf.pc = 0;
        nf.nresults = nres;
        co.nframes = n + 1;
        return nf;
    }

    /**
     * Calls the value at {@code stack[func]} with {@code nargs} arguments above it. Returns true
     * when the call completed here (a builtin: results at {@code func..}, adjusted to
     * {@code nres}, top set when {@code nres < 0}); false when the frame stack changed and the
     * loop must continue with its new top.
     */
    static boolean precall(LuaState st, Coroutine co, int func, int nargs, int nres, int flags, CallFrame caller) {
        Object fn = co.stack[func];
        while (true) {
            if (fn instanceof LuaClosure cl) {
                pushLua(st, co, cl, func, nargs, nres, flags);
                return false;
            }
            if (fn instanceof Builtin b) {
                if (b instanceof VmBuiltin vb) return vb.precall(st, co, func, nargs, nres, flags, caller);
                return callBuiltin(st, co, b, func, nargs, nres, flags, caller, false);
            }
            Object tm = Meta.getTM(st, fn, Meta.CALL);
            // as tryfuncTM: __call must itself be a function, and the error names the called value
            if (!(tm instanceof LuaFunction)) throw VmError.type("call", Meta.typeName(st, fn), VmError.OP_A);
            chargeValues(st, nargs + 1);
            co.ensureStack(func + nargs + 2 + Coroutine.EXTRA_STACK);
            Object[] s = co.stack;
            System.arraycopy(s, func, s, func + 1, nargs + 1);
            s[func] = tm;
            nargs++;
            co.top = func + 1 + nargs;
            fn = tm;
        }
    }

    /** Runs a plain builtin on the Java stack; results end at {@code func..}. */
    static void callBuiltin(LuaState st, Coroutine co, Builtin b, int func, int nargs, int nres, CallFrame caller) {
        callBuiltin(st, co, b, func, nargs, nres, caller, false);
    }

    /** As above; {@code implicit}: called on an event, not by code ({@link Ctx#calledImplicitly}). */
    static void callBuiltin(LuaState st, Coroutine co, Builtin b, int func, int nargs, int nres, CallFrame caller,
                            boolean implicit) {
        if (!callBuiltin(st, co, b, func, nargs, nres, 0, caller, implicit)) {
            throw new IllegalStateException("a host call paused where pausing is refused");
        }
    }

    /**
     * Runs a plain builtin on the Java stack; true when it returned (results at {@code func..}),
     * false when it paused the run ({@link RunPaused}): a {@link CallFrame#SUSPEND} marker with
     * {@code flags} then stands in its place, for the dispatch loop to find on top.
     */
    static boolean callBuiltin(LuaState st, Coroutine co, Builtin b, int func, int nargs, int nres, int flags,
                               CallFrame caller, boolean implicit) {
        // element work: a builtin reads (select copies) its arguments and hands back its results
        if (nargs > FREE_VALUES) st.gas.charge(nargs - FREE_VALUES);
        int top = func + 1 + nargs;
        co.top = top;
        if (top + Coroutine.MIN_STACK > co.stack.length) co.growStack(top + Coroutine.MIN_STACK);
        Ctx c = co.spareCtx;
        if (c == null) c = new Ctx(st, co);
        else co.spareCtx = null;
        c.aim(b, func, nargs, caller);
        c.implicit = implicit;
        // finalizers a memory-pressure walk queued run here, at the next builtin call (as PUC runs
        // them at its next GC step): one level up the Java stack, never nested (Finalizers)
        dev.luavm.meter.Collector gc = st.memory.collector();
        if (gc != null && gc.hasPending()) dev.luavm.lib.Finalizers.runPending(c);
        Builtin saved = st.runningBuiltin;
        st.runningBuiltin = b;
        int n;
        try {
            n = b.call(c);
        } catch (RunPaused p) {
            st.runningBuiltin = saved;
            co.spareCtx = c;
            CallFrame m = pushMarker(st, co, CallFrame.SUSPEND, b, func, nres, flags);
            m.handler = p; // thrown again when the loop reaches the marker (finishMarker)
            return false;
        }
        st.runningBuiltin = saved;
        co.spareCtx = c;
        if (n > FREE_VALUES) st.gas.charge(n - FREE_VALUES);
        adjustResults(co, func, n, nres);
        return true;
    }

    /** A builtin left {@code n} results at {@code func}: adjusted to {@code nres} (all: top set). */
    private static void adjustResults(Coroutine co, int func, int n, int nres) {
        if (nres < 0) {
            co.top = func + n;
        } else if (n < nres) {
            co.ensureStack(func + nres + Coroutine.EXTRA_STACK);
            Object[] s = co.stack;
            for (int i = n; i < nres; i++) s[func + i] = null;
        }
    }

    /** What a resumed paused run hands the host call's marker: the call's results, or the error it raises. */
    record PausedAnswer(Object[] results, LuaError error) {}

    /**
     * The loop found the marker of a paused host call on top: the first time, the run pauses
     * (its {@link RunPaused} is thrown); in a resumed run, the call returns the host's results
     * (or raises its error) as the builtin would have, and the frame stack goes on as after the
     * builtin returned. True when the loop must return.
     */
    private static boolean finishPaused(LuaState st, Coroutine co, CallFrame m) {
        Object h = m.handler;
        m.handler = null;
        if (h instanceof RunPaused p) throw p;
        if (!(h instanceof PausedAnswer a)) throw new IllegalStateException("a paused call's marker without an answer");
        int func = m.func;
        int nres = m.nresults;
        int fl = m.flags;
        m.clearRefs();
        co.nframes--;
        if (a.error() != null) throw a.error();
        Object[] r = a.results();
        int n = r.length;
        if ((long) func + n + Coroutine.EXTRA_STACK > st.maxStackSlots) throw LuaError.of("stack overflow (too many results)");
        co.ensureStack(func + n + Coroutine.EXTRA_STACK);
        System.arraycopy(r, 0, co.stack, func, n);
        if (n > FREE_VALUES) st.gas.charge(n - FREE_VALUES);
        adjustResults(co, func, n, nres);
        if ((fl & CallFrame.FRESH) != 0) return true;
        if ((fl & CallFrame.BOTTOM) != 0) coroutineDone(st, co);
        return false;
    }

    /** Moves {@code n} values from {@code src} to {@code dst}, adjusted to {@code want} (-1: all, sets top). */
    static void moveResults(Coroutine co, int src, int n, int dst, int want) {
        chargeValues(co.state, want < 0 ? n : Math.min(n, want));
        Object[] s = co.stack;
        if (want < 0) {
            System.arraycopy(s, src, s, dst, n);
            co.top = dst + n;
            return;
        }
        if (dst + want > s.length) {
            co.ensureStack(dst + want + Coroutine.EXTRA_STACK);
            s = co.stack;
        }
        int j = 0;
        for (; j < want && j < n; j++) s[dst + j] = s[src + j];
        for (; j < want; j++) s[dst + j] = null;
    }

    /** Pushes a marker frame for a VM builtin. */
    static CallFrame pushMarker(LuaState st, Coroutine co, byte kind, Builtin b, int func, int nres, int flags) {
        int n = co.nframes;
        if (n >= st.maxCallDepth) throw VmError.stackOverflow();
        CallFrame m = co.frameAt(n);
        m.kind = kind;
        m.flags = flags;
        m.closure = null;
        m.builtin = b;
        m.func = func;
        m.base = func + 1;
        m.pc = 0;
        m.nresults = nres;
        m.failed = false;
        m.handler = null;
        m.handlerDepth = 0;
        m.handlerNny = 0;
        m.savedMetaDepth = co.metaDepth;
        co.nframes = n + 1;
        return m;
    }

    // ---- returns

    /**
     * After a Lua frame with special flags returned (results already moved, frame popped).
     * Returns true when the dispatch loop must return to its Java caller (FRESH).
     */
    static boolean finishSpecial(LuaState st, Coroutine co, CallFrame f) {
        int fl = f.flags;
        if ((fl & CallFrame.FRESH) != 0) return true;
        if ((fl & CallFrame.META) != 0) {
            co.metaDepth--;
            finishOp(st, co, f);
        } else if ((fl & CallFrame.HANDLER) != 0) {
            finishHandler(co, f.aux, co.stack[f.func]);
        } else if ((fl & CallFrame.BOTTOM) != 0) {
            coroutineDone(st, co);
        }
        return false;
    }

    /** The loop found a marker on top: its callee finished. True when the loop must return. */
    static boolean finishMarker(LuaState st, Coroutine co, CallFrame m) {
        if (m.kind == CallFrame.SUSPEND) return finishPaused(st, co, m);
        int func = m.func;
        Object[] s = co.stack;
        int src;
        int n;
        if (m.kind == CallFrame.WRAP) {
            src = func + 1;
            n = co.top - src;
        } else {
            s[func] = m.failed ? Boolean.FALSE : Boolean.TRUE;
            src = func;
            n = co.top - func;
        }
        m.failed = false;
        m.clearRefs();
        co.nframes--;
        moveResults(co, src, n, func, m.nresults);
        int fl = m.flags;
        if ((fl & CallFrame.FRESH) != 0) return true;
        if ((fl & CallFrame.BOTTOM) != 0) coroutineDone(st, co);
        return false;
    }

    /** luaV_finishOp: completes the instruction interrupted by the metamethod frame {@code mf}. */
    static void finishOp(LuaState st, Coroutine co, CallFrame mf) {
        Object res = mf.nresults == 0 ? null : co.stack[mf.func];
        CallFrame f = co.frames[co.nframes - 1];
        int i = f.closure.proto.code[f.pc - 1];
        OpCode op = Instr.op(i);
        switch (op) {
            case EQ, LT, LE -> {
                boolean b = LuaValues.isTruthy(res);
                if ((mf.flags & CallFrame.NEGATE) != 0) b = !b;
                if (b != (Instr.a(i) != 0)) f.pc++;
            }
            case CONCAT -> {
                co.stack[mf.aux] = res;
                Object v = Meta.concat(st, co, f.base + Instr.b(i), mf.aux);
                if (v != PENDING) co.stack[f.base + Instr.a(i)] = v;
            }
            case SETTABLE, SETTABUP -> { }
            default -> co.stack[f.base + Instr.a(i)] = res;
        }
    }

    // ---- coroutines

    /** The coroutine's body returned: it is dead; its values go to the resumer's marker. */
    static void coroutineDone(LuaState st, Coroutine co) {
        int n = co.top;
        co.status = Coroutine.Status.DEAD;
        Coroutine r = co.resumer;
        co.resumer = null;
        deliver(st, co.stack, 0, n, r);
        co.top = 0;
        co.stack = new Object[0];
        co.frames = new CallFrame[0];
        co.nframes = 0;
        co.spareCtx = null; // its last builtin (a gmatch iterator, say) must not outlive the coroutine
    }

    /** Copies values into the top marker of {@code r} and makes {@code r} current. */
    static void deliver(LuaState st, Object[] from, int src, int n, Coroutine r) {
        chargeValues(st, n);
        CallFrame rm = r.frames[r.nframes - 1];
        int dst = rm.func + 1;
        r.ensureStack(dst + n + Coroutine.EXTRA_STACK);
        System.arraycopy(from, src, r.stack, dst, n);
        r.top = dst + n;
        r.status = Coroutine.Status.RUNNING;
        st.current = r;
    }

    // ---- errors

    /**
     * Handles a Lua error raised while the loop runs: finishes its message, attaches a traceback
     * when nothing will catch it, and unwinds to the nearest pcall/xpcall/resume marker,
     * arranging the frame stack so that the loop simply continues. Returns null when handled,
     * or the error to rethrow to the Java caller of the loop (a FRESH frame was reached).
     */
    static LuaError unwind(LuaState st, LuaError e) {
        if (e instanceof RunPaused p) {
            // not an error: the run stops here, everything in place for the snapshot
            st.runningBuiltin = null;
            st.paused(p);
            return p;
        }
        Coroutine co = st.current;
        Builtin raiser = st.runningBuiltin;
        st.runningBuiltin = null;
        if (e instanceof VmError ve) {
            CallFrame top = co.topFrame();
            e = ve.finish(DebugInfo.where(top), DebugInfo.varInfo(top, ve));
        }
        if (e.luaTraceback() == null && !willBeCaught(st)) {
            e.setLuaTraceback(DebugInfo.traceback(st, co, null, 1, raiser, true));
        }
        while (true) {
            co = st.current;
            for (int i = co.nframes - 1; i >= 0; i--) {
                CallFrame f = co.frames[i];
                if (f.kind == CallFrame.PCALL || f.kind == CallFrame.XPCALL) {
                    if (f.kind == CallFrame.XPCALL) {
                        st.handlerRaiser = raiser;
                        try {
                            callHandler(st, co, i, e.value());
                        } finally {
                            st.handlerRaiser = null;
                        }
                    } else {
                        failMarker(co, i, e.value());
                    }
                    return null;
                }
                if ((f.flags & CallFrame.HANDLER) != 0) {
                    CallFrame mk = co.frames[f.aux];
                    if (++mk.handlerDepth > MAX_HANDLER_NESTING) {
                        failMarker(co, f.aux, ERRERR);
                    } else {
                        callHandler(st, co, f.aux, e.value());
                    }
                    return null;
                }
                if ((f.flags & CallFrame.FRESH) != 0) {
                    co.closeUpvalues(f.func);
                    co.popFrames(i);
                    co.top = f.func;
                    return e;
                }
            }
            // the error left the coroutine's body: the coroutine dies
            Coroutine r = co.resumer;
            if (co.isMain()) {
                co.closeUpvalues(0);
                co.popFrames(0);
                co.metaDepth = 0;
                co.top = 0;
            } else {
                co.die();
            }
            if (r == null) return e;
            st.current = r;
            r.status = Coroutine.Status.RUNNING;
            CallFrame rm = r.frames[r.nframes - 1];
            if (rm.kind == CallFrame.RESUME) {
                failMarker(r, r.nframes - 1, e.value());
                return null;
            }
            // coroutine.wrap: the error continues in the resumer as auxwrap's own lua_error, a
            // new error raised by the wrap function (its frame, rm, still on the stack): a string
            // gets the position of the wrap function's caller, and a traceback or xpcall's handler
            // sees the resumer's stack with the wrap function on top, as in lua5.3, not the
            // dead coroutine's frames or the builtin that raised inside it
            CallFrame caller = r.nframes >= 2 ? r.frames[r.nframes - 2] : null;
            e = e.value() instanceof LuaString s
                    ? new LuaError(LuaString.ofLatin1(DebugInfo.where(caller) + s.toLatin1()))
                    : new LuaError(e.value());
            raiser = null;
            if (!willBeCaught(st)) e.setLuaTraceback(DebugInfo.traceback(st, r, null, 1, null, true));
            // the loop goes on in r from rm: a FRESH rm returns the error to the Java caller, a
            // BOTTOM one (a wrap function as a coroutine body) lets it leave that coroutine too
        }
    }

    /** Cuts the stack back to marker {@code m} and makes it answer false, value. */
    static void failMarker(Coroutine co, int m, Object value) {
        CallFrame mk = co.frames[m];
        co.closeUpvalues(mk.func + 1);
        co.popFrames(m + 1);
        co.nny -= mk.handlerNny; // the handler frames above are gone
        mk.handlerNny = 0;
        co.metaDepth = mk.savedMetaDepth;
        co.ensureStack(mk.func + 2 + Coroutine.EXTRA_STACK);
        co.stack[mk.func + 1] = value;
        co.top = mk.func + 2;
        mk.failed = true;
    }

    /** Calls xpcall's handler on top of the intact stack (so it can take a traceback). */
    static void callHandler(LuaState st, Coroutine co, int m, Object errValue) {
        CallFrame mk = co.frames[m];
        Object h = mk.handler;
        CallFrame top = co.topFrame();
        int pos = co.top;
        if (top != null && top.kind == CallFrame.LUA) pos = Math.max(pos, top.base + top.closure.proto.maxStackSize);
        co.ensureStack(pos + 2 + Coroutine.EXTRA_STACK);
        if (h instanceof LuaClosure cl) {
            co.stack[pos] = cl;
            co.stack[pos + 1] = errValue;
            co.top = pos + 2;
            CallFrame hf = pushLua(st, co, cl, pos, 1, 1, CallFrame.HANDLER);
            hf.aux = m;
            // as in PUC, where luaG_errormsg calls the handler with luaD_callnoyield
            co.nny++;
            mk.handlerNny++;
            return;
        }
        co.top = pos;
        Object value;
        while (true) {
            try {
                Object[] r = st.callJavaImplicitly(h, errValue);
                value = r.length == 0 ? null : r[0];
                break;
            } catch (LuaError e2) {
                if (++mk.handlerDepth > MAX_HANDLER_NESTING) {
                    value = ERRERR;
                    break;
                }
                errValue = e2.value();
            }
        }
        finishHandler(co, m, value);
    }

    static void finishHandler(Coroutine co, int m, Object value) {
        failMarker(co, m, value);
    }

    /** Whether some pcall, xpcall or coroutine.resume will catch an error raised now. */
    static boolean willBeCaught(LuaState st) {
        Coroutine co = st.current;
        while (co != null) {
            for (int i = co.nframes - 1; i >= 0; i--) {
                CallFrame f = co.frames[i];
                if (f.kind == CallFrame.PCALL || f.kind == CallFrame.XPCALL || f.kind == CallFrame.RESUME) return true;
                if ((f.flags & CallFrame.HANDLER) != 0) return true;
            }
            co = co.resumer;
        }
        return false;
    }

    // ---- closures

    /** CLOSURE: a closure for {@code cl.proto.protos[idx]}, reusing the cached one when equal. */
    static LuaClosure closure(LuaState st, Coroutine co, LuaClosure cl, int idx, int base) {
        Prototype np = cl.proto.protos[idx];
        Prototype.UpvalueDesc[] uv = np.upvalues;
        LuaClosure[] cache = cl.childCache;
        if (cache != null) {
            LuaClosure c = cache[idx];
            if (c != null && sameUpvalues(co, cl, c, uv, base)) return c;
        }
        st.memory.charge(Sizes.CLOSURE_HEADER + uv.length * Sizes.REF);
        Upvalue[] ups = new Upvalue[uv.length];
        for (int j = 0; j < uv.length; j++) {
            Prototype.UpvalueDesc d = uv[j];
            ups[j] = d.inStack() ? co.findUpvalue(base + d.index()) : cl.upvals[d.index()];
        }
        LuaClosure c = new LuaClosure(np, ups, cl.heat.child(cl.proto, idx));
        if (cache == null) {
            st.memory.charge((long) cl.proto.protos.length * Sizes.REF);
            cache = new LuaClosure[cl.proto.protos.length];
            cl.childCache = cache;
        }
        cache[idx] = c;
        return c;
    }

    private static boolean sameUpvalues(Coroutine co, LuaClosure cl, LuaClosure c, Prototype.UpvalueDesc[] uv, int base) {
        for (int j = 0; j < uv.length; j++) {
            Prototype.UpvalueDesc d = uv[j];
            Upvalue u = c.upvals[j];
            if (d.inStack()) {
                if (u.stack != co.stack || u.index != base + d.index()) return false;
            } else if (u != cl.upvals[d.index()]) {
                return false;
            }
        }
        return true;
    }

    // ---- numeric for

    private static LuaError forError(String what) {
        return VmError.run("'for' " + what + " must be a number");
    }

    /**
     * FORPREP: normalises R(A..A+2) to all-integer or all-float control values and says whether
     * the first iteration runs (R(A+3) is then set). Integer limits are clamped as 5.3's
     * forlimit; unlike 5.3, FORLOOP never steps past the limit, so loops ending at
     * math.maxinteger end (threat T1).
     */
    static boolean forPrep(LuaState st, Object[] s, int ra) {
        Object init = s[ra];
        Object plimit = s[ra + 1];
        Object pstep = s[ra + 2];
        if (init instanceof LuaString || plimit instanceof LuaString || pstep instanceof LuaString) {
            // string control values are parsed: byte work
            Arith.chargeCoercion(st.gas, init);
            Arith.chargeCoercion(st.gas, plimit);
            Arith.chargeCoercion(st.gas, pstep);
        }
        if (init instanceof Long i0 && pstep instanceof Long st0) {
            long step = st0;
            long limit;
            boolean stopNow = false;
            Long li = step < 0 ? ceilToInteger(plimit) : floorToInteger(plimit);
            if (li != null) {
                limit = li;
            } else {
                Object n = Arith.toNumber(plimit);
                if (n == null) throw forError("limit");
                double d = n instanceof Long l ? l : (Double) n;
                if (0 < d) {
                    limit = Long.MAX_VALUE;
                    if (step < 0) stopNow = true;
                } else {
                    limit = Long.MIN_VALUE;
                    if (step >= 0) stopNow = true;
                }
            }
            long i = i0;
            s[ra + 1] = limit;
            if (stopNow) return false;
            boolean run = step > 0 ? i <= limit : limit <= i;
            if (run) s[ra + 3] = init;
            return run;
        }
        Double limit = Arith.toDouble(plimit);
        if (limit == null) throw forError("limit");
        s[ra + 1] = limit;
        Double step = Arith.toDouble(pstep);
        if (step == null) throw forError("step");
        s[ra + 2] = step;
        Double init2 = Arith.toDouble(init);
        if (init2 == null) throw forError("initial value");
        s[ra] = init2;
        boolean run = 0 < step ? init2 <= limit : limit <= init2;
        if (run) s[ra + 3] = init2;
        return run;
    }

    /** A number, with numeric strings read exactly (integers stay integers), as luaV_tointeger. */
    private static Object exactNumber(Object v) {
        return v instanceof LuaString str ? dev.luavm.value.LuaNumbers.parse(str) : Arith.toNumber(v);
    }

    private static Long floorToInteger(Object v) {
        Object n = exactNumber(v);
        if (n instanceof Long l) return l;
        if (n instanceof Double d) return dev.luavm.value.LuaNumbers.floatToInteger(Math.floor(d));
        return null;
    }

    private static Long ceilToInteger(Object v) {
        Object n = exactNumber(v);
        if (n instanceof Long l) return l;
        if (n instanceof Double d) return dev.luavm.value.LuaNumbers.floatToInteger(Math.ceil(d));
        return null;
    }

    /** luaO_fb2int: "floating point byte" table sizes of NEWTABLE, clamped. */
    static int fb2int(int x) {
        if (x < 8) return x;
        int e = (x >>> 3) - 1;
        if (e > 22) return 1 << 26;
        return Math.min(((x & 7) + 8) << e, 1 << 26);
    }
}
