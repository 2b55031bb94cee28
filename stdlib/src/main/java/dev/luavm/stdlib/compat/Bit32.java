package dev.luavm.stdlib.compat;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;

import java.util.List;

/**
 * {@code bit32}, as Lua 5.3.6 builds it under {@code LUA_COMPAT_BITLIB} ({@code lbitlib.c}):
 * arguments are integers (floats with an integral value and numeric strings too, as
 * {@code luaL_checkinteger} takes them), cut to their low 32 bits, and every result is an
 * integer from 0 to 2^32 - 1.
 *
 * <p>Where {@code lbitlib.c} leans on C's undefined behaviour at the extremes (a shift by
 * {@code math.mininteger}, a field whose position plus width overflows), the result here is the
 * one lua5.3 as Debian builds it (gcc, x86-64) prints: {@code rshift(1, math.mininteger)} is 0 (a
 * shift by 2^63), and a field position plus width wraps as C's arithmetic does, the shifts then
 * taking their count modulo 64 as the processor (and Java) does: {@code extract(1,
 * math.maxinteger, math.maxinteger)} is 0.
 */
final class Bit32 {
    private Bit32() {}

    /** {@code LUA_NBITS} */
    private static final int NBITS = 32;
    /** the low {@code NBITS} bits set: {@code ALLONES} */
    private static final long ALLONES = 0xFFFF_FFFFL;

    static final List<Builtin> FUNCTIONS = List.of(
        new Builtin("bit32.arshift") { @Override public int call(CallContext c) { return Bit32.arshift(c); } },
        new Builtin("bit32.band") { @Override public int call(CallContext c) { return Bit32.band(c); } },
        new Builtin("bit32.bnot") { @Override public int call(CallContext c) { return Bit32.bnot(c); } },
        new Builtin("bit32.bor") { @Override public int call(CallContext c) { return Bit32.bor(c); } },
        new Builtin("bit32.bxor") { @Override public int call(CallContext c) { return Bit32.bxor(c); } },
        new Builtin("bit32.btest") { @Override public int call(CallContext c) { return Bit32.btest(c); } },
        new Builtin("bit32.extract") { @Override public int call(CallContext c) { return Bit32.extract(c); } },
        new Builtin("bit32.lrotate") { @Override public int call(CallContext c) { return Bit32.lrotate(c); } },
        new Builtin("bit32.lshift") { @Override public int call(CallContext c) { return Bit32.lshift(c); } },
        new Builtin("bit32.replace") { @Override public int call(CallContext c) { return Bit32.replace(c); } },
        new Builtin("bit32.rrotate") { @Override public int call(CallContext c) { return Bit32.rrotate(c); } },
        new Builtin("bit32.rshift") { @Override public int call(CallContext c) { return Bit32.rshift(c); } });

    /** {@code andaux}: the AND of every argument (all ones without any). */
    private static long and(CallContext c) {
        int n = c.nargs();
        c.chargeGas(n); // one step per argument, as math.max pays
        long r = -1L;
        for (int i = 1; i <= n; i++) r &= c.checkInteger(i);
        return r & ALLONES;
    }

    static int band(CallContext c) {
        return c.ret(and(c));
    }

    static int btest(CallContext c) {
        return c.ret(and(c) != 0);
    }

    static int bor(CallContext c) {
        int n = c.nargs();
        c.chargeGas(n);
        long r = 0;
        for (int i = 1; i <= n; i++) r |= c.checkInteger(i);
        return c.ret(r & ALLONES);
    }

    static int bxor(CallContext c) {
        int n = c.nargs();
        c.chargeGas(n);
        long r = 0;
        for (int i = 1; i <= n; i++) r ^= c.checkInteger(i);
        return c.ret(r & ALLONES);
    }

    static int bnot(CallContext c) {
        return c.ret(~c.checkInteger(1) & ALLONES);
    }

    /**
     * {@code b_shift}: {@code r} shifted left by {@code i} bits (right for a negative {@code i}),
     * trimmed; a shift of 32 or more either way gives 0. {@code i} is never
     * {@code Long.MIN_VALUE} here (callers handle a shift by 2^63).
     */
    private static long shift(long r, long i) {
        if (i < 0) {
            return i <= -NBITS ? 0 : (r & ALLONES) >>> -i;
        }
        return i >= NBITS ? 0 : (r << i) & ALLONES;
    }

    // lshift, rshift, lrotate and rrotate check argument 2 first: gcc evaluates b_shift's and
    // b_rot's arguments before their bodies read argument 1, so lua5.3 names #2 when both are bad

    static int lshift(CallContext c) {
        long i = c.checkInteger(2);
        long r = c.checkInteger(1);
        return c.ret(i == Long.MIN_VALUE ? 0L : shift(r, i)); // right by 2^63: nothing is left
    }

    static int rshift(CallContext c) {
        long i = c.checkInteger(2);
        long r = c.checkInteger(1);
        return c.ret(i == Long.MIN_VALUE ? 0L : shift(r, -i)); // left by 2^63: nothing is left
    }

    static int arshift(CallContext c) {
        long r = c.checkInteger(1);
        long i = c.checkInteger(2);
        if (i < 0 || (r & (1L << (NBITS - 1))) == 0) {
            return c.ret(i == Long.MIN_VALUE ? 0L : shift(r, -i));
        }
        // an arithmetic shift of a 'negative' number: the sign bit fills from the left
        if (i >= NBITS) return c.ret(ALLONES);
        return c.ret(((r >>> i) | ~(ALLONES >>> i)) & ALLONES);
    }

    /** {@code b_rot}: argument 1 rotated left by {@code d} modulo 32. */
    private static int rotate(CallContext c, long d) {
        long r = c.checkInteger(1) & ALLONES;
        int i = (int) (d & (NBITS - 1));
        if (i != 0) r = (r << i) | (r >>> (NBITS - i));
        return c.ret(r & ALLONES);
    }

    static int lrotate(CallContext c) {
        return rotate(c, c.checkInteger(2));
    }

    static int rrotate(CallContext c) {
        return rotate(c, -c.checkInteger(2));
    }

    /** {@code fieldargs}: the field's position, checked with its width (returned in {@code width[0]}). */
    private static int fieldArgs(CallContext c, int farg, int[] width) {
        long f = c.checkInteger(farg);
        long w = c.optInteger(farg + 1, 1);
        if (f < 0) throw c.argError(farg, "field cannot be negative");
        if (w <= 0) throw c.argError(farg + 1, "width must be positive");
        // f + w wraps for huge f and w, as in lua5.3 (its build prints 0 for extract(1, maxinteger, maxinteger))
        if (f + w > NBITS) throw c.error("trying to access non-existent bits");
        width[0] = (int) w;
        return (int) f;
    }

    /** {@code mask(n)}: {@code n} low bits set (1 <= n <= 32), and, as in C, the bits from 32 + n up. */
    private static long mask(int n) {
        return ~((ALLONES << 1) << (n - 1));
    }

    static int extract(CallContext c) {
        long r = c.checkInteger(1) & ALLONES;
        int[] w = new int[1];
        int f = fieldArgs(c, 2, w);
        return c.ret((r >>> f) & mask(w[0]));
    }

    static int replace(CallContext c) {
        long r = c.checkInteger(1) & ALLONES;
        long v = c.checkInteger(2) & ALLONES;
        int[] w = new int[1];
        int f = fieldArgs(c, 3, w);
        long m = mask(w[0]);
        return c.ret((r & ~(m << f)) | ((v & m) << f)); // untrimmed, as lbitlib.c pushes it
    }
}
