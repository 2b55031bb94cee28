package dev.luavm.stdlib.work;

import dev.luavm.lib.CallContext;

/**
 * Element work (1 gas per value copied, moved, shifted, converted or returned) paid before it
 * runs, in batches of {@link #BATCH}: a loop calls {@link #step()} before each element, so a
 * huge range is stopped by the meter as it goes and an early exit pays only its batch.
 */
public final class ElementWork {
    /** Elements paid for at a time. */
    public static final int BATCH = 256;

    private final CallContext c;
    private long left;
    private long paid;

    /** Work over at most {@code max} elements. */
    public ElementWork(CallContext c, long max) {
        this.c = c;
        this.left = Math.max(0, max);
    }

    /** One element about to be handled. */
    public void step() {
        if (--paid < 0) {
            long batch = Math.max(1, Math.min(BATCH, left));
            c.chargeGas(batch);
            left = Math.max(0, left - batch);
            paid += batch;
        }
    }
}
