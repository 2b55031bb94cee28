package dev.luavm.stdlib.table;

/** Gas charged by the table functions, in one place so the meter can be tested exactly. */
final class TableCosts {
    private TableCosts() {}

    /** per element read, written or moved (concat, insert, remove, move, pack, unpack) */
    static final long ELEMENT = 1;
    /**
     * per comparison in {@code table.sort}; two strings also pay the bytes they compare
     * ({@link dev.luavm.value.LuaString#compareTo(dev.luavm.value.LuaString, dev.luavm.meter.GasSink)}), a Lua comparator is metered on top
     */
    static final long COMPARISON = 1;

    /** gas for {@code n} element operations, saturating instead of overflowing */
    static long elements(long n) {
        return n <= 0 ? 0 : n > Long.MAX_VALUE / ELEMENT ? Long.MAX_VALUE : n * ELEMENT;
    }

    /** gas for copying {@code bytes} bytes: the byte rule, 1 per 8 */
    static long bytes(long bytes) {
        return dev.luavm.lib.CallContext.gasForBytes(bytes);
    }

    /** element moves paid for at a time by {@link #beforeMove} */
    static final int BATCH = 256;

    /**
     * Charges for the batch of element moves starting at move number {@code done} (0-based) of
     * {@code total}, when {@code done} starts a batch. Moves are paid for batch by batch, before
     * each batch runs (VM rule 1): a huge range is stopped by the meter as it goes, and a move that
     * the script interrupts early (an erroring {@code __newindex}) costs only the batch it was in.
     */
    static void beforeMove(dev.luavm.lib.CallContext c, long done, long total) {
        if (done % BATCH == 0) c.chargeGas(elements(Math.min(BATCH, total - done)));
    }
}
