package dev.luavm.stdlib.work;

import dev.luavm.lib.CallContext;

/**
 * Byte work paid for before it runs, in chunks: a loop over bytes calls {@link #step()} (or
 * {@link #steps(long)}) before touching each byte, and every {@link #CHUNK} bytes (or fewer at
 * the end of a known range) the next chunk is charged at 1 gas per 8 bytes. The gas meter thus
 * polls cancel and the clock at least once per chunk, however long the loop.
 *
 * <p>For work of unknown length (a scan that stops at a delimiter) the chunks start at
 * {@link #FIRST} bytes and double up to {@link #CHUNK}, so a short scan pays about what it did
 * and a long one at most twice its bytes.
 */
public final class ByteWork {
    /** The largest chunk charged at once (about 1 ms of simple byte work). */
    public static final int CHUNK = 1 << 16;
    /** The first chunk of a scan of unknown length. */
    public static final int FIRST = 64;

    private final CallContext c;
    /** bytes the work may still touch beyond what is paid for; Long.MAX_VALUE when unknown */
    private long left;
    /** bytes paid for and not yet touched */
    private long paid;
    private long next;

    private ByteWork(CallContext c, long max, long first) {
        this.c = c;
        this.left = max;
        this.next = first;
    }

    /** Work over at most {@code max} bytes: charged in chunks of up to {@link #CHUNK}. */
    public static ByteWork upTo(CallContext c, long max) {
        return new ByteWork(c, Math.max(0, max), CHUNK);
    }

    /** A scan whose length is not known in advance: chunks of 64 bytes, doubling up to {@link #CHUNK}. */
    public static ByteWork scan(CallContext c) {
        return new ByteWork(c, Long.MAX_VALUE, FIRST);
    }

    /** One byte about to be touched. */
    public void step() {
        if (--paid < 0) pay(1);
    }

    /** {@code n} bytes about to be touched. */
    public void steps(long n) {
        if (n <= 0) return;
        paid -= n;
        if (paid < 0) pay(-paid);
    }

    private void pay(long needed) {
        // at least what the caller needs now; a whole chunk when the range allows
        long chunk = Math.max(needed, Math.min(next, left));
        c.chargeBytes(chunk);
        left = left == Long.MAX_VALUE ? left : Math.max(0, left - chunk);
        paid += chunk;
        if (next < CHUNK) next = Math.min(CHUNK, next * 2);
    }
}
