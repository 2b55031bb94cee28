package dev.luavm.meter;

import dev.luavm.vm.LuaTermination;
import java.util.function.LongSupplier;

/**
 * The CPU budget of a sandbox: gas, a wall-clock deadline and a cancellation flag (VM rules 1
 * and 5).
 *
 * <h2>Design</h2>
 * Gas is an abstract unit of work. The dispatch loop adds each instruction's cost
 * ({@code OpCode.gas}) to a local counter and hands the sum to {@link #charge(long)} only at
 * safepoints (backward jumps, calls, returns, loop steps), so the overshoot past the limit is
 * bounded by one straight-line block. Library functions charge through
 * {@code CallContext.chargeGas} before doing work proportional to their input.
 *
 * <p>{@link #charge(long)} is a field add and one compare. Every {@link #CHECK_INTERVAL} units
 * (or at the limit) it takes the slow path, which polls the cancellation flag (a volatile set
 * from any thread by {@link #cancel()}) and the clock. Exhaustion, timeout and cancellation
 * throw {@link LuaTermination}, which no Lua construct can catch; once thrown, the meter stays
 * {@linkplain #terminated() terminated} and every later charge throws again, so no Lua code of
 * that run runs after the end (no error handler, no {@code __gc}). Gas is a budget for the
 * meter's whole life; time, output and cancellation end one run: {@link #startRun()} clears
 * them (and the cancel flag) for the next run, while a GAS termination stays for good.
 *
 * <h2>What is charged (docs/STDLIB.md has the rule in full)</h2>
 * Instructions cost their {@code OpCode.gas}. Work that grows with the input is charged on top,
 * before it is done: byte work at one unit per {@link #BYTES_PER_GAS} bytes ({@link #byteWork}),
 * element work at one unit per value copied (beyond a few free ones per call or return), hash
 * probes beyond the first at one unit each, slots scanned past empty ones at one unit per 8.
 * Tables reach this meter through their memory meter ({@code MemoryMeter.chargeWork}).
 */
public final class GasMeter implements GasSink {
    /** Units between two polls of the cancel flag and the clock. */
    public static final long CHECK_INTERVAL = 10_000;
    /** The byte rule: bytes read, compared, hashed, parsed or copied per unit of gas. */
    public static final int BYTES_PER_GAS = 8;

    /** Gas for {@code bytes} bytes of byte work: one unit per 8 bytes, rounded up. */
    public static long byteWork(long bytes) {
        return (bytes + BYTES_PER_GAS - 1) / BYTES_PER_GAS;
    }

    private final long limit;
    /** where the current run's own budget ends ({@link #startRun(long)}); MAX_VALUE: none */
    private long runLimit = Long.MAX_VALUE;
    private long used;
    private long nextCheck;
    private volatile boolean cancelled;
    private long deadlineNanos;
    private boolean hasDeadline;
    private LongSupplier clock;
    private LuaTermination.Reason terminated;

    /** A meter allowing {@code limit} units of gas. */
    public GasMeter(long limit) {
        if (limit <= 0) throw new IllegalArgumentException("gas limit must be positive: " + limit);
        this.limit = limit;
        this.nextCheck = Math.min(limit, CHECK_INTERVAL);
    }

    /** A meter with no practical gas limit (deadline and cancellation still apply). */
    public static GasMeter unlimited() {
        return new GasMeter(Long.MAX_VALUE);
    }

    /** Charges {@code units}; throws {@link LuaTermination} when the budget is gone. */
    @Override
    public void charge(long units) {
        long u = used + units;
        if (u < used) u = Long.MAX_VALUE; // saturate (units is never negative)
        used = u;
        if (u >= nextCheck) check();
    }

    /**
     * Units that may still be counted locally before the next {@link #charge} must happen (the
     * distance to the next poll): the dispatch loop keeps its count in a local until then.
     */
    public long room() {
        long r = nextCheck - used;
        return r <= 0 ? 0 : r;
    }

    /** The slow path: polls cancellation, gas and the clock. */
    public void check() {
        if (terminated != null) throw new LuaTermination(terminated);
        if (cancelled) throw terminate(LuaTermination.Reason.CANCELLED);
        long cap = Math.min(limit, runLimit);
        if (used >= cap) throw terminate(LuaTermination.Reason.GAS);
        if (hasDeadline && clock != null && clock.getAsLong() - deadlineNanos >= 0) {
            throw terminate(LuaTermination.Reason.TIME);
        }
        long room = cap - used;
        nextCheck = used + Math.min(room, CHECK_INTERVAL);
    }

    private LuaTermination terminate(LuaTermination.Reason reason) {
        terminated = reason;
        nextCheck = 0;
        return new LuaTermination(reason);
    }

    /**
     * Starts a run: clears the cancel flag and a termination by time, output or cancellation,
     * which ended the previous run only; a GAS termination stays (the budget is spent). The next
     * charge polls at once.
     */
    public void startRun() {
        startRun(Long.MAX_VALUE);
    }

    /**
     * {@link #startRun()} for a run that may use at most {@code runGas} units (on top of the
     * life budget): a GAS termination by the previous run's own budget is cleared, one by the
     * life budget stays.
     */
    public void startRun(long runGas) {
        cancelled = false;
        runLimit = runGas == Long.MAX_VALUE || used + runGas < used ? Long.MAX_VALUE : used + runGas;
        if (terminated != LuaTermination.Reason.GAS || used < limit) {
            terminated = null;
            nextCheck = used;
        }
    }

    /**
     * Counts {@code units} a paused run used before its snapshot (a resumed run keeps its
     * consumption): added to what this meter has used, checked at the next charge.
     */
    public void carryOver(long units) {
        if (units < 0) throw new IllegalArgumentException("negative gas");
        long u = used + units;
        used = u < used ? Long.MAX_VALUE : u;
        nextCheck = 0;
    }

    /** Ends the run from outside (any thread): the sandbox stops at its next safepoint. */
    public void cancel() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** Makes the next check fail with {@code reason} (used by hosts for output limits). */
    public void terminate(LuaTermination.Reason reason, boolean raise) {
        terminated = reason;
        nextCheck = 0;
        if (raise) throw new LuaTermination(reason);
    }

    /** Sets the monotonic clock used for deadlines (nanoseconds). */
    public void setClock(LongSupplier nanoClock) {
        this.clock = nanoClock;
    }

    /** Sets a deadline on the clock (see {@link #setClock}); the run ends with TIME after it. */
    public void setDeadline(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
        this.hasDeadline = true;
        nextCheck = Math.min(nextCheck, used); // poll at the next safepoint
    }

    public void clearDeadline() {
        hasDeadline = false;
    }

    /** Gas used so far. */
    public long used() {
        return used;
    }

    public long limit() {
        return limit;
    }

    /** The reason the run ended, or null while it may continue. */
    public LuaTermination.Reason terminated() {
        return terminated;
    }
}
