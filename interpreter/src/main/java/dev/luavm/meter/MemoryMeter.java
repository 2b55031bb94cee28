package dev.luavm.meter;

import dev.luavm.vm.LuaError;
import dev.luavm.value.LuaString;

/**
 * The one memory-accounting choke point of a sandbox (VM rule 2).
 *
 * <p>Every Lua-visible allocation (a string, a table's array or hash part, a closure, a
 * coroutine and its stack, a vararg buffer) calls {@link #charge(long)} with an estimate of
 * its size <em>before</em> the allocation happens, so an over-limit request fails before the
 * JVM is asked for the memory: a script can never drive the host into {@link OutOfMemoryError}.
 *
 * <p>The cap applies to what the script <em>holds</em>, not to what it has churned through.
 * Charges accumulate in {@code sinceTrace}; when {@code live + sinceTrace + request} would pass
 * the cap, the meter asks its {@link LiveSizer} to measure the live Lua heap (a deterministic
 * walk of the object graph from the sandbox roots, independent of the JVM's collector), sets
 * {@code live} to that figure and clears {@code sinceTrace}. Only if the request still does not
 * fit is {@code not enough memory} raised. Because the walk depends only on the Lua object graph
 * and the charges are fixed estimates ({@link Sizes}), the same script reports the same peak on
 * any JVM. The walk costs time proportional to the live heap, so after a walk that found the
 * heap inside the cap, a further walk waits until a slack of {@code cap / 16} bytes has been
 * allocated, keeping the walks' total cost linear in the bytes allocated. The price is that
 * what the script holds may pass the cap by less than the slack before the next walk catches
 * it: the JVM never holds more than {@code cap + cap / 16} of Lua data, and {@link #peak()}
 * may read up to that much.
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
    }

    private static final LuaString NOT_ENOUGH_MEMORY = LuaString.of("not enough memory");

    /** The walk may be postponed by up to cap / SLACK_FRACTION bytes of allocation. */
    public static final int SLACK_FRACTION = 16;

    private final long cap;
    private final long slack;
    private LiveSizer sizer;
    private long live;
    private long sinceTrace;
    /** bytes held outside the Lua heap (see {@link #hold}): counted, never seen by the walk */
    private long held;
    /** the part of {@code sinceTrace} that is held bytes (it paces walks; counted once) */
    private long heldSinceTrace;
    private long peak;
    private long totalCharged;
    private int traces;
    private GasMeter gas;

    public MemoryMeter(long capBytes) {
        if (capBytes <= 0) throw new IllegalArgumentException("memory cap must be positive: " + capBytes);
        this.cap = capBytes;
        this.slack = capBytes / SLACK_FRACTION;
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

    public void setLiveSizer(LiveSizer sizer) {
        this.sizer = sizer;
    }

    /** Links the sandbox's gas meter ({@link #chargeWork} charges it from then on), or unlinks it (null). */
    public void linkGas(GasMeter gas) {
        this.gas = gas;
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
     * {@code not enough memory} (catchable by pcall, as in PUC) when it does not fit.
     */
    public void charge(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative charge");
        long next = live + sinceTrace + held - heldSinceTrace + bytes;
        if (next > cap || next < 0) {
            // Within the slack after a walk that found the heap inside the cap, allocate without
            // walking again: walks are then at least 'slack' bytes of allocation apart, which keeps
            // their total cost linear in the bytes allocated. A heap near the cap is caught by the
            // next walk, once the slack is used.
            boolean withinSlack = sizer != null && live + held <= cap && next >= 0 && sinceTrace + bytes <= slack;
            if (!withinSlack) {
                if (sizer != null) {
                    retrace();
                    next = live + held + bytes;
                }
                if (next > cap || next < 0 || bytes > cap) {
                    throw new LuaError(NOT_ENOUGH_MEMORY);
                }
            }
        }
        sinceTrace += bytes;
        totalCharged += bytes;
        long current = current();
        if (current > peak) peak = current;
    }

    /**
     * Charges {@code bytes} that the sandbox holds outside the Lua heap, where the live-heap
     * walk cannot see them (a compilation in progress, a {@code load} reader's pieces): they
     * count until {@link #release}d, across walks. Paced and capped as {@link #charge(long)}
     * (they count toward the allocation that triggers the next walk).
     */
    public void hold(long bytes) {
        charge(bytes);
        held += bytes;
        heldSinceTrace += bytes;
    }

    /** Gives back bytes {@link #hold held} before. */
    public void release(long bytes) {
        if (bytes < 0 || bytes > held) throw new IllegalArgumentException("release of " + bytes + ", held " + held);
        held -= bytes;
        long counted = Math.min(bytes, heldSinceTrace);
        heldSinceTrace -= counted;
        sinceTrace -= counted;
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
        heldSinceTrace = 0;
    }

    public long cap() { return cap; }

    /** Highest accounted figure (live estimate plus allocations since the last walk). */
    public long peak() { return peak; }

    /** Everything charged since creation, churn included. */
    public long totalCharged() { return totalCharged; }

    /** How many live-heap walks the meter has run. */
    public int traces() { return traces; }

    /** Current accounted figure. */
    public long current() { return live + sinceTrace + held - heldSinceTrace; }
}
