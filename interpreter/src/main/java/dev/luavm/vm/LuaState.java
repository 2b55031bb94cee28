package dev.luavm.vm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * One sandbox: everything a script can reach or change lives here and nowhere else (VM rule 4).
 * Two states share nothing mutable; builtins and prototypes, which are immutable, may be shared.
 *
 * <h2>Map</h2>
 * <ul>
 *   <li>{@link Interpreter} runs bytecode; {@link Calls} shapes the frame stack (calls, returns,
 *       pcall markers, coroutine switches, error unwinding); {@link Meta} and {@link Arith} are
 *       the slow paths; {@link DebugInfo} names variables and writes tracebacks.</li>
 *   <li>{@link Coroutine} holds a register stack and a frame stack; the main coroutine runs
 *       calls coming from Java.</li>
 *   <li>{@link MemoryMeter} and {@link GasMeter} are the sandbox's budgets; exhausting gas,
 *       passing the deadline or {@link #cancel()} end the run with {@link LuaTermination}.</li>
 * </ul>
 *
 * <h2>Use</h2>
 * <pre>{@code
 * LuaState L = new LuaState(new MemoryMeter(64 << 20), new GasMeter(100_000_000), host, Settings.defaults());
 * L.install(new BaseLibrary());
 * LuaClosure main = L.load(LuaCompiler.compile(src, "=script"));
 * Object[] results = L.call(main);
 * }</pre>
 * Not thread-safe: one thread runs a state at a time; only {@link #cancel()} may be called
 * from another thread.
 */
public final class LuaState {
    /** Limits of a state. */
    public record Settings(int maxCallDepth, int maxStackSlots) {
        public Settings {
            if (maxCallDepth < 10) throw new IllegalArgumentException("maxCallDepth too small: " + maxCallDepth);
            if (maxStackSlots < 1000) throw new IllegalArgumentException("maxStackSlots too small: " + maxStackSlots);
        }

        /** 200,000 Lua frames; 8M stack slots per coroutine. */
        public static Settings defaults() {
            return new Settings(200_000, 8_000_000);
        }

        public Settings withMaxCallDepth(int depth) {
            return new Settings(depth, maxStackSlots);
        }
    }

    /** registry key of the globals; immutable, so one instance serves every state */
    private static final LuaString G = LuaString.of("_G");

    /** PUC's error when C calls nest too deeply; also ours when the host thread's Java stack runs out first */
    static final String C_STACK_OVERFLOW = "C stack overflow";

    /** frames an xpcall handler may use beyond the depth limit */
    static final int HANDLER_EXTRA_FRAMES = 64;

    final MemoryMeter memory;
    final GasMeter gas;
    final HostEnvironment host;
    final int maxCallDepth;
    final int maxStackSlots;
    /** the global table; replaced only by a restore (VmSnapshots), before any script runs */
    LuaTable globals;
    LuaTable registry;
    LuaTable stringMeta;
    LuaTable numberMeta;
    LuaTable booleanMeta;
    LuaTable nilMeta;
    LuaTable functionMeta;
    LuaTable threadMeta;
    final Coroutine mainCoroutine;
    /** the running coroutine */
    Coroutine current;
    /** nested dispatch loops (Java re-entries), capped at {@link Calls#MAX_C_CALLS} */
    int javaDepth;
    /** calls from Java into Lua in progress: the host's own (1 during a run) and library re-entries above it */
    int javaEntries;
    /** takes the snapshot of a run pausing at a host call (see {@link RunPaused}); null: pausing is refused */
    java.util.function.Consumer<RunPaused> pauseHandler;
    /** the builtin running on top, if any (for tracebacks of errors it raises) */
    Builtin runningBuiltin;
    /** while a builtin xpcall handler runs: the builtin that raised (shown atop its traceback) */
    Builtin handlerRaiser;
    /** compiled tier: where this state's closures find compiled code (null: interpreted only) */
    Tiering tiering;
    /** a closure's {@code heat} (entries) at which it is compiled; MAX_VALUE: never */
    int tierAt = Integer.MAX_VALUE;
    /**
     * compiled tier: the heat cell of the first main prototype this state bound (most sandboxes run
     * one chunk: no map and no identity hash for it), and those of the others (weak, made on first
     * need: a dropped chunk's go with it)
     */
    private java.lang.ref.WeakReference<dev.luavm.bytecode.Prototype> firstRoot;
    private dev.luavm.value.Heat firstHeat;
    private java.util.Map<dev.luavm.bytecode.Prototype, dev.luavm.value.Heat> heatRoots;
    /** what the installed bundles registered for snapshots ({@code InstallContext.participate}) */
    private final java.util.List<dev.luavm.lib.SnapshotParticipant> participants = new java.util.ArrayList<>();
    /** instructions this sandbox may still have compiled ({@link Tiering#SANDBOX_BUDGET}) */
    int tierBudget = Tiering.SANDBOX_BUDGET;
    /** the dispatch loop's gas counter and room, handed to and back from compiled code */
    long tierGas, tierRoom;
    /** compiled tier: the frame count a bailing frameless run leaves for its nest's starter (TierSupport.landBail) */
    int tierBailTop;
    /** compiled runs nested on the Java stack by direct calls, capped at {@link TierSupport#MAX_NESTED} */
    int tierDepth;
    /** the frame a compiled caller is running directly (its RETURN resumes that caller), else null */
    CallFrame tierDirect;

    public LuaState(MemoryMeter memory, GasMeter gas, HostEnvironment host, Settings settings) {
        this.memory = memory;
        this.gas = gas;
        this.host = host;
        this.maxCallDepth = settings.maxCallDepth();
        this.maxStackSlots = settings.maxStackSlots();
        gas.setClock(host::nanoTime);
        this.globals = new LuaTable(memory);
        this.registry = new LuaTable(memory);
        registry.put(G, globals);
        this.mainCoroutine = new Coroutine(this, null, Coroutine.INITIAL_STACK);
        mainCoroutine.status = Coroutine.Status.RUNNING;
        mainCoroutine.started = true;
        this.current = mainCoroutine;
    }

    // ---- setup

    /** Runs this state's hot functions through {@code t}'s compiled tier (see {@link Tiering}). */
    public void tiering(Tiering t) {
        this.tiering = t;
        this.tierAt = t == null ? Integer.MAX_VALUE : t.threshold();
    }

    /** Installs a capability bundle. */
    public void install(Library lib) {
        install(lib, dev.luavm.Capabilities.none());
    }

    /** Installs a capability bundle of a sandbox granted {@code caps}. */
    public void install(Library lib, dev.luavm.Capabilities caps) {
        if (installContext == null || installCaps != caps) {
            installContext = installContext(caps);
            installCaps = caps;
        }
        lib.install(installContext);
    }

    /** the context of the latest {@link #install} and its capabilities: a sandbox installs all its bundles with one */
    private InstallContext installContext;
    private dev.luavm.Capabilities installCaps;

    private InstallContext installContext(dev.luavm.Capabilities caps) {
        return new InstallContext() {
            @Override
            public dev.luavm.Capabilities capabilities() {
                return caps;
            }

            @Override
            public LuaTable globals() {
                return globals;
            }

            @Override
            public LuaTable registry() {
                return registry;
            }

            @Override
            public MemoryMeter memory() {
                return memory;
            }

            @Override
            public HostEnvironment host() {
                return host;
            }

            @Override
            public void setStringMetatable(LuaTable mt) {
                stringMeta = mt;
            }

            @Override
            public Builtin intrinsic(Intrinsic which) {
                return Intrinsics.get(which);
            }

            @Override
            public void participate(dev.luavm.lib.SnapshotParticipant participant) {
                addSnapshotParticipant(participant);
            }
        };
    }

    /**
     * Registers state kept outside the Lua heap that snapshots carry: a bundle's
     * ({@code InstallContext.participate}) or the sandbox's own (its file system's session).
     */
    public void addSnapshotParticipant(dev.luavm.lib.SnapshotParticipant participant) {
        for (dev.luavm.lib.SnapshotParticipant p : participants) {
            if (p.snapshotName().equals(participant.snapshotName())) {
                throw new IllegalStateException("two snapshot participants named '" + p.snapshotName() + "'");
            }
        }
        participants.add(participant);
    }

    /** State the installed bundles keep outside the Lua heap that snapshots carry, in registration order. */
    public java.util.List<dev.luavm.lib.SnapshotParticipant> snapshotParticipants() {
        return java.util.Collections.unmodifiableList(participants);
    }

    /** The VM-implemented builtin for {@code which}. */
    public static Builtin intrinsic(Intrinsic which) {
        return Intrinsics.get(which);
    }

    /** A main closure for {@code p} whose {@code _ENV} (upvalue 0) is the global table. */
    public LuaClosure load(Prototype p) {
        return bind(p, globals);
    }

    /** A main closure for {@code p} whose {@code _ENV} is {@code env}. */
    public LuaClosure bind(Prototype p, Object env) {
        return Intrinsics.bind(this, p, env);
    }

    /** This state's heat cell for main prototype {@code p} (one per prototype: each run of a cached chunk heats the same cells). */
    dev.luavm.value.Heat heatOf(dev.luavm.bytecode.Prototype p) {
        java.lang.ref.WeakReference<dev.luavm.bytecode.Prototype> first = firstRoot;
        if (first == null) {
            firstRoot = new java.lang.ref.WeakReference<>(p);
            return firstHeat = new dev.luavm.value.Heat();
        }
        if (first.get() == p) return firstHeat;
        if (heatRoots == null) heatRoots = new java.util.WeakHashMap<>();
        return heatRoots.computeIfAbsent(p, q -> new dev.luavm.value.Heat());
    }

    /** Compiles {@code source} (text only; its work and heap charged to this state) and binds it to the globals. */
    public LuaClosure load(byte[] source, String chunkName) {
        checkAlive();
        if (source.length > 0 && source[0] == 27) {
            throw LuaError.of("attempt to load a binary chunk (mode is 't')");
        }
        Prototype p = LuaCompiler.compile(source, chunkName, new MeteredCompile(gas, memory));
        p.attachChunkText(source);
        return load(p);
    }

    // ---- running

    /**
     * Calls a Lua value from the host. Errors come out as {@link LuaError} carrying the Lua
     * value and, when nothing in Lua caught them, a Lua traceback; gas, time, cancellation and
     * output limits come out as {@link LuaTermination}, after which the state runs no more Lua
     * until the gas meter starts a new run ({@link GasMeter#startRun()}; never after GAS).
     */
    public Object[] call(Object fn, Object... args) {
        checkAlive();
        if (current != mainCoroutine || javaDepth != 0) {
            throw new IllegalStateException("LuaState.call is not re-entrant; use CallContext.call from builtins");
        }
        // tables charge their probe and rehash work through the memory meter, during runs only:
        // the host reading globals between runs (or after a termination) is not the script's work
        memory.linkGas(gas);
        try {
            return callJava(fn, args);
        } catch (LuaTermination t) {
            resetAfterTermination();
            throw t;
        } catch (RunPaused p) {
            // the snapshot was taken as the signal left the dispatch loop; here the run just ends
            resetAfterTermination();
            throw p;
        } catch (StackOverflowError so) {
            // the host thread's stack ran out outside any nested loop: a Lua error, never a crash
            abandonNested(mainCoroutine, 0, 0);
            throw LuaError.of(C_STACK_OVERFLOW);
        } finally {
            memory.linkGas(null);
            if (gas.terminated() == null) resetAfterError();
        }
    }

    private void checkAlive() {
        if (gas.terminated() != null) throw new LuaTermination(gas.terminated());
    }

    /**
     * After a run ended by a limit: the coroutines it left running or normal can never go on,
     * so they end as after an error (dead, upvalues closed); the main coroutine is emptied, its
     * open upvalues closed (closures the run stored keep their values), ready for the next run.
     */
    private void resetAfterTermination() {
        for (Coroutine co = current; co != null && co != mainCoroutine; ) {
            Coroutine r = co.resumer;
            co.die();
            co = r;
        }
        current = mainCoroutine;
        javaDepth = 0;
        runningBuiltin = null;
        handlerRaiser = null;
        mainCoroutine.closeUpvalues(0);
        mainCoroutine.popFrames(0);
        mainCoroutine.status = Coroutine.Status.RUNNING;
        mainCoroutine.resumeDepth = 0;
        mainCoroutine.metaDepth = 0;
        mainCoroutine.top = 0;
        mainCoroutine.nny = 0;
    }

    /**
     * Whether the builtin running now for {@code co} may pause the run: it was called by the VM
     * for Lua code (no library function, metamethod called from Java or finalizer is between it
     * and the host's call, whose state would live on the Java stack), and the host takes
     * snapshots of paused runs.
     */
    boolean canPause(Coroutine co) {
        return pauseHandler != null && javaEntries == 1 && current == co && !(co == mainCoroutine && co.nframes == 0);
    }

    /** The dispatch loop stopped at a paused call: the handler takes the snapshot (its failure is kept in {@code p}). */
    void paused(RunPaused p) {
        try {
            pauseHandler.accept(p);
        } catch (RuntimeException e) {
            p.failure = e;
        }
    }

    /**
     * Continues a run restored from a snapshot of a paused host call, as if the call had
     * returned {@code results} (or raised {@code error}, when not null), until the host's call
     * that the run began with returns; its results, as {@link #call} gives them. Gas, time and
     * output limits are the gas meter's run as the caller started it.
     */
    public Object[] continuePaused(Object[] results, LuaError error) {
        checkAlive();
        Coroutine main = mainCoroutine;
        CallFrame m = current.topFrame();
        if (m == null || m.kind != CallFrame.SUSPEND || main.nframes == 0) {
            throw new IllegalStateException("no paused host call to continue");
        }
        m.handler = new Calls.PausedAnswer(results, error);
        int func = main.frames[0].func; // the host's call: its results come back from here
        memory.linkGas(gas);
        javaDepth = 1;
        javaEntries = 1;
        try {
            Interpreter.execute(this, null);
            return results(main, func);
        } catch (LuaTermination t) {
            resetAfterTermination();
            throw t;
        } catch (RunPaused p) {
            resetAfterTermination();
            throw p;
        } catch (StackOverflowError so) {
            abandonNested(main, func, 0);
            throw LuaError.of(C_STACK_OVERFLOW);
        } finally {
            // what the host call's runJava and callJava undo when they return
            javaDepth = 0;
            javaEntries = 0;
            if (main.nny > 0) main.nny--;
            main.metaDepth = 0;
            runningBuiltin = null;
            main.top = func;
            memory.linkGas(null);
            if (gas.terminated() == null) resetAfterError();
            LiveRoots.clearIdleStack(this);
        }
    }

    /** The error a paused host call raises when the host resumes it with one: positioned at the calling Lua code. */
    public LuaError pausedCallError(String message) {
        Coroutine co = current;
        CallFrame caller = null;
        for (int i = co.nframes - 2; i >= 0; i--) {
            if (co.frames[i].kind == CallFrame.LUA) {
                caller = co.frames[i];
                break;
            }
        }
        return new LuaError(LuaString.ofLatin1(DebugInfo.where(caller) + message));
    }

    private void resetAfterError() {
        if (javaDepth == 0) {
            current = mainCoroutine;
            mainCoroutine.nny = 0;
        }
    }

    /**
     * A call from Java into Lua (library re-entry): a nested dispatch loop, counted against
     * the C-call cap, on the running coroutine (which cannot yield while it lasts).
     */
    Object[] callJava(Object fn, Object... args) {
        Coroutine co = current;
        int n = args.length;
        int func = pushCall(co, fn, n);
        System.arraycopy(args, 0, co.stack, func + 1, n);
        javaEntries++;
        try {
            runJava(co, fn, func, n);
            return results(co, func);
        } finally {
            javaEntries--;
            co.top = func;
        }
    }

    /**
     * {@link #callJava} for a call on an event (a metamethod, a message handler, a finalizer): a
     * plain builtin so called sees {@link Ctx#calledImplicitly()}.
     */
    Object[] callJavaImplicitly(Object fn, Object... args) {
        if (!(fn instanceof Builtin b) || b instanceof VmBuiltin) return callJava(fn, args);
        Coroutine co = current;
        int n = args.length;
        int func = pushCall(co, fn, n);
        System.arraycopy(args, 0, co.stack, func + 1, n);
        javaEntries++;
        try {
            Calls.callBuiltin(this, co, b, func, n, -1, null, true);
            return results(co, func);
        } finally {
            javaEntries--;
            co.top = func;
        }
    }

    /**
     * {@code fn(a, b)} truncated to one result, like {@link #callJava} but with no argument or
     * result array (table.sort comparators, called once per comparison).
     */
    Object callJava1(Object fn, Object a, Object b) {
        Coroutine co = current;
        int func = pushCall(co, fn, 2);
        Object[] s = co.stack;
        s[func + 1] = a;
        s[func + 2] = b;
        javaEntries++;
        try {
            TierSupport t;
            if (fn instanceof LuaClosure cl && (t = TierSupport.framelessJava(this, co, cl, func, 2)) != null) {
                return runFrameless(co, t, cl, func, a, b);
            }
            runJava(co, fn, func, 2);
            return co.top > func ? co.stack[func] : null;
        } finally {
            javaEntries--;
            co.top = func;
        }
    }

    /**
     * {@link #callJava1}'s call of a compiled closure's frameless entry (TierSupport, "Frameless
     * calls"): the frame the call would push, its results and its gas, without the nested loop;
     * if the run bails (its frames built from there up, the counter handed back), the nested loop
     * of {@link #runJava} takes over with the same bookkeeping.
     */
    private Object runFrameless(Coroutine co, TierSupport t, LuaClosure cl, int func, Object a, Object b) {
        co.top = func + 3;
        int savedFrames = co.nframes;
        Object r;
        try {
            r = t.call2(this, co, cl, savedFrames, func, TierSupport.ctl(tierDepth + 1, CallFrame.FRESH, -1), 0,
                    gas.room(), a, b);
        } catch (StackOverflowError so) {
            // as runJava: an ordinary Lua error here, with the counter the run deposited charged
            gas.charge(TierSupport.gasIn(this));
            throw LuaError.of(C_STACK_OVERFLOW);
        }
        long g = TierSupport.gasIn(this);
        if (r != TierSupport.BAILED) {
            gas.charge(g);
            if (r == TierSupport.NO_VALUES) return null;
            co.stack[func] = r; // where RETURN leaves it (the slot is live for the walk until overwritten)
            return r;
        }
        TierSupport.landBail(this, co);
        int savedMetaDepth = co.metaDepth;
        Builtin savedRunning = runningBuiltin;
        runningBuiltin = null;
        javaDepth++;
        co.nny++;
        try {
            Interpreter.execute(this, null, g, tierRoom);
        } catch (StackOverflowError so) {
            abandonNested(co, func, savedFrames);
            throw LuaError.of(C_STACK_OVERFLOW);
        } finally {
            javaDepth--;
            co.nny--;
            co.metaDepth = savedMetaDepth;
            runningBuiltin = savedRunning;
        }
        return co.top > func ? co.stack[func] : null;
    }

    /** Checks the C-call cap (Lua functions only), makes room and puts {@code fn} at top; returns its slot. */
    private int pushCall(Coroutine co, Object fn, int n) {
        if (javaDepth >= Calls.MAX_C_CALLS && !(fn instanceof Builtin b && !(b instanceof VmBuiltin))) {
            throw LuaError.of(C_STACK_OVERFLOW);
        }
        int func = co.top;
        co.ensureStack(func + n + 1 + Coroutine.MIN_STACK);
        co.stack[func] = fn;
        return func;
    }

    /** Runs {@code fn} placed at {@code func} with its {@code n} arguments after it; results end at {@code func..top}. */
    private void runJava(Coroutine co, Object fn, int func, int n) {
        if (fn instanceof Builtin b && !(b instanceof VmBuiltin)) {
            Calls.callBuiltin(this, co, b, func, n, -1, null);
            return;
        }
        co.top = func + 1 + n;
        int savedFrames = co.nframes;
        int savedMetaDepth = co.metaDepth;
        Builtin savedRunning = runningBuiltin;
        runningBuiltin = null;
        javaDepth++;
        co.nny++;
        try {
            LuaError pending = null;
            boolean done = false;
            try {
                done = Calls.precall(this, co, func, n, -1, CallFrame.FRESH, null);
            } catch (LuaError e) {
                if (current == co && co.nframes == savedFrames) {
                    throw e instanceof VmError ve ? ve.plain() : e;
                }
                pending = e;
            }
            if (!done) {
                if (pending == null) ReEntry.run(this, co); // compiled callee: its run without a nested loop
                else Interpreter.execute(this, pending);
            }
        } catch (StackOverflowError so) {
            // the Java stack ran out while the nested loop was unwinding an error: drop what it
            // left above this call and raise the overflow here, one re-entry lower
            abandonNested(co, func, savedFrames);
            throw LuaError.of(C_STACK_OVERFLOW);
        } finally {
            javaDepth--;
            co.nny--;
            co.metaDepth = savedMetaDepth;
            runningBuiltin = savedRunning;
        }
    }

    /**
     * Puts the frame stack back as it was when a nested loop started at {@code func} with
     * {@code savedFrames} frames on {@code co}: coroutines resumed inside it die (an error left
     * them), {@code co} runs again, its frames above the call are cut.
     */
    private void abandonNested(Coroutine co, int func, int savedFrames) {
        for (Coroutine x = current; x != co && x != null; ) {
            Coroutine next = x.resumer;
            x.closeUpvalues(0);
            x.nframes = 0;
            x.metaDepth = 0;
            x.top = 0;
            x.nny = 0;
            x.resumer = null;
            x.status = Coroutine.Status.DEAD;
            x = next;
        }
        current = co;
        co.status = Coroutine.Status.RUNNING;
        co.closeUpvalues(func);
        co.nframes = savedFrames;
        co.top = func;
    }

    private static Object[] results(Coroutine co, int func) {
        int nres = co.top - func;
        Object[] out = new Object[nres];
        System.arraycopy(co.stack, func, out, 0, nres);
        return out;
    }

    // ---- live-heap walk (for MemoryMeter's LiveSizer, see dev.luavm.meter.LiveHeapWalker)

    /** Pushes every root of this sandbox (see {@link LiveRoots#push}). */
    public void pushRoots(java.util.function.Consumer<Object> push) {
        LiveRoots.push(this, push);
    }

    /** Sizes a VM object the generic walker does not know (see {@link LiveRoots#visit}); -1 for anything else. */
    public long visitVmObject(Object o, java.util.function.Consumer<Object> push) {
        return LiveRoots.visit(o, push);
    }

    // ---- control

    /** Stops the run at its next safepoint (callable from any thread). */
    public void cancel() {
        gas.cancel();
    }

    /** Ends the run with TIME once the host clock passes {@code deadlineNanos}. */
    public void setDeadline(long deadlineNanos) {
        gas.setDeadline(deadlineNanos);
    }

    public long gasUsed() {
        return gas.used();
    }

    // ---- accessors

    public LuaTable globals() {
        return globals;
    }

    public LuaTable registry() {
        return registry;
    }

    public MemoryMeter memory() {
        return memory;
    }

    public GasMeter gas() {
        return gas;
    }

    public HostEnvironment host() {
        return host;
    }

    public Coroutine mainCoroutine() {
        return mainCoroutine;
    }

    /** The per-sandbox metatable of strings (set by the string library). */
    public LuaTable stringMetatable() {
        return stringMeta;
    }

    /** Formats a value as tostring would, without running any metamethod (for host messages). */
    public static String describe(Object v) {
        if (v instanceof LuaString s) return s.toString();
        if (v == null) return "nil";
        if (v instanceof Boolean || v instanceof Long) return String.valueOf(v);
        if (v instanceof Double d) return dev.luavm.value.LuaNumbers.toString(d);
        return dev.luavm.value.LuaValues.typeName(v);
    }
}
