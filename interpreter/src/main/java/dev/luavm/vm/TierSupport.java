package dev.luavm.vm;

import dev.luavm.bytecode.OpCode;
import dev.luavm.meter.GasMeter;
import dev.luavm.value.Heat;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The whole runtime API of compiled Lua functions: every generated class extends this one and
 * references no other class but Lua's value boxes {@code Long}, {@code Double} and {@code Boolean}
 * (a test reads their constant pools, {@code CompiledTierTest}).
 *
 * <h2>Contract of {@link #run}</h2>
 * A compiled function is a specialisation of {@link Interpreter#execute}'s inner loop for one
 * prototype. It works on the same heap frame as the interpreter: registers in
 * {@code co.stack} from {@code f.base}, the resume point in {@code f.pc}. It starts at
 * {@code f.pc} (an entry switch covers every pc) and runs until the frame changes (a call of a
 * Lua function, a return, a metamethod pushed as a frame, a yield), then returns to the
 * dispatch loop's outer loop exactly where the interpreter would {@code continue outer}:
 * {@link #CONTINUE}, or {@link #DONE} where the interpreter returns. A yield under a compiled
 * frame is an ordinary frame switch: the interpreter or the compiled code resumes the frame at
 * {@code f.pc}.
 *
 * <h2>Direct calls</h2>
 * One frame change is short-cut: a CALL (or TFORCALL) whose callee frame, pushed on the heap
 * exactly as the interpreter pushes it, belongs to a closure the dispatch loop would itself run
 * compiled ({@link #direct}: same coroutine, a plain frame right above the caller's, compiled
 * code, the heat count as the loop keeps it) runs the callee's {@code run} from the caller's
 * code, at most {@link #MAX_NESTED} deep on the Java stack ({@link LuaState#tierDepth}); past
 * that, the dispatch loop takes the call (VM rule 3: the Lua depth is the heap's). The callee's
 * frame is then {@link LuaState#tierDirect}: its RETURN pops it as always and answers
 * {@link #RETURNED}, and the caller goes on at its next instruction; its TAILCALL replaces it
 * as always and answers {@link #TAILCALLED}, and the caller runs the new frame the same way.
 * Any other status unwinds every nested run to the dispatch loop, each frame's pc already
 * saved by the instruction that left it, so a yield or metamethod frame under nested compiled
 * runs is the same frame switch as without them. The gas counter is handed down and back
 * through {@link LuaState#tierGas} at every boundary, and whoever takes it zeroes it there
 * ({@link #gasIn}): {@link #fail} charges its own counter plus any counter handed over but not
 * yet taken, so every unit is charged once whichever level an error or a host stack overflow
 * leaves through. Each level's exception handler puts the nesting state back as it found it.
 * A typed loop's own method (jit {@code RegionEmitter}) is entered from its {@code run} the
 * same way, outside run's exception handler: counter handed over, run's pc in {@code f.pc}
 * ({@link #pcOut}); it returns a status for run to return, or the pc at which run goes on.
 *
 * <p>Each instruction is the interpreter's case for it, with the operand word as a constant:
 * the helpers below are those cases, one each. Their slow paths ({@link #index},
 * {@link #setIndex}, {@link #metaArith}, {@link #metaLen}, {@link #compareSlow}) and the
 * cases that are all slow path (CONCAT, TAILCALL, TFORCALL, SETLIST's stores, VARARG) are
 * the interpreter's own: its dispatch loop calls them, so each semantic is written once; the
 * loop keeps only its inline fast paths (measured: calling {@link #call} and {@link #ret}
 * cost fib 10% and 4%, so CALL's closure push and RETURN stay inline there too). The generator may instead write an
 * instruction's fast path into {@code run} itself (jit {@code InlineOps}, with the small value
 * helpers at the end of this class) and take the interpreter's slow path, through these
 * helpers, on anything else; such code caches {@code co.stack} in a local and reloads it after
 * every helper call (a builtin run in place may grow the stack). Gas is kept the interpreter's way: the
 * instruction's {@link OpCode#gas} is added to a local counter before it runs, and the counter
 * is charged at the same safepoints under the same condition ({@code gas >= room}); the counter
 * and room cross the boundary through {@link LuaState#tierGas}/{@link LuaState#tierRoom}. An
 * error thrown inside records the pc and charges the counter (what the interpreter's catch
 * does) before it propagates: positions, tracebacks and gas are the interpreter's.
 *
 * <h2>Frameless calls</h2>
 * A small function of fixed arity (jit {@code FramelessEmitter}) also gets a frameless entry,
 * {@link #call0} .. {@link #call3}: the whole function with its registers in JVM locals, run
 * without the heap frame a call pushes. A compiled CALL of one or no results ({@link #frameless}),
 * a frameless run's CALL or TAILCALL ({@link #framelessAt}) and a library's call into Lua
 * ({@link LuaState#callJava1}, table.sort's comparator) try it when the frame the call would
 * push needs no allocation and raises nothing (frame object and stack already there, under the
 * depth limit, at most {@link #MAX_NESTED} Java levels). Its instructions either complete
 * exactly as the interpreter's cases do (nothing a frameless form does raises, yields,
 * allocates a Lua-visible object or runs a metamethod) or the run <em>bails</em> before the
 * instruction: it writes its registers back, builds its frame where the call would have pushed
 * it ({@link #bail}), each frameless caller below builds its own ({@link #bailCaller}), and the
 * caller that started the nest makes them live ({@link #landBail}) and leaves to the dispatch
 * loop, which runs them from there: errors, tracebacks, yields and metamethods always find every
 * frame. The registers are written back at every return and bail, so the stack holds what the
 * interpreter leaves there for the live-heap walk. Gas is the interpreter's: the counter is
 * handed to the callee and back as for direct calls, charged at the same safepoints. A
 * prototype whose frameless runs bail more than {@link #BAIL_LIMIT} times in a state
 * ({@link Heat#bails}) is no longer tried there.
 */
abstract class TierSupport {
    static final int CONTINUE = 0;
    static final int DONE = 1;
    /** to a direct caller: its callee returned; go on at the next instruction */
    static final int RETURNED = 2;
    /** to a direct caller: its callee's frame was replaced by a tail call; run the new top frame */
    static final int TAILCALLED = 3;
    /**
     * Compiled runs nested on the Java stack by direct calls, across all dispatch loops of a
     * state (library re-entries included). A level costs about 400-520 bytes of Java stack
     * (measured with the bound lifted: 2,000-2,700 levels fit in a 1 MiB thread stack, -Xint or
     * C2), so the 64 levels take about 32 KiB: a sixth of the 200 KiB host stacks the threat
     * tests run on (T07), whose re-entries cost about 3 KiB each.
     */
    static final int MAX_NESTED = 64;

    /** The arity of this code's frameless entry ({@link #call1} and its siblings), or -1 when it has none. */
    final int frameless;

    protected TierSupport() {
        this(-1);
    }

    /** Code with a frameless entry taking {@code frameless} arguments (-1: none). */
    protected TierSupport(int frameless) {
        this.frameless = frameless;
    }

    /** Runs the frame {@code f} (its closure's prototype is this code's) from {@code f.pc}. */
    abstract int run(LuaState st, Coroutine co, CallFrame f);

    // ---- frameless calls (see the class comment)

    /** What a frameless run answers when it built its frame and left the rest to the dispatch loop. */
    static final Object BAILED = new Object();
    /** What a frameless run answers for a RETURN of no values to a caller that takes them all (from Java). */
    static final Object NO_VALUES = new Object();
    /** Bails of a prototype in one sandbox after which its frameless entry is no longer tried there. */
    static final int BAIL_LIMIT = 8;

    /**
     * The frameless entry of arity 0: runs {@code cl} (this code's prototype) as the frame that a
     * call would push at index {@code n} with its function at {@code func}, without pushing it.
     * {@code ctl} packs the Java nesting depth, the frame's flags and its wanted results
     * ({@link #ctl}); {@code gas} and {@code room} are the caller's counter, handed over. Answers
     * the single result (or {@link #NO_VALUES}, or {@link #BAILED}); the counter comes back
     * through {@link LuaState#tierGas} and {@link LuaState#tierRoom}.
     */
    Object call0(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int ctl, long gas, long room) {
        throw new IllegalStateException("no frameless entry");
    }

    /** {@link #call0} with one argument. */
    Object call1(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int ctl, long gas, long room, Object a) {
        throw new IllegalStateException("no frameless entry");
    }

    /** {@link #call0} with two arguments. */
    Object call2(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int ctl, long gas, long room, Object a,
            Object b) {
        throw new IllegalStateException("no frameless entry");
    }

    /** {@link #call0} with three arguments. */
    Object call3(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int ctl, long gas, long room, Object a,
            Object b, Object c) {
        throw new IllegalStateException("no frameless entry");
    }

    /** A frameless run's control word: Java nesting depth, the frame's flags, the results its caller wants. */
    static int ctl(int depth, int flags, int nres) {
        return depth << 16 | flags << 8 | (nres + 1);
    }

    /**
     * At a CALL of a compiled {@code run}, {@code nargs} arguments above the function at
     * {@code func}: the callee's code when the call can run frameless (a compiled closure whose
     * frameless entry takes exactly {@code nargs}, not given up on in this sandbox, whose frame
     * the call would push without allocating or failing), with {@code co.top} set as the call
     * sets it; else null, nothing changed.
     */
    static TierSupport frameless(LuaState st, Coroutine co, int func, int nargs) {
        Object fn = co.stack[func];
        if (!(fn instanceof LuaClosure cl) || st.tierDepth >= MAX_NESTED || st.current != co) return null;
        TierSupport t = framelessCode(st, co, cl, co.nframes, func, nargs, 0);
        if (t != null) co.top = func + 1 + nargs;
        return t;
    }

    /** A library's call into Lua ({@link LuaState#callJava1}): the callee's frameless code when it can run so, else null. */
    static TierSupport framelessJava(LuaState st, Coroutine co, LuaClosure cl, int func, int nargs) {
        if (st.tierDepth >= MAX_NESTED || st.current != co) return null;
        return framelessCode(st, co, cl, co.nframes, func, nargs, 0);
    }

    /**
     * At a CALL ({@code extra} 0) or TAILCALL ({@code extra} = nargs) of a frameless run at Java
     * depth {@code depth}: the callee's code when it can run frameless as frame {@code n}, else null.
     */
    static TierSupport framelessAt(LuaState st, Coroutine co, Object fn, int n, int func, int nargs, int depth, int extra) {
        if (!(fn instanceof LuaClosure cl) || depth >= MAX_NESTED) return null;
        return framelessCode(st, co, cl, n, func, nargs, extra);
    }

    private static TierSupport framelessCode(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int nargs, int extra) {
        dev.luavm.value.Heat h = cl.heat;
        if (!(h.jit instanceof TierSupport t) || t.frameless != nargs || h.bails >= BAIL_LIMIT) return null;
        CallFrame[] fs = co.frames;
        // what pushLua would do without allocating (a frame object, a larger stack) or raising
        if (n >= st.maxCallDepth || n >= fs.length || fs[n] == null
                || func + 1 + extra + cl.proto.maxStackSize + Coroutine.EXTRA_STACK > co.stack.length) {
            return null;
        }
        return t;
    }

    /**
     * Whether a frameless run's call of {@code fn} that could not run frameless counts as a bail
     * of the caller: not when the callee is only waiting to be compiled, or the call was too
     * deep or needed a frame or stack never reached before (the next such call may go through).
     */
    static boolean countsAsBail(Object fn, int nargs, int depth) {
        if (depth >= MAX_NESTED) return false;
        if (!(fn instanceof LuaClosure cl)) return true;
        Object j = cl.heat.jit;
        if (j == null) return false; // waiting to be compiled
        return !(j instanceof TierSupport t) || t.frameless != nargs || cl.heat.bails >= BAIL_LIMIT;
    }

    /**
     * A frameless run leaves at instruction {@code pc}: its frame is built where the call would
     * have pushed it (index {@code n}, on top), the counter handed back; the caller's registers
     * were written by the generated code. Answers {@link #BAILED}.
     */
    static Object bail(LuaState st, Coroutine co, LuaClosure cl, int n, int func, int ctl, int pc, long gas, long room,
            boolean counted) {
        frame(co, cl, n, func, ctl, pc);
        // the frames below are written as the callers unwind; the one that started the nest
        // makes them live ({@link #landBail}), so an unwinding cut short leaves none half-built
        st.tierBailTop = n + 1;
        dev.luavm.value.Heat h = cl.heat;
        if (counted && h.bails < BAIL_LIMIT) h.bails++;
        st.tierGas = gas;
        st.tierRoom = room;
        return BAILED;
    }

    /** A frameless run whose callee bailed builds its own frame below it, resuming at {@code pc}. */
    static Object bailCaller(Coroutine co, LuaClosure cl, int n, int func, int ctl, int pc) {
        frame(co, cl, n, func, ctl, pc);
        return BAILED;
    }

    /** What {@link Calls#pushLua} writes for a call of {@code cl} at {@code func}, with the frame at {@code pc}. */
    private static void frame(Coroutine co, LuaClosure cl, int n, int func, int ctl, int pc) {
        CallFrame f = co.frames[n];
        f.kind = CallFrame.LUA;
        f.flags = (ctl >>> 8) & 0xFF;
        f.closure = cl;
        f.func = func;
        f.base = func + 1;
        f.pc = pc;
        f.nresults = (ctl & 0xFF) - 1;
    }

    /**
     * The caller that started a nest of frameless runs, once one answered {@link #BAILED}: the
     * frames they built, from the caller's up, become the coroutine's.
     */
    static void landBail(LuaState st, Coroutine co) {
        co.nframes = st.tierBailTop;
    }

    /**
     * An exception leaves a frameless run: for what {@link #fail} charges (a Lua error, a host
     * stack overflow), its counter goes where the compiled caller's handler charges it; a
     * termination drops it, as the dispatch loop drops its own. Answers {@code t}, rethrown.
     */
    static Throwable deposit(LuaState st, long gas, Throwable t) {
        if (t instanceof LuaError || t instanceof StackOverflowError) st.tierGas += gas;
        return t;
    }

    static int nframes(Coroutine co) {
        return co.nframes;
    }

    /** The control word of a frameless callee of a compiled {@code run} ({@link #ctl}). */
    static int ctlFor(LuaState st, int nres) {
        return ctl(st.tierDepth + 1, 0, nres);
    }

    static void setTop(Coroutine co, int top) {
        co.top = top;
    }

    static Object[] constantsOf(LuaClosure cl) {
        return cl.proto.constants;
    }

    static Object upGet(LuaClosure cl, int idx) {
        return cl.upvals[idx].get();
    }

    static void upSet(LuaClosure cl, int idx, Object v) {
        cl.upvals[idx].set(v);
    }

    // ---- boundary

    /** Takes the counter handed over (zeroed: {@link #fail} charges what is left there). */
    static long gasIn(LuaState st) {
        long g = st.tierGas;
        st.tierGas = 0;
        return g;
    }

    static long roomIn(LuaState st) {
        return st.tierRoom;
    }

    /** Before a typed loop method of the same run: the pc it starts from (read back by its prologue). */
    static void pcOut(CallFrame f, int pc) {
        f.pc = pc;
    }

    static int exit(LuaState st, long gas, long room, int status) {
        st.tierGas = gas;
        st.tierRoom = room;
        return status;
    }

    static int base(CallFrame f) {
        return f.base;
    }

    static int pc(CallFrame f) {
        return f.pc;
    }

    /** Charges the local counter at a safepoint; returns the new room. */
    static long flush(LuaState st, long gas) {
        GasMeter m = st.gas;
        m.charge(gas);
        return m.room();
    }

    /** What the interpreter's catch does first: the frame's pc, the counter charged. */
    static Throwable fail(Throwable t, LuaState st, CallFrame f, int pc, long gas) {
        if (t instanceof LuaError || t instanceof StackOverflowError) {
            f.pc = pc;
            long handed = st.tierGas; // handed to a callee whose run failed before taking it
            st.tierGas = 0;
            st.gas.charge(gas + handed);
        }
        return t;
    }

    // ---- direct calls (see the class comment)

    static CallFrame directIn(LuaState st) {
        return st.tierDirect;
    }

    static int depthIn(LuaState st) {
        return st.tierDepth;
    }

    /**
     * After a call pushed a frame: the top frame's compiled code when the caller may run it
     * itself, else null (the dispatch loop takes over). The heat is counted as the loop counts
     * it ({@code ++heat >= tierAt}, then {@link Tiering#code}, which compiles on the first
     * reach and resets the heat); when this answers null the loop counts the entry itself.
     */
    static TierSupport direct(LuaState st, Coroutine co, CallFrame f) {
        int n = co.nframes;
        if (st.tierDepth >= MAX_NESTED || st.current != co || n < 2) return null;
        CallFrame[] fs = co.frames;
        CallFrame nf = fs[n - 1];
        if (fs[n - 2] != f || nf.kind != CallFrame.LUA || (nf.flags & ~CallFrame.TAIL) != 0) return null;
        LuaClosure cl = nf.closure;
        Heat h = cl.heat;
        if (h.count + 1 < st.tierAt) return null;
        if (h.jit instanceof TierSupport t) {
            h.count = st.tierAt; // what Tiering.code leaves
            return t;
        }
        TierSupport t = Tiering.code(st, cl);
        // declined (heat now MIN_VALUE): the loop counts this entry again, so take it back first
        // (wrapping: its ++ then leaves MIN_VALUE, as its own path does)
        if (t == null) h.count--;
        return t;
    }

    /** {@link #callDirect}'s answer when it pushed a frame the dispatch loop runs (never run itself). */
    static final TierSupport PUSHED = new TierSupport() {
        @Override
        int run(LuaState st, Coroutine co, CallFrame f) {
            throw new IllegalStateException("PUSHED is a marker");
        }
    };

    /**
     * CALL after its safepoint, for code that may run a compiled callee itself: {@link #call},
     * {@link #direct} and {@link #enter} in one step (the checks {@code direct} repeats on the
     * frame stack are what {@code pushLua} just made true). Answers null when a Java function
     * completed in place, {@link #PUSHED} when a frame was pushed for the dispatch loop, else the
     * callee's code, its frame {@link LuaState#tierDirect} and the counter handed over to it
     * (nothing after the handover throws, so {@link #fail} never charges the counter twice).
     */
    static TierSupport callDirect(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc, long gas, long room) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = i >>> 23;
        if (b != 0) co.top = ra + b;
        f.pc = pc;
        Object fn = co.stack[ra];
        TierSupport t;
        CallFrame nf;
        if (fn instanceof LuaClosure cl) {
            nf = Calls.pushLua(st, co, cl, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0);
            Heat h = cl.heat;
            if (st.tierDepth >= MAX_NESTED || st.current != co || h.count + 1 < st.tierAt) return PUSHED;
            if (h.jit instanceof TierSupport c) {
                h.count = st.tierAt; // what Tiering.code leaves
                t = c;
            } else {
                t = Tiering.code(st, cl);
                if (t == null) { // declined: as in direct
                    h.count--;
                    return PUSHED;
                }
            }
        } else {
            if (Calls.precall(st, co, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0, f)) return null;
            t = direct(st, co, f); // __call, or a builtin that pushed frames
            if (t == null) return PUSHED;
            nf = co.frames[co.nframes - 1];
        }
        st.tierGas = gas;
        st.tierRoom = room;
        st.tierDepth++;
        st.tierDirect = nf;
        return t;
    }

    /** Hands the counter to the callee on top, which becomes the direct frame; returns that frame. */
    static CallFrame enter(LuaState st, Coroutine co, long gas, long room) {
        st.tierGas = gas;
        st.tierRoom = room;
        st.tierDepth++;
        CallFrame nf = co.frames[co.nframes - 1];
        st.tierDirect = nf;
        return nf;
    }

    /** Puts the nesting state back as the caller's run found it (after the callee, or on an exception). */
    static void unnest(LuaState st, CallFrame direct, int depth) {
        st.tierDirect = direct;
        st.tierDepth = depth;
    }

    /** TAILCALL replaced the frame: a direct caller runs the new one, the dispatch loop otherwise. */
    static int tailStatus(LuaState st, CallFrame f) {
        return f == st.tierDirect ? TAILCALLED : CONTINUE;
    }

    static void badPc(int pc) {
        throw new IllegalStateException("compiled code entered at pc " + pc);
    }

    // ---- instructions: results 0 = next instruction, 1 = skip one, -1 = frame changed

    static int move(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        stack[base + ((i >>> 6) & 0xFF)] = stack[base + (i >>> 23)];
        return 0;
    }

    static int loadk(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        co.stack[base + ((i >>> 6) & 0xFF)] = f.closure.proto.constants[i >>> 14];
        return 0;
    }

    static int loadbool(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        co.stack[base + ((i >>> 6) & 0xFF)] = (i >>> 23) != 0 ? Boolean.TRUE : Boolean.FALSE;
        return ((i >>> 14) & 0x1FF) != 0 ? 1 : 0;
    }

    static int loadnil(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        for (int j = i >>> 23; j >= 0; j--) stack[ra + j] = null;
        return 0;
    }

    static int getupval(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        co.stack[base + ((i >>> 6) & 0xFF)] = f.closure.upvals[i >>> 23].get();
        return 0;
    }

    /** An RK operand: constant {@code x & 0xFF} when {@code x > 0xFF}, else register {@code x}. */
    private static Object rk(Object[] stack, CallFrame f, int base, int x) {
        return x > 0xFF ? f.closure.proto.constants[x & 0xFF] : stack[base + x];
    }

    static int gettabup(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object key = rk(stack, f, base, (i >>> 14) & 0x1FF);
        Object t = f.closure.upvals[i >>> 23].get();
        Object v = rawGetUp(t, key);
        if (v == MISS) return index(st, co, f, pc, t, key, ra);
        stack[ra] = v;
        return 0;
    }

    /** GETTABUP, GETTABLE, SELF past their raw read (the interpreter's too): R(A) := t[key] through {@link Meta#index}. */
    static int index(LuaState st, Coroutine co, CallFrame f, int pc, Object t, Object key, int ra) {
        f.pc = pc;
        Object v = Meta.index(st, t, key, true, VmError.OP_B);
        if (v == Calls.PENDING) return -1;
        co.stack[ra] = v;
        return 0;
    }

    static int gettable(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object key = rk(stack, f, base, (i >>> 14) & 0x1FF);
        Object t = stack[base + (i >>> 23)];
        Object v = rawGet(t, key);
        if (v == MISS) return index(st, co, f, pc, t, key, ra);
        stack[ra] = v;
        return 0;
    }

    static int settabup(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object key = rk(stack, f, base, i >>> 23);
        Object val = rk(stack, f, base, (i >>> 14) & 0x1FF);
        Object t = f.closure.upvals[(i >>> 6) & 0xFF].get();
        return rawSetStr(t, key, val) ? 0 : setIndex(st, f, pc, t, key, val);
    }

    /** SETTABUP, SETTABLE past their raw write (the interpreter's too): t[key] = val through {@link Meta#setIndex}. */
    static int setIndex(LuaState st, CallFrame f, int pc, Object t, Object key, Object val) {
        f.pc = pc;
        return Meta.setIndex(st, t, key, val, true, VmError.OP_A) == Calls.PENDING ? -1 : 0;
    }

    static int setupval(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.closure.upvals[i >>> 23].set(co.stack[base + ((i >>> 6) & 0xFF)]);
        return 0;
    }

    static int settable(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object key = rk(stack, f, base, i >>> 23);
        Object val = rk(stack, f, base, (i >>> 14) & 0x1FF);
        Object t = stack[base + ((i >>> 6) & 0xFF)];
        return rawSet(t, key, val) ? 0 : setIndex(st, f, pc, t, key, val);
    }

    static int newtable(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        co.stack[base + ((i >>> 6) & 0xFF)] = new LuaTable(st.memory, Calls.fb2int(i >>> 23), Calls.fb2int((i >>> 14) & 0x1FF));
        return 0;
    }

    static int self(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object key = rk(stack, f, base, (i >>> 14) & 0x1FF);
        Object t = stack[base + (i >>> 23)];
        stack[ra + 1] = t;
        Object v = selfGet(t, key);
        if (v == FREE_MISS) return indexPast(st, co, f, base, i, pc, t, key);
        if (v == MISS) return index(st, co, f, pc, t, key, ra);
        stack[ra] = v;
        return 0;
    }

    // ADD, SUB, MUL, LT, LE, EQ: small enough for the JVM to inline into the compiled function;
    // the value fast path of that opcode (add2 .. le2 below), then the shared slow path.

    static int add(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return store(st, co, f, base, pc, i, x, y, add2(x, y));
    }

    static int sub(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return store(st, co, f, base, pc, i, x, y, sub2(x, y));
    }

    static int mul(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return store(st, co, f, base, pc, i, x, y, mul2(x, y));
    }

    /** An arithmetic result into R(A), or {@link #metaArith} where the value fast path missed. */
    private static int store(LuaState st, Coroutine co, CallFrame f, int base, int pc, int i, Object x, Object y, Object v) {
        int ra = base + ((i >>> 6) & 0xFF);
        if (v == MISS) return metaArith(st, co, f, pc, i & 0x3F, x, y, ra);
        co.stack[ra] = v;
        return 0;
    }

    static int lt(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return skip(st, f, pc, i, x, y, lt2(x, y));
    }

    static int le(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return skip(st, f, pc, i, x, y, le2(x, y));
    }

    static int eq(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return skip(st, f, pc, i, x, y, eq2(x, y));
    }

    /** A compare's outcome (1 true, 0 false, -1 for {@link #compareSlow}): 1 skips the next instruction, -1 a frame changed. */
    private static int skip(LuaState st, CallFrame f, int pc, int i, Object x, Object y, int res) {
        if (res < 0 && (res = compareSlow(st, f, pc, i & 0x3F, x, y)) < 0) return -1;
        return (res != 0) != (((i >>> 6) & 0xFF) != 0) ? 1 : 0;
    }

    /** ADD .. SHR: the value fast path of the opcode ({@link #arith2}), then {@link Meta#arith}. */
    static int arith(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = rk(stack, f, base, i >>> 23);
        Object y = rk(stack, f, base, (i >>> 14) & 0x1FF);
        return store(st, co, f, base, pc, i, x, y, arith2(i & 0x3F, x, y));
    }

    /** The interpreter's inline integer and float cases of ADD .. SHR, by opcode: the value, or MISS. */
    static Object arith2(int op, Object x, Object y) {
        switch (op) {
            case Ops.OP_ADD: return add2(x, y);
            case Ops.OP_SUB: return sub2(x, y);
            case Ops.OP_MUL: return mul2(x, y);
            case Ops.OP_DIV: return div2(x, y);
            case Ops.OP_MOD: return mod2(x, y);
            case Ops.OP_IDIV: return idiv2(x, y);
            case Ops.OP_BAND: return band2(x, y);
            case Ops.OP_BOR: return bor2(x, y);
            case Ops.OP_BXOR: return bxor2(x, y);
            case Ops.OP_SHL: return shl2(x, y);
            case Ops.OP_SHR: return shr2(x, y);
            default: return MISS; // POW: always Arith
        }
    }

    /** Arithmetic past its fast path (the interpreter's too): R(A) := {@link Meta#arith}. */
    static int metaArith(LuaState st, Coroutine co, CallFrame f, int pc, int op, Object x, Object y, int ra) {
        f.pc = pc;
        Object v = Meta.arith(st, op, x, y, true);
        if (v == Calls.PENDING) return -1;
        co.stack[ra] = v;
        return 0;
    }

    static int unm(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object x = stack[base + (i >>> 23)];
        if (x instanceof Long l) {
            stack[ra] = -l;
            return 0;
        }
        if (x instanceof Double d) {
            stack[ra] = -d;
            return 0;
        }
        return metaArith(st, co, f, pc, i & 0x3F, x, x, ra);
    }

    static int bnot(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object x = stack[base + (i >>> 23)];
        if (x instanceof Long l) {
            stack[ra] = ~l;
            return 0;
        }
        return metaArith(st, co, f, pc, i & 0x3F, x, x, ra);
    }

    /** Lua's falsiness (nil and false), for NOT, TEST and TESTSET in every tier. */
    static boolean falsy(Object x) {
        return x == null || x == Boolean.FALSE || (x instanceof Boolean bx && !bx);
    }

    static int not(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        stack[base + ((i >>> 6) & 0xFF)] = falsy(stack[base + (i >>> 23)]) ? Boolean.TRUE : Boolean.FALSE;
        return 0;
    }

    static int len(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object x = co.stack[base + (i >>> 23)];
        int ra = base + ((i >>> 6) & 0xFF);
        Object v = rawLen(x);
        if (v == MISS) return metaLen(st, co, f, pc, x, ra);
        co.stack[ra] = v;
        return 0;
    }

    /** LEN past its raw case (the interpreter's too): R(A) := {@link Meta#len}. */
    static int metaLen(LuaState st, Coroutine co, CallFrame f, int pc, Object x, int ra) {
        f.pc = pc;
        Object v = Meta.len(st, x, true);
        if (v == Calls.PENDING) return -1;
        co.stack[ra] = v;
        return 0;
    }

    static int concat(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.pc = pc;
        Object v = Meta.concat(st, co, base + (i >>> 23), base + ((i >>> 14) & 0x1FF));
        if (v == Calls.PENDING) return -1;
        co.stack[base + ((i >>> 6) & 0xFF)] = v;
        return 0;
    }

    /** JMP with A != 0: closes upvalues from R(A-1). */
    static void close(Coroutine co, int base, int i) {
        co.closeUpvalues(base + ((i >>> 6) & 0xFF) - 1);
    }

    /** EQ, LT, LE: 1 skips the next instruction. */
    static int compare(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        int op = i & 0x3F;
        return op == Ops.OP_EQ ? eq(st, co, f, base, i, pc)
                : op == Ops.OP_LT ? lt(st, co, f, base, i, pc) : le(st, co, f, base, i, pc);
    }

    /**
     * EQ, LT, LE past their two-integer and two-float cases (the interpreter's too): raw
     * equality of nil, booleans and strings (long compares charged), else the metamethods.
     * 1 true, 0 false, -1 a frame was pushed.
     */
    static int compareSlow(LuaState st, CallFrame f, int pc, int op, Object x, Object y) {
        boolean res;
        if (op == Ops.OP_EQ && (x == y || x == null || y == null || x instanceof Boolean)) {
            res = x == y || (x != null && x.equals(y));
        } else if (op == Ops.OP_EQ && x instanceof LuaString xs) {
            res = y instanceof LuaString ys && xs.equals(ys, st.gas);
        } else {
            f.pc = pc;
            Object v = op == Ops.OP_EQ ? Meta.equals(st, x, y, true)
                    : op == Ops.OP_LT ? Meta.lessThan(st, x, y, true) : Meta.lessEqual(st, x, y, true);
            if (v == Calls.PENDING) return -1;
            res = (Boolean) v;
        }
        return res ? 1 : 0;
    }

    static int test(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        return falsy(co.stack[base + ((i >>> 6) & 0xFF)]) == (((i >>> 14) & 0x1FF) != 0) ? 1 : 0;
    }

    static int testset(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        Object x = stack[base + (i >>> 23)];
        if (falsy(x) == (((i >>> 14) & 0x1FF) != 0)) return 1;
        stack[base + ((i >>> 6) & 0xFF)] = x;
        return 0;
    }

    /** CALL after its safepoint: 0 when a Java function completed in place, -1 when a frame was pushed. */
    static int call(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = i >>> 23;
        if (b != 0) co.top = ra + b;
        f.pc = pc;
        Object fn = co.stack[ra];
        if (fn instanceof LuaClosure ncl) {
            Calls.pushLua(st, co, ncl, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0);
            return -1;
        }
        return Calls.precall(st, co, ra, co.top - ra - 1, ((i >>> 14) & 0x1FF) - 1, 0, f) ? 0 : -1;
    }

    /** TAILCALL's element work, added before its safepoint. */
    static long tailcallGas(Coroutine co, int base, int i) {
        int ra = base + ((i >>> 6) & 0xFF);
        if ((i >>> 23) == 0 && co.top - ra - 1 > Calls.FREE_VALUES) return co.top - ra - 1 - Calls.FREE_VALUES;
        return 0;
    }

    static int tailcall(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = i >>> 23;
        if (b != 0) co.top = ra + b;
        f.pc = pc;
        Object fn = co.stack[ra];
        if (fn instanceof LuaClosure ncl) {
            if (co.openUpvals != null) co.closeUpvalues(base);
            int nargs = co.top - ra - 1;
            int func = f.func;
            co.ensureStack(func + 1 + nargs + ncl.proto.maxStackSize + Coroutine.EXTRA_STACK);
            Object[] stack = co.stack;
            System.arraycopy(stack, ra, stack, func, nargs + 1);
            int flags = f.flags | CallFrame.TAIL;
            int aux = f.aux;
            int nres = f.nresults;
            co.nframes--;
            CallFrame nf = Calls.pushLua(st, co, ncl, func, nargs, nres, flags);
            nf.aux = aux;
            return -1;
        }
        return Calls.precall(st, co, ra, co.top - ra - 1, -1, 0, f) ? 0 : -1;
    }

    /** RETURN's element work, added before its safepoint. */
    static long returnGas(Coroutine co, int base, int i) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = i >>> 23;
        int n = b != 0 ? b - 1 : co.top - ra;
        return n > Calls.FREE_VALUES ? n - Calls.FREE_VALUES : 0;
    }

    /** RETURN after its safepoint: {@link #DONE} when the dispatch loop returns, {@link #RETURNED} to a direct caller. */
    static int ret(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = i >>> 23;
        int n = b != 0 ? b - 1 : co.top - ra;
        if (co.openUpvals != null) co.closeUpvalues(base);
        Object[] stack = co.stack;
        int dst = f.func;
        int want = f.nresults;
        if (want == 1) {
            stack[dst] = n > 0 ? stack[ra] : null;
        } else if (want < 0) {
            System.arraycopy(stack, ra, stack, dst, n);
            co.top = dst + n;
        } else {
            int j = 0;
            for (; j < want && j < n; j++) stack[dst + j] = stack[ra + j];
            for (; j < want; j++) stack[dst + j] = null;
        }
        co.nframes--;
        f.closure = null; // a returned frame keeps nothing alive (threat T19)
        if ((f.flags & CallFrame.SPECIAL) != 0 && Calls.finishSpecial(st, co, f)) return DONE;
        return f == st.tierDirect ? RETURNED : CONTINUE;
    }

    /** FORLOOP before its safepoint: 1 when the loop goes on (jump back). */
    static int forloop(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object o = stack[ra];
        Object v;
        if (o instanceof Long lo) {
            long idx = lo;
            long step = (Long) stack[ra + 2];
            if (!forI(idx, (Long) stack[ra + 1], step)) return 0;
            v = idx + step;
        } else {
            double idx = (Double) o;
            double step = (Double) stack[ra + 2];
            if (!forF(idx, (Double) stack[ra + 1], step)) return 0;
            v = idx + step;
        }
        stack[ra] = v;
        stack[ra + 3] = v;
        return 1;
    }

    /** FORPREP: 1 when the loop does not run (jump past its FORLOOP). */
    static int forprep(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.pc = pc;
        return Calls.forPrep(st, co.stack, base + ((i >>> 6) & 0xFF)) ? 0 : 1;
    }

    /** TFORCALL before its safepoint: the iterator, state and control copied up. */
    static void tforprep(Coroutine co, int base, int i) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        int cb = ra + 3;
        stack[cb + 2] = stack[ra + 2];
        stack[cb + 1] = stack[ra + 1];
        stack[cb] = stack[ra];
        co.top = cb + 3;
    }

    static int tforcall(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.pc = pc;
        return Calls.precall(st, co, base + ((i >>> 6) & 0xFF) + 3, 2, (i >>> 14) & 0x1FF, 0, f) ? 0 : -1;
    }

    /** TFORLOOP before its safepoint: 1 when the loop goes on. */
    static int tforloop(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        Object[] stack = co.stack;
        int ra = base + ((i >>> 6) & 0xFF);
        Object x = stack[ra + 1];
        if (x != null) {
            stack[ra] = x;
            return 1;
        }
        return 0;
    }

    /** SETLIST's element work when B = 0 (values from a multiple result). */
    static long setlistGas(Coroutine co, int base, int i) {
        if ((i >>> 23) != 0) return 0;
        int n = co.top - (base + ((i >>> 6) & 0xFF)) - 1;
        return n > Calls.FREE_VALUES ? n - Calls.FREE_VALUES : 0;
    }

    /** SETLIST with C != 0 (the compiler declines C = 0, which reads an EXTRAARG word). */
    static int setlist(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.pc = pc;
        storeList(co, base, i, (i >>> 14) & 0x1FF);
        return 0;
    }

    /** SETLIST's stores (the interpreter's too), block {@code c} (C, or the EXTRAARG word's). */
    static void storeList(Coroutine co, int base, int i, int c) {
        int ra = base + ((i >>> 6) & 0xFF);
        int n = i >>> 23;
        if (n == 0) n = co.top - ra - 1;
        Object[] stack = co.stack;
        LuaTable t = (LuaTable) stack[ra];
        long last = (long) (c - 1) * OpCode.FIELDS_PER_FLUSH + n;
        if (last <= Integer.MAX_VALUE && last > t.arrayCapacity()) t.ensureArray((int) last);
        long first = (long) (c - 1) * OpCode.FIELDS_PER_FLUSH;
        for (int j = 1; j <= n; j++) t.putInt(first + j, stack[ra + j]);
    }

    static int closure(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        f.pc = pc;
        LuaClosure c = Calls.closure(st, co, f.closure, i >>> 14, base);
        co.stack[base + ((i >>> 6) & 0xFF)] = c;
        return 0;
    }

    private static int varargs(Coroutine co, CallFrame f, int base) {
        int nva = base - f.func - 1 - f.closure.proto.numParams;
        return nva < 0 ? 0 : nva;
    }

    /** VARARG's element work when B = 0. */
    static long varargGas(Coroutine co, CallFrame f, int base, int i) {
        if ((i >>> 23) != 0) return 0;
        int nva = varargs(co, f, base);
        return nva > Calls.FREE_VALUES ? nva - Calls.FREE_VALUES : 0;
    }

    static int vararg(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc) {
        int ra = base + ((i >>> 6) & 0xFF);
        int b = (i >>> 23) - 1;
        int nva = varargs(co, f, base);
        Object[] stack = co.stack;
        if (b < 0) {
            b = nva;
            if (ra + nva + Coroutine.EXTRA_STACK > stack.length) {
                f.pc = pc;
                co.ensureStack(ra + nva + Coroutine.EXTRA_STACK);
                stack = co.stack;
            }
            co.top = ra + nva;
        }
        int src = base - nva;
        for (int j = 0; j < b; j++) stack[ra + j] = j < nva ? stack[src + j] : null;
        return 0;
    }

    // ---- inline fast paths (jit InlineOps): tiny helpers the generated code calls around its own
    // bytecode for MOVE, arithmetic, compares and loops; each is the interpreter's fast path,
    // with the same probes (so the same gas), and MISS where the interpreter goes out of line.

    /** What a fast path answers where the interpreter would take its slow path. */
    static final Object MISS = new Object();
    /**
     * What {@link #selfGet} answers where the receiver is a table with a metatable whose raw read
     * missed within its free probes: {@link #indexPast} goes on at the metatable.
     */
    static final Object FREE_MISS = new Object();

    static Object[] stack(Coroutine co) {
        return co.stack;
    }

    static Object[] constants(CallFrame f) {
        return f.closure.proto.constants;
    }

    static Object upval(CallFrame f, int idx) {
        return f.closure.upvals[idx].get();
    }

    static void setUpval(CallFrame f, int idx, Object v) {
        f.closure.upvals[idx].set(v);
    }

    // Two register operands of unknown type: the interpreter's integer case, then its float case
    // (with a mixed pair converted), else MISS for Meta.arith. Small enough for C2 to inline;
    // kept out of the generated code so a large function's run stays small.

    static Object add2(Object x, Object y) {
        if (x instanceof Long a) {
            if (y instanceof Long b) return a + b;
            if (y instanceof Double b) return (double) a + b;
        } else if (x instanceof Double a) {
            if (y instanceof Double b) return a + b;
            if (y instanceof Long b) return a + (double) b;
        }
        return MISS;
    }

    static Object sub2(Object x, Object y) {
        if (x instanceof Long a) {
            if (y instanceof Long b) return a - b;
            if (y instanceof Double b) return (double) a - b;
        } else if (x instanceof Double a) {
            if (y instanceof Double b) return a - b;
            if (y instanceof Long b) return a - (double) b;
        }
        return MISS;
    }

    static Object mul2(Object x, Object y) {
        if (x instanceof Long a) {
            if (y instanceof Long b) return a * b;
            if (y instanceof Double b) return (double) a * b;
        } else if (x instanceof Double a) {
            if (y instanceof Double b) return a * b;
            if (y instanceof Long b) return a * (double) b;
        }
        return MISS;
    }

    static Object div2(Object x, Object y) {
        if (x instanceof Long a) {
            if (y instanceof Long b) return (double) a / (double) b;
            if (y instanceof Double b) return (double) a / b;
        } else if (x instanceof Double a) {
            if (y instanceof Double b) return a / b;
            if (y instanceof Long b) return a / (double) b;
        }
        return MISS;
    }

    static Object mod2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b && b > 0) return imod(a, b);
        return MISS;
    }

    static Object idiv2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b && b > 0) return Math.floorDiv((long) a, (long) b);
        return MISS;
    }

    static Object band2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a & b;
        return MISS;
    }

    static Object bor2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a | b;
        return MISS;
    }

    static Object bxor2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a ^ b;
        return MISS;
    }

    static Object shl2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b && (b & ~63L) == 0) return a << b;
        return MISS;
    }

    static Object shr2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b && (b & ~63L) == 0) return a >>> b;
        return MISS;
    }

    // EQ, LT, LE of two registers: 1 true, 0 false, -1 for the compare helper (two integers or
    // two floats only, as the interpreter's inline cases)

    static int eq2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a.longValue() == b.longValue() ? 1 : 0;
        if (x instanceof Double a && y instanceof Double b) return a.doubleValue() == b.doubleValue() ? 1 : 0;
        return -1;
    }

    static int lt2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a < b ? 1 : 0;
        if (x instanceof Double a && y instanceof Double b) return a < b ? 1 : 0;
        return -1;
    }

    static int le2(Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a <= b ? 1 : 0;
        if (x instanceof Double a && y instanceof Double b) return a <= b ? 1 : 0;
        return -1;
    }

    /** GETTABLE's raw read: the value, or MISS (not a table, or absent with a metatable). */
    static Object rawGet(Object t, Object key) {
        if (t instanceof LuaTable tt) {
            Object v;
            if (key instanceof Long l) v = tt.getInt(l);
            else if (key instanceof LuaString s) v = tt.getStr(s);
            else v = tt.get(key);
            if (v != null || tt.getMetatable() == null) return v;
        }
        return MISS;
    }

    /** {@link #rawGet} with an integer key known (a constant or a for-loop index). */
    static Object rawGetInt(Object t, long key) {
        if (t instanceof LuaTable tt) {
            Object v = tt.getInt(key);
            if (v != null || tt.getMetatable() == null) return v;
        }
        return MISS;
    }

    /** GETTABUP's raw read (strings through getStr, everything else through get). */
    static Object rawGetUp(Object t, Object key) {
        if (t instanceof LuaTable tt) {
            Object v = key instanceof LuaString s ? tt.getStr(s) : tt.get(key);
            if (v != null || tt.getMetatable() == null) return v;
        }
        return MISS;
    }

    /**
     * SELF's raw read: the value, {@link #MISS} for {@link #indexMiss}, or {@link #FREE_MISS}
     * where the receiver is a table with a metatable and the key is absent within its free probes.
     * Then {@link Meta#index} would look the receiver up again, with the same probes and again
     * charging nothing, before going to the metatable: {@link #indexPast} starts there instead.
     * Where the read goes beyond the free probes, it is the full read and a miss is a MISS (Meta
     * repeats it, charging again, as the interpreter's SELF does).
     */
    static Object selfGet(Object t, Object key) {
        if (t instanceof LuaTable tt && key instanceof LuaString s) {
            Object v = tt.peekStr(s, MISS);
            if (v == MISS) {
                v = tt.getStr(s);
                return v != null || tt.getMetatable() == null ? v : MISS;
            }
            if (v != null || tt.getMetatable() == null) return v;
            return FREE_MISS;
        }
        return MISS;
    }

    /** SELF after a {@link #FREE_MISS}: R(A) := t[key] through {@link Meta#indexPastMiss}. */
    static int indexPast(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc, Object t, Object key) {
        f.pc = pc;
        Object v = Meta.indexPastMiss(st, (LuaTable) t, key, true, VmError.OP_B);
        if (v == Calls.PENDING) return -1;
        co.stack[base + ((i >>> 6) & 0xFF)] = v;
        return 0;
    }

    /** SELF's raw read: string keys only. */
    static Object rawGetStr(Object t, Object key) {
        if (t instanceof LuaTable tt && key instanceof LuaString s) {
            Object v = tt.getStr(s);
            if (v != null || tt.getMetatable() == null) return v;
        }
        return MISS;
    }

    /** SETTABLE's raw write: false where the interpreter calls Meta.setIndex. */
    static boolean rawSet(Object t, Object key, Object val) {
        if (t instanceof LuaTable tt && tt.getMetatable() == null) {
            if (key instanceof Long l) {
                tt.putInt(l, val);
                return true;
            }
            if (key instanceof LuaString s) {
                tt.putStr(s, val);
                return true;
            }
        }
        return false;
    }

    /** SETTABUP's raw write: string keys only. */
    static boolean rawSetStr(Object t, Object key, Object val) {
        if (t instanceof LuaTable tt && tt.getMetatable() == null && key instanceof LuaString s) {
            tt.putStr(s, val);
            return true;
        }
        return false;
    }

    /** LEN of a string or of a table without metatable, else MISS. */
    static Object rawLen(Object x) {
        if (x instanceof LuaString s) return (long) s.length();
        if (x instanceof LuaTable t && t.getMetatable() == null) return t.length();
        return MISS;
    }

    /** GETTABLE, GETTABUP, SELF after a MISS: Meta.index on the values already read (no second probe). */
    static int indexMiss(LuaState st, Coroutine co, CallFrame f, int base, int i, int pc, Object t, Object key) {
        return index(st, co, f, pc, t, key, base + ((i >>> 6) & 0xFF));
    }

    /** SETTABLE, SETTABUP after a miss: Meta.setIndex on the values already read. */
    static int setIndexMiss(LuaState st, CallFrame f, int pc, Object t, Object key, Object val) {
        return setIndex(st, f, pc, t, key, val);
    }

    // ---- frameless runs (jit FramelessEmitter): the value work of instructions on registers held
    // in JVM locals. Each either completes exactly as the interpreter's case (charging what it
    // charges) or answers MISS having charged nothing, so the run can leave at that instruction
    // and the dispatch loop does all of it.

    private static boolean isNum(Object x) {
        return x instanceof Long || x instanceof Double;
    }

    /** GETTABLE, GETTABUP: {@code t[key]} when no metamethod can run and the probe is free; else MISS. */
    static Object fGet(Object t, Object key) {
        if (t instanceof LuaTable tt) {
            Object v;
            if (key instanceof LuaString s) v = tt.peekStr(s, MISS);
            else if (key instanceof Long l) v = tt.peekInt(l, MISS);
            else return MISS;
            if (v != null && v != MISS || v == null && tt.getMetatable() == null) return v;
        }
        return MISS;
    }

    /**
     * SETTABLE, SETTABUP: {@code t[key] = val} when it can run no {@code __newindex}, allocates
     * nothing and probes only the free slots (an existing field, an array slot of a table
     * without metatable); false, nothing done, otherwise.
     */
    static boolean fSet(Object t, Object key, Object val) {
        if (!(t instanceof LuaTable tt)) return false;
        if (key instanceof LuaString s) return tt.replaceStr(s, val);
        if (key instanceof Long l && tt.getMetatable() == null && l - 1 >= 0 && l - 1 < tt.arrayCapacity()) {
            tt.putInt(l, val);
            return true;
        }
        return false;
    }

    /** Arithmetic and bitwise operations on two numbers (the opcode's ordinal); MISS for anything else, n//0 and n%0. */
    static Object fArith(int op, Object x, Object y) {
        if (!isNum(x) || !isNum(y)) return MISS;
        if (Arith.isBitwise(op)) {
            Long a = Arith.toInteger(x);
            Long b = Arith.toInteger(y);
            return a == null || b == null ? MISS : (Object) Arith.intOp(op, a, b);
        }
        if ((op == Ops.OP_MOD || op == Ops.OP_IDIV) && x instanceof Long && y instanceof Long b && b == 0) return MISS;
        return Arith.arith(op, x, y);
    }

    static Object fUnm(Object x) {
        if (x instanceof Long l) return -l;
        if (x instanceof Double d) return -d;
        return MISS;
    }

    static Object fBnot(Object x) {
        Long l = x instanceof Long || x instanceof Double ? Arith.toInteger(x) : null;
        return l == null ? MISS : (Object) ~l;
    }

    /** EQ: 1 equal, 0 not, -1 when an {@code __eq} metamethod may run. */
    static int fEq(LuaState st, Object x, Object y) {
        // numbers first: one boxed NaN in both operands is not equal to itself
        if (isNum(x)) return isNum(y) && Arith.numEquals(x, y) ? 1 : 0;
        if (x == y) return 1;
        if (x == null || y == null) return 0;
        if (x instanceof LuaString sx) return y instanceof LuaString sy && sx.equals(sy, st.gas) ? 1 : 0;
        if (x instanceof Boolean) return x.equals(y) ? 1 : 0;
        if (x instanceof LuaTable tx && y instanceof LuaTable ty) return tx.getMetatable() == null && ty.getMetatable() == null ? 0 : -1;
        if (x instanceof dev.luavm.value.Userdata && y instanceof dev.luavm.value.Userdata) return -1;
        return 0;
    }

    /** LT: 1 true, 0 false, -1 for the dispatch loop (metamethods, errors). */
    static int fLt(LuaState st, Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a < b ? 1 : 0;
        if (x instanceof Double a && y instanceof Double b) return a < b ? 1 : 0;
        if (isNum(x) && isNum(y)) return Arith.lt(x, y) ? 1 : 0;
        if (x instanceof LuaString sx && y instanceof LuaString sy) return sx.compareTo(sy, st.gas) < 0 ? 1 : 0;
        return -1;
    }

    /** LE: 1 true, 0 false, -1 for the dispatch loop. */
    static int fLe(LuaState st, Object x, Object y) {
        if (x instanceof Long a && y instanceof Long b) return a <= b ? 1 : 0;
        if (x instanceof Double a && y instanceof Double b) return a <= b ? 1 : 0;
        if (isNum(x) && isNum(y)) return Arith.le(x, y) ? 1 : 0;
        if (x instanceof LuaString sx && y instanceof LuaString sy) return sx.compareTo(sy, st.gas) <= 0 ? 1 : 0;
        return -1;
    }

    /** TEST, NOT: Lua's truth. */
    static boolean truthy(Object x) {
        return !falsy(x);
    }

    static Object not(Object x) {
        return falsy(x) ? Boolean.TRUE : Boolean.FALSE;
    }

    /**
     * FORPREP on three numbers: {init, limit, step, R(A+3), run} as {@link Calls#forPrep} leaves
     * them, or null (strings to parse, non-numbers: the dispatch loop's path).
     */
    static Object[] fForPrep(LuaState st, Object init, Object limit, Object step) {
        if (!isNum(init) || !isNum(limit) || !isNum(step)) return null;
        Object[] s = {init, limit, step, null, null};
        s[4] = Calls.forPrep(st, s, 0) ? Boolean.TRUE : Boolean.FALSE;
        return s;
    }

    /** FORLOOP: the next value of the control variable, or null when the loop ends (as {@link #forloop}). */
    static Object fForLoop(Object idx, Object limit, Object step) {
        if (idx instanceof Long lo) {
            long i = lo;
            long stp = (Long) step;
            return forI(i, (Long) limit, stp) ? (Object) (i + stp) : null;
        }
        double i = (Double) idx;
        double stp = (Double) step;
        return forF(i, (Double) limit, stp) ? (Object) (i + stp) : null;
    }

    /** A compiled run's safepoint inside a frameless run: charges the counter; answers the new room. */
    static long fFlush(LuaState st, long gas) {
        return flush(st, gas);
    }

    // ---- pure math builtins in typed regions (jit RegionEmitter): a CALL of one number for one
    // result whose function is a builtin with a float function (math.sqrt, ...) computes it
    // without the call. The call would charge nothing beyond the instruction's gas and write
    // only its result and co.top; it would also run the finalizers a memory walk queued, so
    // the typed form is refused while some wait.

    /** The function at {@code co.stack[idx]} has a float function for this argument, and no finalizer waits. */
    static boolean isMathF(LuaState st, Coroutine co, int idx, boolean intArg) {
        if (!(co.stack[idx] instanceof dev.luavm.value.Builtin b) || b.floatFunction == null || intArg && !b.floatOfInteger) {
            return false;
        }
        dev.luavm.meter.Collector gc = st.memory.collector();
        return gc == null || !gc.hasPending();
    }

    /** The call of that builtin on {@code x}, as {@link Calls#callBuiltin} leaves it (its top) but for the result's boxing. */
    static double mathF(Coroutine co, int idx, double x) {
        co.top = idx + 2;
        return ((dev.luavm.value.Builtin) co.stack[idx]).floatFunction.applyAsDouble(x);
    }

    // ---- typed regions (dev.luavm.jit.TypedRegions): numbers unboxed in JVM locals inside
    // loops, each run by a loop method of the generated class (pcOut hands it run's pc); these
    // read, test and write the boxed registers at the region's edges, read and write tables
    // where no metamethod can run and nothing is allocated, and do the few operations whose
    // exact Lua semantics live in Arith.

    static boolean isI(Coroutine co, int idx) {
        return co.stack[idx] instanceof Long;
    }

    static boolean isF(Coroutine co, int idx) {
        return co.stack[idx] instanceof Double;
    }

    static boolean isN(Coroutine co, int idx) {
        Object v = co.stack[idx];
        return v instanceof Long || v instanceof Double;
    }

    static long geti(Coroutine co, int idx) {
        return (Long) co.stack[idx];
    }

    static double getf(Coroutine co, int idx) {
        return (Double) co.stack[idx];
    }

    /** A Long or Double register as a float (int operands of float arithmetic are converted). */
    static double getn(Coroutine co, int idx) {
        Object v = co.stack[idx];
        return v instanceof Long l ? (double) l : (Double) v;
    }

    static void seti(Coroutine co, int idx, long v) {
        co.stack[idx] = v;
    }

    static void setf(Coroutine co, int idx, double v) {
        co.stack[idx] = v;
    }

    /** m % n for n != 0 (the region leaves for n == 0: the interpreter raises the error). */
    static long imod(long m, long n) {
        return Arith.imod(m, n);
    }

    /** m // n for n != 0. */
    static long idiv(long m, long n) {
        return Arith.idiv(m, n);
    }

    static long shl(long x, long y) {
        return Arith.shiftLeft(x, y);
    }

    static long shr(long x, long y) {
        return Arith.shiftLeft(x, -y);
    }

    static double fmod(double a, double b) {
        return Arith.fmod(a, b);
    }

    static double fidiv(double a, double b) {
        return Math.floor(a / b);
    }

    static double pow(double a, double b) {
        return Arith.pow(a, b);
    }

    static boolean ltIF(long i, double f) {
        return Arith.ltIntFloat(i, f);
    }

    static boolean leIF(long i, double f) {
        return Arith.leIntFloat(i, f);
    }

    static boolean ltFI(double f, long i) {
        return Arith.ltFloatInt(f, i);
    }

    static boolean leFI(double f, long i) {
        return Arith.leFloatInt(f, i);
    }

    static boolean eqIF(long i, double f) {
        Long l = dev.luavm.value.LuaNumbers.floatToInteger(f);
        return l != null && l == i;
    }

    static boolean eqFI(double f, long i) {
        return eqIF(i, f);
    }

    /** The integer FORLOOP's test (as {@link #forloop}). */
    static boolean forI(long idx, long limit, long step) {
        return step > 0 ? Long.compareUnsigned(limit - idx, step) >= 0
                : step < 0 ? Long.compareUnsigned(idx - limit, -step) >= 0 : true;
    }

    /** The float FORLOOP's test (as {@link #forloop}). */
    static boolean forF(double idx, double limit, double step) {
        double n = idx + step;
        return 0 < step ? n <= limit : limit <= n;
    }

    /**
     * GETTABLE with an integer key when it cannot call a metamethod: R(dst) := t[key]; false
     * (nothing done) when the interpreter's path is needed.
     */
    static boolean getI(Coroutine co, int dst, int t, long key) {
        Object[] stack = co.stack;
        Object v = rawGetInt(stack[t], key);
        if (v == MISS) return false;
        stack[dst] = v;
        return true;
    }

    /** GETTABLE with constant string key {@code k} when it cannot call a metamethod (as {@link #gettable}). */
    static boolean getS(Coroutine co, CallFrame f, int dst, int t, int k) {
        Object[] stack = co.stack;
        Object v = rawGetStr(stack[t], f.closure.proto.constants[k]);
        if (v == MISS) return false;
        stack[dst] = v;
        return true;
    }

    /**
     * SETTABLE with constant string key {@code k} over a field that holds a value: no
     * __newindex can run and nothing is allocated; false (nothing done) otherwise.
     */
    static boolean setS(Coroutine co, int t, CallFrame f, int k, Object v) {
        return co.stack[t] instanceof LuaTable tt && tt.replaceStr((LuaString) f.closure.proto.constants[k], v);
    }

    /** GETTABUP with an integer key when it cannot call a metamethod (as {@link #gettabup}). */
    static boolean getUpI(Coroutine co, CallFrame f, int dst, int up, long key) {
        Object v = rawGetInt(f.closure.upvals[up].get(), key);
        if (v == MISS) return false;
        co.stack[dst] = v;
        return true;
    }

    /** GETTABUP with constant string key {@code k} when it cannot call a metamethod (as {@link #gettabup}). */
    static boolean getUpS(Coroutine co, CallFrame f, int dst, int up, int k) {
        Object v = rawGetStr(f.closure.upvals[up].get(), f.closure.proto.constants[k]);
        if (v == MISS) return false;
        co.stack[dst] = v;
        return true;
    }

    /** The array slot of t[key] exists and t has no metatable: a store there allocates nothing. */
    private static LuaTable arraySlot(Object t, long key) {
        if (t instanceof LuaTable tt && tt.getMetatable() == null && key - 1 >= 0 && key - 1 < tt.arrayCapacity()) {
            return tt;
        }
        return null;
    }

    /**
     * SETTABLE t[key] = v into an existing array slot; false (nothing done) otherwise. The
     * region passes any value boxed (an unboxed number, a register's, a constant).
     */
    static boolean setI(Coroutine co, int t, long key, Object v) {
        LuaTable tt = arraySlot(co.stack[t], key);
        if (tt == null) return false;
        tt.putInt(key, v);
        return true;
    }
}
