package dev.luavm.stdlib.work;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaString;
import java.util.Arrays;

/**
 * Equality and order of two strings, paid by the bytes compared: the common prefix is searched
 * chunk by chunk ({@link ByteWork#scan} sizes: 64 bytes first, doubling to 64 KiB), each chunk
 * charged at 1 gas per 8 bytes before it is compared. Two long equal strings cost their length
 * / 8; strings that differ early cost little.
 */
public final class StringCompare {
    private StringCompare() {}

    /** Byte-wise unsigned order of {@code a} and {@code b} (Lua's {@code <} in the C locale): negative, 0 or positive. */
    public static int compare(CallContext c, LuaString a, LuaString b) {
        if (a == b) return 0;
        byte[] x = a.bytesUnsafe();
        byte[] y = b.bytesUnsafe();
        int at = mismatch(c, x, y, Math.min(x.length, y.length));
        if (at < 0) return Integer.compare(x.length, y.length);
        return Integer.compare(x[at] & 0xFF, y[at] & 0xFF);
    }

    /** Raw equality of two strings: equal lengths are compared byte by byte, paid as above. */
    public static boolean equal(CallContext c, LuaString a, LuaString b) {
        if (a == b) return true;
        byte[] x = a.bytesUnsafe();
        byte[] y = b.bytesUnsafe();
        if (x.length != y.length) return false;
        return mismatch(c, x, y, x.length) < 0;
    }

    /** The first index below {@code n} where the arrays differ, or -1; charged per chunk compared. */
    private static int mismatch(CallContext c, byte[] x, byte[] y, int n) {
        int from = 0;
        int chunk = ByteWork.FIRST;
        while (from < n) {
            int to = (int) Math.min(n, (long) from + chunk);
            c.chargeBytes(to - from);
            int m = Arrays.mismatch(x, from, to, y, from, to);
            if (m >= 0) return from + m;
            from = to;
            if (chunk < ByteWork.CHUNK) chunk *= 2;
        }
        return -1;
    }
}
