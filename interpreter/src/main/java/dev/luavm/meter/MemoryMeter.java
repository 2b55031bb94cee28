package dev.luavm.meter;

import dev.luavm.vm.LuaError;
import dev.luavm.value.LuaString;

/**
 * The one memory-accounting choke point of a sandbox (VM rule 2).
 *
 * <p>Every Lua-visible allocation (a string, a table's array or hash part, a closure, a
 * coroutine and its stack, a vararg buffer, a value converted from the host) calls
 * {@link #charge(long)} with an estimate of its size <em>before</em> the allocation happens, so
 * an over-limit request fails before the JVM is asked for the memory: a script can never drive
 * the host into {@link OutOfMemoryError}.
 *
 * <h2>The figures</h2>
 * <ul>
 *   <li>{@code live}: the bytes the latest walk of the live Lua heap found (a deterministic walk
 *       of the object graph from the sandbox roots, see {@link LiveHeapWalker});</li>
 *   <li>{@code sinceTrace}: what was charged since that walk (live or already garbage);</li>
 *   <li>{@code held}: bytes held outside the Lua heap ({@link #hold}: a compilation in
 *       progress, a {@code load} reader's pieces), which no walk sees.</li>
 * </ul>
 * {@link #current()} = live + sinceTrace + held is never below what the script really holds,
 * because everything reachable was charged when it was made (values being built and not yet
 * reachable are {@link #pin pinned}, so a walk in the middle of building them still counts them).
 * {@link #peak()} is the highest {@code current()} ever reached.
 *
 * <h2>The cap is exact</h2>
 * A charge that would take {@code current()} past the limit first walks the heap (which also
 * runs the collector's clearing of weak tables, see {@link Collector}); only if the request
 * still does not fit is {@code not enough memory} raised, and then nothing was charged. So
 * {@code current()}, and with it {@link #peak()}, never passes the cap, by any amount, and since
 * both depend only on the Lua object graph and fixed size estimates ({@link Sizes}), the same
 * script reports the same figures on any JVM. A walk costs time proportional to the live heap;
 * during a run it is paid for as gas ({@link #WALK_GAS_PER_REFERENCE} per reference followed),
 * so a script that churns with its heap near the cap pays for the walks its churn causes.
 *
 * <h2>Headroom for recovery</h2>
 * While a run is in progress (a gas meter is {@link #linkGas linked}) allocations stop at
 * {@code cap - reserve} ({@link #reserveFor}: cap/16, at most 64 KiB); the host's own
 * allocations between runs (compiling the next chunk, converting arguments and globals) may use
 * the whole cap. So a sandbox whose script filled its share can still compile and run the code
 * that frees it ({@code t = nil}), and the host can always {@code setGlobal(name, null)}.
 *
 * <p>A meter without a sizer (no walk possible) treats every charge as live: a conservative
 * cap on total allocation, used where no roots exist (for example while compiling).
 *
 * <p>While a run is in progress the meter also carries a link to its sandbox's {@link GasMeter}
 * ({@link #linkGas}, set and cleared by {@code LuaState.call}), so that structures holding only
 * a memory meter (tables) can charge the CPU work their input shape causes ({@link #chargeWork}):
 * hash probes, rehashes, scans. Without a link (between runs, when the host reads or sets
 * globals; a table template's scratch meter) no work is charged.
 */
public final class MemoryMeter {
    /** Measures the bytes reachable from a sandbox's roots. */
    @FunctionalInterface
    public interface LiveSizer {
        long liveBytes();

        /** References the latest {@link #liveBytes} walk followed (its work, charged as gas). */
        default long lastWalkWork() {
            return 0;
        }
    }

    private static final LuaString NOT_ENOUGH_MEMORY = LuaString.of("not enough memory");

    /** Gas per reference a walk follows during a run (element work: one per value visited). */
    public static final long WALK_GAS_PER_REFERENCE = 1;
    /** The reserve kept for the host between runs: cap / RESERVE_FRACTION, at most MAX_RESERVE. */
    public static final int RESERVE_FRACTION = 16;
    public static final long MAX_RESERVE = 64 << 10;

