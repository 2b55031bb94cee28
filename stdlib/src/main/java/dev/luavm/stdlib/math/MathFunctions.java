package dev.luavm.stdlib.math;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;

/**
 * The computing functions of {@code math}, one method per Lua function as in {@code lmathlib.c}.
 *
 * <p>Subtypes follow 5.3.6: a function that tests {@code lua_isinteger} takes the integer path
 * only for an actual integer (a numeric string counts as a float); {@code floor}, {@code ceil}
 * and the integral part of {@code modf} are integers when the float result fits
 * ({@code pushnumint}). Transcendental functions use {@link Math}, whose HotSpot intrinsics
 * round like glibc in the cases tested ({@link StrictMath}'s fdlibm is an ulp off on
 * {@code exp(1)}).
 */
final class MathFunctions {
    private MathFunctions() {}

    private static final double LN2 = 0.6931471805599453;

    /** {@code pushnumint}: an integer when {@code d} has an integer value in range, else the float. */
    private static Object numberOrInteger(double d) {
        Long l = LuaNumbers.floatToInteger(d);
        return l != null ? (Object) l : (Object) d;
    }

    static int abs(CallContext c) {
        if (c.arg(1) instanceof Long n) return c.ret(n < 0 ? -n : n); // wraps for mininteger, as in C
        return c.ret(absF(c.checkNumber(1)));
    }

    // The float functions below are each builtin's whole result on a float argument
    // (Builtin.floatFunction): the call and the compiled tier's typed form share them.

    static double absF(double d) {
        return Double.longBitsToDouble(Double.doubleToRawLongBits(d) & Long.MAX_VALUE);
    }

    static int floor(CallContext c) {
        if (c.arg(1) instanceof Long n) return c.ret(n); // an integer is its own floor
        return c.ret(numberOrInteger(Math.floor(c.checkNumber(1))));
    }

    static int ceil(CallContext c) {
        if (c.arg(1) instanceof Long n) return c.ret(n);
        return c.ret(numberOrInteger(Math.ceil(c.checkNumber(1))));
    }

    static int fmod(CallContext c) {
        if (c.arg(1) instanceof Long a && c.arg(2) instanceof Long d) {
            if (d + 1 == 0 || d == 0) { // special cases: -1 or 0
                if (d == 0) throw c.argError(2, "zero");
                return c.ret(0L); // avoids overflow with mininteger % -1
            }
            return c.ret(a % d); // C's truncating remainder, like Java's
        }
        double b = c.checkNumber(2); // lua5.3 (gcc) evaluates fmod's arguments right to left: #2 is checked first
        double a = c.checkNumber(1);
        return c.ret(FloatResults.of(a % b, a, b)); // Java's % on doubles is C's fmod
    }

    static int modf(CallContext c) {
        if (c.arg(1) instanceof Long n) return c.ret(n, 0.0); // a number is its own integer part
        double n = c.checkNumber(1);
        double ip = n < 0 ? Math.ceil(n) : Math.floor(n); // integer part rounds toward zero
        double frac = n == ip ? 0.0 : n - ip; // the test is needed for inf and -inf
        return c.ret(numberOrInteger(ip), frac);
    }

    static int tointeger(CallContext c) {
        Object v = c.arg(1);
        if (v instanceof Long) return c.ret(v);
        if (v instanceof Double d) return c.ret(LuaNumbers.floatToInteger(d));
        if (v instanceof LuaString s) { // lua_tointegerx converts numeric strings in 5.3
            Object n = LuaNumbers.parse(s);
            if (n instanceof Long) return c.ret(n);
            if (n instanceof Double d) return c.ret(LuaNumbers.floatToInteger(d));
        }
        c.checkAny(1);
        return c.ret((Object) null);
    }

    static int ult(CallContext c) {
        long a = c.checkInteger(1);
        long b = c.checkInteger(2);
        return c.ret(Long.compareUnsigned(a, b) < 0);
    }

    static int type(CallContext c) {
        Object v = c.arg(1);
        if (v instanceof Long) return c.ret(LuaString.of("integer"));
        if (v instanceof Double) return c.ret(LuaString.of("float"));
        c.checkAny(1);
        return c.ret((Object) null);
    }

    /** {@code math.min(x, ...)}: the first argument no other is less than (compared with {@code <}). */
    static int min(CallContext c) {
        int n = c.nargs();
        if (n < 1) throw c.argError(1, "value expected");
        c.chargeGas(n);
        int imin = 1;
        for (int i = 2; i <= n; i++) {
            if (less(c, c.arg(i), c.arg(imin))) imin = i;
        }
        return c.ret(c.arg(imin));
    }

