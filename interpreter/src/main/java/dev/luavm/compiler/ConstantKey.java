package dev.luavm.compiler;

import dev.luavm.value.LuaString;

/**
 * The key of the compiler's constant table (PUC's {@code ls->h}), one type for every kind of
 * constant so that the keys are totally ordered: {@link java.util.HashMap} then keeps colliding
 * keys in a tree bin and finds one in O(log n) compares. A record of a bare {@code long} (whose
 * hash any two integers {@code (k << 32) | k} share, and which is not {@link Comparable}) let a
 * chunk of crafted integer literals make every lookup a scan of the whole bin.
 *
 * <p>Kinds keep apart what PUC keeps apart: an integer constant and a float with an integral
 * value (keyed by that integer, as a table normalizes it) are different keys; a float key is its
 * bit pattern, as {@link Double#equals}. The hash mixes all 64 bits (murmur3's finalizer) so that
 * ordinary literals spread well.
 */
record ConstantKey(int kind, long bits, LuaString string) implements Comparable<ConstantKey> {
    static final int NIL = 0;
    static final int FALSE = 1;
    static final int TRUE = 2;
    /** an integer constant */
    static final int INTEGER = 3;
    /** a float constant with an integral value, keyed by that value */
    static final int INTEGRAL_FLOAT = 4;
    /** any other float, keyed by its bits */
    static final int FLOAT = 5;
    static final int STRING = 6;

    static ConstantKey of(int kind, long bits) {
        return new ConstantKey(kind, bits, null);
    }

    static ConstantKey of(LuaString s) {
        return new ConstantKey(STRING, 0, s);
    }

    /** Bytes a compare of this key may read (for the lookup's price). */
    int size() {
        return string == null ? 8 : string.length();
    }

    @Override
    public int hashCode() {
        long h = string != null ? string.hashCode() : bits;
        h ^= (long) kind << 59;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConstantKey k && compareTo(k) == 0;
    }

    @Override
    public int compareTo(ConstantKey o) {
        if (kind != o.kind) return Integer.compare(kind, o.kind);
        if (string != null) return string.compareTo(o.string);
        return Long.compare(bits, o.bits);
    }
}