    private final long cap;
    private final long reserve;
    private LiveSizer sizer;
    private long live;
    private long sinceTrace;
    /** bytes held outside the Lua heap (see {@link #hold}): counted, never seen by the walk */
    private long held;
    private long peak;
    private long totalCharged;
    private int traces;
    private GasMeter gas;
    private Collector collector;
    /** values being built and not yet reachable from the roots (see {@link #pin}) */
    private Object[] pins = new Object[8];
    private int npins;

    public MemoryMeter(long capBytes) {
        if (capBytes <= 0) throw new IllegalArgumentException("memory cap must be positive: " + capBytes);
        this.cap = capBytes;
        this.reserve = reserveFor(capBytes);
    }

    /** The part of {@code cap} a run's own allocations leave to the host (see the class comment). */
    public static long reserveFor(long cap) {
        return Math.min(cap / RESERVE_FRACTION, MAX_RESERVE);
    }

    /** A meter with no practical cap, for hosts that ask for {@code Limits.unlimited()}. */
    public static MemoryMeter unlimited() {
        return new MemoryMeter(Long.MAX_VALUE / 4);
    }

    /**
     * The next identity number of this meter's sandbox ({@link dev.luavm.value.Identity}): the
     * meter is the one per-sandbox object every table holds. Sandbox thread only.
     */
    public int nextIdentity() {
        int id = ++identities;
        return id != 0 ? id : ++identities; // 0 means "not yet numbered"
    }

    private int identities;

    /** The last identity number given ({@link #nextIdentity} gives the next one): part of a snapshot. */
    public int identityCounter() {
        return identities;
    }

    /** Continues the numbering of a snapshot: the next identity is {@code counter + 1}. Restore only. */
    public void restoreIdentityCounter(int counter) {
        identities = counter;
    }

    public void setLiveSizer(LiveSizer sizer) {
        this.sizer = sizer;
    }

    /** The walk behind the cap, or null. */
    public LiveSizer liveSizer() {
        return sizer;
    }

    /** Bytes the latest walk found live (see the class comment); part of a snapshot. */
    public long liveAtLastWalk() {
        return live;
    }

    /** Bytes {@link #hold held} outside the Lua heap now. */
    public long heldOutsideHeap() {
        return held;
    }

    /** Bytes charged since the latest walk (live or garbage already); part of a snapshot. */
    public long chargedSinceWalk() {
        return sinceTrace;
    }

    /**
     * Sets the figures of the Lua heap (what is {@link #hold held} outside it stays): a restore
     * starts from zero while it charges what it builds, then puts the snapshot's figures in place,
     * so the restored sandbox walks when the original would have. The peak starts afresh.
     */
    public void restoreFigures(long liveBytes, long sinceWalkBytes) {
        if (liveBytes < 0 || sinceWalkBytes < 0) throw new IllegalArgumentException("negative figures");
        live = liveBytes;
        sinceTrace = sinceWalkBytes;
        peak = current();
    }

    /** Gives the meter its sandbox's collector (weak tables and finalizers; see {@link Collector}). */
    public void setCollector(Collector collector) {
        this.collector = collector;
    }

    /** The sandbox's collector, or null for a meter with none (tests, scratch meters). */
    public Collector collector() {
        return collector;
    }

    /** Links the sandbox's gas meter ({@link #chargeWork} charges it from then on), or unlinks it (null). */
    public void linkGas(GasMeter gas) {
        this.gas = gas;
    }

    /** Whether {@link #chargeWork} charges anything now (a gas meter is linked: a run is in progress). */
    public boolean chargesWork() {
        return gas != null;
    }

    /**
     * Charges {@code units} of gas for work whose cost depends on its input (hash probes,
     * rehash scans) to the linked gas meter; nothing when no gas meter is linked. May throw
     * {@code LuaTermination}.
     */
    public void chargeWork(long units) {
        GasMeter g = gas;
        if (g != null) g.charge(units);
    }

    /**
     * Accounts for an allocation of {@code bytes} about to happen; raises the Lua error
     * {@code not enough memory} (catchable by pcall, as in PUC) when it does not fit, and then
     * nothing is charged.
     */
    public void charge(long bytes) {
        fit(bytes);
        sinceTrace += bytes;
        totalCharged += bytes;
        long current = current();
        if (current > peak) peak = current;
    }