    /** {@code a < b}; two strings pay the bytes compared (5.3's min and max accept any comparable values). */
    private static boolean less(CallContext c, Object a, Object b) {
        if (a instanceof LuaString x && b instanceof LuaString y) return x.compareTo(y, c::chargeGas) < 0;
        return c.lessThan(a, b);
    }

    static int max(CallContext c) {
        int n = c.nargs();
        if (n < 1) throw c.argError(1, "value expected");
        c.chargeGas(n);
        int imax = 1;
        for (int i = 2; i <= n; i++) {
            if (less(c, c.arg(imax), c.arg(i))) imax = i;
        }
        return c.ret(c.arg(imax));
    }

    static int sqrt(CallContext c) {
        return c.ret(sqrtF(c.checkNumber(1)));
    }

    static double sqrtF(double x) {
        return FloatResults.of(Math.sqrt(x), x);
    }

    static int exp(CallContext c) {
        return c.ret(expF(c.checkNumber(1)));
    }

    static double expF(double x) {
        return FloatResults.of(Math.exp(x), x);
    }

    static int sin(CallContext c) {
        return c.ret(sinF(c.checkNumber(1)));
    }

    static double sinF(double x) {
        return FloatResults.of(Math.sin(x), x);
    }

    static int cos(CallContext c) {
        return c.ret(cosF(c.checkNumber(1)));
    }

    static double cosF(double x) {
        return FloatResults.of(Math.cos(x), x);
    }

    static int tan(CallContext c) {
        return c.ret(tanF(c.checkNumber(1)));
    }

    static double tanF(double x) {
        return FloatResults.of(Math.tan(x), x);
    }

    /** asin and acos of an out-of-range argument are a positive NaN in glibc; no fix needed. */
    static int asin(CallContext c) {
        return c.ret(asinF(c.checkNumber(1)));
    }

    static double asinF(double x) {
        return FloatResults.positive(Math.asin(x), x);
    }

    static int acos(CallContext c) {
        return c.ret(acosF(c.checkNumber(1)));
    }

    static double acosF(double x) {
        return FloatResults.positive(Math.acos(x), x);
    }

    /**
     * {@code math.atan(y [, x])}: the arc tangent of y/x in the right quadrant. With two NaN
     * operands x's comes back: glibc's atan2 returns {@code x + y}, and x86's addition keeps its
     * first operand's NaN.
     */
    static int atan(CallContext c) {
        double y = c.checkNumber(1);
        double x = c.optNumber(2, 1);
        return c.ret(FloatResults.of(Math.atan2(y, x), x, y));
    }

    static int deg(CallContext c) {
        return c.ret(degF(c.checkNumber(1)));
    }

    static double degF(double x) {
        return x * (180.0 / Math.PI);
    }

    static int rad(CallContext c) {
        return c.ret(radF(c.checkNumber(1)));
    }

    static double radF(double x) {
        return x * (Math.PI / 180.0);
    }

    /** {@code math.log(x [, base])}, with C's {@code log2} and {@code log10} for bases 2 and 10. */
    static int log(CallContext c) {
        double x = c.checkNumber(1);
        if (c.isNoneOrNil(2)) return c.ret(ln(x));
        double base = c.checkNumber(2);
        double res;
        if (base == 2.0) {
            res = log2(x);
        } else if (base == 10.0) {
            res = FloatResults.positive(Math.log10(x), x); // glibc's log10(-1) is a positive NaN
        } else {
            double a = ln(x);
            double b = ln(base);
            res = FloatResults.of(a / b, a, b);
        }
        return c.ret(res);
    }

    private static double ln(double x) {
        return FloatResults.of(Math.log(x), x);
    }

    /** C's {@code log2}: exact for powers of two (Java has no log2; {@code log(x)/log(2)} is not). */
    static double log2(double x) {
        if (!(x > 0) || Double.isInfinite(x)) return ln(x); // 0 -> -inf, < 0 -> -nan, inf, nan
        int e = Math.getExponent(x);
        if (e < Double.MIN_EXPONENT) { // subnormal: normalise first
            x *= 0x1.0p54;
            e = Math.getExponent(x) - 54;
        } else {
            e = Math.getExponent(x);
        }
        double m = Math.scalb(x, -Math.getExponent(x)); // in [1, 2)
        if (m == 1.0) return e;
        if (m > 1.4142135623730951) { // keep log(m) small and accurate: m in [sqrt(1/2), sqrt(2))
            m /= 2;
            e++;
        }
        return e + Math.log(m) / LN2;
    }
}
