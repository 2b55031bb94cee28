package dev.luavm.stdlib.table;

/** Gas charged by the table functions, in one place so the meter can be tested exactly. */
final class TableCosts {
    private TableCosts() {}

    /** per element read, written or moved (concat, insert, remove, move, pack, unpack) */
    static final long ELEMENT = 1;
    /** per comparison in {@code table.sort} (a Lua comparator is metered on top) */
    static final long COMPARISON = 1;
    /** bytes of concat output covered by one unit of gas */
    static final int BYTES_PER_UNIT = 16;

    /** gas for {@code n} element operations, saturating instead of overflowing */
    static long elements(long n) {
        return n <= 0 ? 0 : n > Long.MAX_VALUE / ELEMENT ? Long.MAX_VALUE : n * ELEMENT;
    }

    /** gas for copying {@code bytes} bytes */
    static long bytes(long bytes) {
        return (bytes + BYTES_PER_UNIT - 1) / BYTES_PER_UNIT;
    }
}