    /** Makes room for {@code bytes} more (walking the heap if needed), or raises not enough memory. */
    private void fit(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative charge");
        long limit = gas != null ? cap - reserve : cap;
        long next = current() + bytes;
        if (next <= limit && next >= 0) return;
        if (bytes > limit) throw new LuaError(NOT_ENOUGH_MEMORY); // no walk can make room for it
        if (sizer != null) {
            retrace();
            next = current() + bytes;
        }
        if (next > limit || next < 0) throw new LuaError(NOT_ENOUGH_MEMORY);
    }

    /**
     * Gives back {@code bytes} of a structure that was charged (and is counted by the walk at its
     * new, smaller size): a coroutine's stacks shrunk after a deep recursion. Taken from what
     * was charged since the latest walk first, then from the walk's figure, never below zero;
     * what the structure still holds stays counted, so {@link #current()} stays at or above what
     * the sandbox holds.
     */
    public void credit(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative credit");
        long fromSince = Math.min(bytes, sinceTrace);
        sinceTrace -= fromSince;
        live = Math.max(0, live - (bytes - fromSince));
    }

    /**
     * Charges {@code bytes} that the sandbox holds outside the Lua heap, where the live-heap
     * walk cannot see them (a compilation in progress, a {@code load} reader's pieces): they
     * count until {@link #release}d, across walks, against the same cap as {@link #charge(long)}.
     */
    public void hold(long bytes) {
        fit(bytes);
        held += bytes;
        totalCharged += bytes;
        long current = current();
        if (current > peak) peak = current;
    }

    /** Gives back bytes {@link #hold held} before. */
    public void release(long bytes) {
        if (bytes < 0 || bytes > held) throw new IllegalArgumentException("release of " + bytes + ", held " + held);
        held -= bytes;
    }

    /**
     * Keeps {@code v} (a value being built, not yet reachable from the roots) counted by walks
     * until {@link #unpin} drops the pins back to the mark {@link #pinMark} gave.
     */
    public void pin(Object v) {
        if (v == null) return;
        if (npins == pins.length) pins = java.util.Arrays.copyOf(pins, npins * 2);
        pins[npins++] = v;
    }

    /** The mark to give {@link #unpin} later. */
    public int pinMark() {
        return npins;
    }

    /** Drops the pins made since {@code mark}. */
    public void unpin(int mark) {
        java.util.Arrays.fill(pins, mark, npins, null);
        npins = mark;
    }

    /** Pushes the pinned values (roots of the walk). */
    public void pushPins(java.util.function.Consumer<Object> push) {
        for (int i = 0; i < npins; i++) push.accept(pins[i]);
    }

    /** True when {@code e} is the meter's {@code not enough memory} error. */
    public static boolean isOutOfMemory(LuaError e) {
        return NOT_ENOUGH_MEMORY.equals(e.value());
    }

    /** Charges {@code count * unit} bytes, failing cleanly if the product overflows. */
    public void charge(long count, long unit) {
        if (count < 0) throw new IllegalArgumentException("negative count");
        long bytes;
        try {
            bytes = Math.multiplyExact(count, unit);
        } catch (ArithmeticException overflow) {
            throw new LuaError(NOT_ENOUGH_MEMORY);
        }
        charge(bytes);
    }

    private void retrace() {
        traces++;
        live = sizer.liveBytes();
        sinceTrace = 0;
        long current = current();
        if (current > peak) peak = current; // only if something reachable escaped its charge
        GasMeter g = gas;
        if (g != null) g.charge(sizer.lastWalkWork() * WALK_GAS_PER_REFERENCE);
    }

    /**
     * Walks the heap now (a full collection: {@code collectgarbage("collect")}); the figures
     * then hold exactly what is reachable. Without a sizer, nothing happens.
     */
    public void collect() {
        if (sizer != null) retrace();
    }

    public long cap() { return cap; }

    /** Highest {@link #current()} since the meter was made: never above the cap. */
    public long peak() { return peak; }

    /** Everything charged since creation, churn included. */
    public long totalCharged() { return totalCharged; }

    /** How many live-heap walks the meter has run. */
    public int traces() { return traces; }

    /**
     * What the sandbox holds as accounted now: live at the latest walk, plus what was charged
     * since (some of it may be garbage already), plus what is held outside the heap.
     */
    public long current() { return live + sinceTrace + held; }

    /** Bytes a run may still allocate before the meter must walk or refuse (the run's share). */
    public long limitForRuns() { return cap - reserve; }
}
