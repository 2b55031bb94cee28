package dev.luavm.stdlib.math;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.vm.Arith;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The functions {@code lmathlib.c} of Lua 5.3.6 adds to {@code math} under
 * {@code LUA_COMPAT_MATHLIB} (on in lua's own Makefile and in Debian's lua5.3), for the
 * {@code compat} bundle: {@code atan2} (the same function as {@code math.atan}), {@code cosh},
 * {@code sinh}, {@code tanh}, {@code pow}, {@code frexp}, {@code ldexp} and {@code log10}. Every
 * result is a float (frexp's exponent an integer), every message as lua5.3's, NaN signs as
 * glibc's ({@link FloatResults}).
 */
public final class MathCompat {
    private MathCompat() {}

    private static final Map<String, Builtin> FUNCTIONS = new LinkedHashMap<>();

    static {
        FUNCTIONS.put("atan2", MathLibrary.ATAN);
        FUNCTIONS.put("cosh", new Builtin("math.cosh") { @Override public int call(CallContext c) { return unary(c, MathCompat::cosh); } });
        FUNCTIONS.put("sinh", new Builtin("math.sinh") { @Override public int call(CallContext c) { return unary(c, MathCompat::sinh); } });
        FUNCTIONS.put("tanh", new Builtin("math.tanh") { @Override public int call(CallContext c) { return unary(c, MathCompat::tanh); } });
        FUNCTIONS.put("pow", new Builtin("math.pow") { @Override public int call(CallContext c) { return MathCompat.pow(c); } });
        FUNCTIONS.put("frexp", new Builtin("math.frexp") { @Override public int call(CallContext c) { return MathCompat.frexp(c); } });
        FUNCTIONS.put("ldexp", new Builtin("math.ldexp") { @Override public int call(CallContext c) { return MathCompat.ldexp(c); } });
        FUNCTIONS.put("log10", new Builtin("math.log10") { @Override public int call(CallContext c) { return MathCompat.log10(c); } });
    }

    /** The functions by their name in {@code math}, in lmathlib.c's order; immutable builtins shared by every sandbox. */
    public static Map<String, Builtin> functions() {
        return java.util.Collections.unmodifiableMap(FUNCTIONS);
    }

    /** cosh, sinh and tanh as glibc computes them ({@link Glibc}), NaN operands propagated. */
    private static double cosh(double x) {
        return Glibc.cosh(x);
    }

    private static double sinh(double x) {
        return Glibc.sinh(x);
    }

    private static double tanh(double x) {
        return Glibc.tanh(x);
    }

    private static int unary(CallContext c, java.util.function.DoubleUnaryOperator f) {
        double x = c.checkNumber(1);
        return c.ret(FloatResults.of(f.applyAsDouble(x), x));
    }

    /**
     * {@code math_pow}: C's pow, as the {@code ^} operator computes it on floats, and glibc's NaN
     * signs: a NaN base keeps its own, except that a negative one to an odd integer power comes
     * back positive ({@code pow(-nan, 1)} is {@code nan}: glibc squares the NaN, then flips the
     * sign as for an odd power of a negative number); an invalid operation on ordinary numbers
     * gives the default {@code -nan}.
     */
    static int pow(CallContext c) {
        double x = c.checkNumber(1);
        double y = c.checkNumber(2);
        if (x != x && y == y && y != 0) {
            boolean odd = Math.abs(y) < 0x1p53 && y == Math.rint(y) && ((long) y & 1) != 0;
            // glibc: x2 = x * x keeps the NaN; a negative x to an odd power then flips its sign
            return c.ret(odd ? Double.longBitsToDouble(Double.doubleToRawLongBits(x) & Long.MAX_VALUE) : x);
        }
        return c.ret(FloatResults.of(Arith.pow(x, y), x, y));
    }

    /** {@code math_log10}: glibc's log10 (fdlibm's reduction over glibc's log); log10 of a negative number is a positive NaN. */
    static int log10(CallContext c) {
        double x = c.checkNumber(1);
        return c.ret(FloatResults.positive(Glibc.log10(x), x));
    }

    /**
     * {@code math_frexp}: {@code m, e} with {@code x == m * 2^e} and {@code 0.5 <= |m| < 1}; zero,
     * infinities and NaN come back as they are with exponent 0, as glibc gives them.
     */
    static int frexp(CallContext c) {
        double x = c.checkNumber(1);
        if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) return c.ret(x, 0L);
        int e = Math.getExponent(x);
        double m = x;
        int bias = 0;
        if (e == Double.MIN_EXPONENT - 1) { // subnormal: scale into the normal range first
            m = x * 0x1p54;
            bias = 54;
            e = Math.getExponent(m);
        }
        // m * 2^-(e+1) lies in [0.5, 1): scalb by a power of two is exact here
        return c.ret(Math.scalb(m, -(e + 1)), (long) (e + 1 - bias));
    }

    /**
     * {@code math_ldexp}: {@code x * 2^ep}, rounded once, where {@code ep} is the integer
     * argument cut to a C {@code int} as lmathlib.c casts it ({@code ldexp(1, 2^32 + 1)} is 2).
     */
    static int ldexp(CallContext c) {
        double x = c.checkNumber(1);
        int ep = (int) c.checkInteger(2);
        return c.ret(ldexp(x, ep));
    }

    /** C's ldexp: exact unless the result is subnormal, then rounded to nearest, ties to even, once. */
    static double ldexp(double x, int ep) {
        if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) return x;
        // Math.scalb may round twice on the way into the subnormal range: step to just above it
        // exactly, then make the one rounding multiplication
        int e = Math.getExponent(x);
        if (e == Double.MIN_EXPONENT - 1) e = Math.getExponent(x * 0x1p54) - 54;
        long target = (long) e + ep;
        if (target >= Double.MIN_EXPONENT || target < Double.MIN_EXPONENT - 60) return Math.scalb(x, ep);
        double scaled = Math.scalb(x, Double.MIN_EXPONENT - e); // exponent MIN_EXPONENT: normal, exact
        return scaled * Math.scalb(1.0, (int) (target - Double.MIN_EXPONENT)); // 2^(negative), one rounding
    }
}
