package dev.luavm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.CompileMeter;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.Library;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LiveRoots;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.LuaTermination;
import dev.luavm.vm.MeteredCompile;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The API's one adapter to the VM ({@link LuaState}): everything {@link Sandbox} asks of the
 * interpreter goes through here, and the VM's signals become the API's exceptions here.
 *
 * <p>The VM's {@link GasMeter} is per state. Gas is a budget for the sandbox's whole life: once
 * a run has ended by gas, every later call ends the same way at once. Time, output and
 * cancellation end one run: {@link #startRun} clears them, sets the deadline afresh and the
 * next run starts clean on the state the script left.
 */
final class Engine {
    private final LuaState state;
    private final GasMeter gas;
    private final HostEnvironment env;

    private static final Duration MAX_NANOS = Duration.ofNanos(Long.MAX_VALUE);

    private long gasAtRunStart;

    Engine(MemoryMeter meter, HostEnvironment env, Limits limits) {
        this.env = env;
        this.gas = new GasMeter(limits.gas());
        this.state = new LuaState(meter, gas, env, LuaState.Settings.defaults().withMaxCallDepth(limits.callDepth()));
    }

    void tiering(dev.luavm.vm.Tiering t) {
        state.tiering(t);
    }

    LuaTable globals() {
        return state.globals();
    }

    /** The VM state itself, for snapshots (which read and restore it whole). */
    LuaState state() {
        return state;
    }

    void install(Library lib, Capabilities caps) {
        state.install(lib, caps);
    }

    void pushRoots(Consumer<Object> push) {
        LiveRoots.push(state, push);
    }

    long visitVmObject(Object o, Consumer<Object> push) {
        return LiveRoots.visit(state, o, push);
    }

    /** A closure of {@code p}; the code counts as the sandbox's heap from here on (charged first). */
    Object load(Prototype p) {
        state.memory().charge(dev.luavm.vm.Load.codeBytes(p));
        return state.load(p);
    }

    /** Charges the byte rule for {@code n} bytes of host work (a file's bytes read by the VFS). */
    void chargeBytes(long n) {
        if (n > 0) gas.charge(GasMeter.byteWork(n));
    }

    /** A safepoint outside the dispatch loop: ends the run if it was cancelled, timed out or out of gas. */
    void poll() {
        gas.check();
    }

    /** Meters a compilation for this sandbox: its work as gas, its heap as held memory. */
    CompileMeter compileMeter() {
        return new MeteredCompile(gas, state.memory());
    }

    /**
     * Starts a run: clears the previous run's end by time, output or cancellation and any
     * cancel flag left over; its deadline is {@code timeout} from now on the host clock.
     */
    void startRun(Duration timeout, long runGas) {
        gas.startRun(runGas);
        gasAtRunStart = gas.used();
        // compared first: toNanos() throws for timeouts past ~292 years (Limits.unlimited()),
        // and an exception per run costs more than the whole run of a small chunk
        long nanos = timeout.compareTo(MAX_NANOS) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        long now = env.nanoTime();
        if (nanos > Long.MAX_VALUE - now) state.gas().clearDeadline();
        else state.setDeadline(now + nanos);
    }

    /**
     * {@link #startRun} for the rest of a paused run that had used {@code consumed} gas: that gas
     * counts against this run's and the sandbox's budgets, and the run's gas figure includes it.
     */
    void startResumedRun(Duration timeout, long runGas, long consumed) {
        gas.carryOver(consumed);
        gas.startRun(runGas == Long.MAX_VALUE ? runGas : runGas - Math.min(runGas, consumed));
        gasAtRunStart = 0;
        long nanos = timeout.compareTo(MAX_NANOS) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        long now = env.nanoTime();
        if (nanos > Long.MAX_VALUE - now) state.gas().clearDeadline();
        else state.setDeadline(now + nanos);
    }

    /** The rest of a paused run (see {@link LuaState#continuePaused}). */
    Object[] continuePaused(Object[] results, LuaError error) {
        try {
            return state.continuePaused(results, error);
        } finally {
            LiveRoots.clearIdleStack(state);
        }
    }

    /** The error a paused call raises when the host resumes it with one. */
    LuaError pausedCallError(String message) {
        return state.pausedCallError(message);
    }

    /** Whether the paused call of a restored run is a call of {@code fn}. */
    boolean pausedCallIs(Object fn) {
        return dev.luavm.vm.VmSnapshots.pausedCall(state) == fn;
    }

    /** Charges gas to the run (the host's conversions of a resumed call's results, the audit log's writes). */
    void chargeGas(long units) {
        gas.charge(units);
    }

    Object[] call(Object fn, Object[] args) {
        try {
            return state.call(fn, args);
        } finally {
            LiveRoots.clearIdleStack(state);
        }
    }

    /** Gas used by the current or latest run. */
    long gasUsed() {
        return gas.used() - gasAtRunStart;
    }

    void cancel() {
        state.cancel();
    }

    /** True when {@link #cancel()} came since this run started. */
    boolean cancelled() {
        return gas.isCancelled();
    }

    /** Ends the run now with {@code limit} (the output and audit limits, enforced outside the VM). */
    RuntimeException terminate(LuaLimitException.Limit limit) {
        LuaTermination.Reason reason = switch (limit) {
            case GAS -> LuaTermination.Reason.GAS;
            case TIME -> LuaTermination.Reason.TIME;
            case CANCELLED -> LuaTermination.Reason.CANCELLED;
            case AUDIT -> LuaTermination.Reason.AUDIT;
            default -> LuaTermination.Reason.OUTPUT;
        };
        gas.terminate(reason, false);
        return new LuaTermination(reason);
    }

    /** Ends the run now for {@code os.exit}: final, like a limit, but not one. */
    RuntimeException exit() {
        gas.terminate(LuaTermination.Reason.EXIT, false);
        return new LuaTermination(LuaTermination.Reason.EXIT);
    }

    /** True when {@code e} is the end of a run by {@code os.exit}. */
    static boolean isExit(Throwable e) {
        return e instanceof LuaTermination t && t.reason() == LuaTermination.Reason.EXIT;
    }

    /** The limit behind a VM termination, or null when {@code e} is not one. */
    static LuaLimitException.Limit terminationLimit(Throwable e) {
        if (!(e instanceof LuaTermination t)) return null;
        return switch (t.reason()) {
            case GAS -> LuaLimitException.Limit.GAS;
            case TIME -> LuaLimitException.Limit.TIME;
            case CANCELLED -> LuaLimitException.Limit.CANCELLED;
            case OUTPUT -> LuaLimitException.Limit.OUTPUT;
            case AUDIT -> LuaLimitException.Limit.AUDIT;
            case EXIT -> null;
        };
    }

    /** True for the VM's "stack overflow" and "C stack overflow" errors. */
    static boolean isStackOverflow(LuaError e) {
        return e.value() instanceof LuaString s && s.toString().endsWith("stack overflow");
    }
}
