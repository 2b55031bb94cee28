package dev.luavm.vm;

import dev.luavm.bytecode.OpCode;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;

/**
 * Number semantics of Lua 5.3 outside the dispatch loop's inline fast paths: string coercion,
 * integer/float mixing, floor division and modulo, shifts, and exact integer/float comparison
 * ({@code lvm.c}: luaV_div, luaV_mod, luaV_shiftl, LTnum/LEnum). Nothing here calls
 * metamethods; {@link Meta} does that when these methods answer null. The compiler's constant
 * folding calls {@link #arith} and {@link #toInteger} too, so that folded and run-time results
 * cannot drift apart.
 */
public final class Arith {
    private Arith() {}

    static final int ADD = OpCode.ADD.ordinal();
    static final int SUB = OpCode.SUB.ordinal();
    static final int MUL = OpCode.MUL.ordinal();
    static final int MOD = OpCode.MOD.ordinal();
    static final int POW = OpCode.POW.ordinal();
    static final int DIV = OpCode.DIV.ordinal();
    static final int IDIV = OpCode.IDIV.ordinal();
    static final int BAND = OpCode.BAND.ordinal();
    static final int BOR = OpCode.BOR.ordinal();
    static final int BXOR = OpCode.BXOR.ordinal();
    static final int SHL = OpCode.SHL.ordinal();
    static final int SHR = OpCode.SHR.ordinal();
    static final int UNM = OpCode.UNM.ordinal();
    static final int BNOT = OpCode.BNOT.ordinal();

    static boolean isBitwise(int op) {
        return (op >= BAND && op <= SHR) || op == BNOT;
    }

    /** Charges the parse of {@code v} when it is a long string about to be coerced to a number. */
    static void chargeCoercion(dev.luavm.meter.GasMeter gas, Object v) {
        if (v instanceof LuaString s && s.length() > LuaNumbers.FREE_NUMERAL_BYTES) gas.charge(LuaNumbers.parseWork(s));
    }

    /** tonumber: numbers as they are, numeric strings converted, else null. */
    static Object toNumber(Object v) {
        if (v instanceof Long || v instanceof Double) return v;
        if (v instanceof LuaString s) {
            Object n = LuaNumbers.parse(s);
            return n instanceof Long l ? (Object) (double) l : n; // luaV_tonumber_ gives a float
        }
        return null;
    }

    /** luaV_tointeger (mode exact): integer value of a number or numeric string, else null. */
    public static Long toInteger(Object v) {
        if (v instanceof Long l) return l;
        if (v instanceof Double d) return LuaNumbers.floatToInteger(d);
        if (v instanceof LuaString s) {
            Object n = LuaNumbers.parse(s);
            return n == null ? null : toInteger(n);
        }
        return null;
    }

    /**
     * The arithmetic or bitwise operation {@code op} (an opcode ordinal) on raw values, with
     * string coercion; null when an operand is not (convertible to) a suitable number.
     * Raises "attempt to divide by zero" and "attempt to perform 'n%0'".
     */
    public static Object arith(int op, Object a, Object b) {
        if (isBitwise(op)) {
            Long x = toInteger(a);
            Long y = toInteger(b);
            if (x == null || y == null) return null;
            return intOp(op, x, y);
        }
        // integer arithmetic only when both operands ARE integers: numeric strings convert to floats (5.3's tonumber)
        if (op != POW && op != DIV && a instanceof Long lx && b instanceof Long ly) return intOp(op, lx, ly);
        Object x = toNumber(a);
        Object y = toNumber(b);
        if (x == null || y == null) return null;
        double dx = x instanceof Long l ? (double) l : (Double) x;
        double dy = y instanceof Long l ? (double) l : (Double) y;
        return floatOp(op, dx, dy);
    }

    static long intOp(int op, long x, long y) {
        if (op == ADD) return x + y;
        if (op == SUB) return x - y;
        if (op == MUL) return x * y;
        if (op == MOD) return imod(x, y);
        if (op == IDIV) return idiv(x, y);
        if (op == BAND) return x & y;
        if (op == BOR) return x | y;
        if (op == BXOR) return x ^ y;
        if (op == SHL) return shiftLeft(x, y);
        if (op == SHR) return shiftLeft(x, -y);
        if (op == UNM) return -x;
        if (op == BNOT) return ~x;
        throw new IllegalStateException("not an integer op: " + op);
    }

    static double floatOp(int op, double x, double y) {
        if (op == ADD) return x + y;
        if (op == SUB) return x - y;
        if (op == MUL) return x * y;
        if (op == DIV) return x / y;
        if (op == MOD) return fmod(x, y);
        if (op == IDIV) return Math.floor(x / y);
        if (op == POW) return pow(x, y);
        if (op == UNM) return -x;
        throw new IllegalStateException("not a float op: " + op);
    }

    /** luaV_div: floor division; n // 0 is an error, mininteger // -1 wraps. */
    static long idiv(long m, long n) {
        if (n == 0) throw VmError.run("attempt to divide by zero");
        if (n == -1) return -m;
        return Math.floorDiv(m, n);
    }

    /** luaV_mod: floor modulo; n % 0 is an error. */
    static long imod(long m, long n) {
        if (n == 0) throw VmError.run("attempt to perform 'n%0'");
        if (n == -1) return 0;
        return Math.floorMod(m, n);
    }

    /** luai_nummod: C fmod, then adjusted towards the sign of the divisor. */
    static double fmod(double a, double b) {
        double m = a % b;
        if (m * b < 0) m += b; // luai_nummod of 5.3
        return m;
    }

    /** C pow, whose special cases differ from Java's for a base of 1 and -1 with infinity. */
    public static double pow(double x, double y) {
        if (x == 1.0) return 1.0;
        if (y == 0.0) return 1.0;
        if (x == -1.0 && Double.isInfinite(y)) return 1.0;
        if (x == 0.0 && isOddInteger(y)) {
            // zero to an odd power keeps the zero's sign (HotSpot's intrinsic loses it for huge odd y)
            return y < 0 ? 1.0 / x : x;
        }
        // HotSpot's Math.pow intrinsic agrees with glibc's pow far more often than fdlibm does for
        // finite operands (the differential tester counts the last-bit differences), but it gets the
        // signs of some zero and infinite results wrong ((-inf)^-4.5 must be +0.0): for zero or
        // infinite bases, where every answer is an exact special case, use StrictMath (fdlibm).
        if (x == 0.0 || Double.isInfinite(x)) return StrictMath.pow(x, y);
        return Math.pow(x, y);
    }

    /** y is an odd integer (only doubles below 2^53 in magnitude can be odd). */
    private static boolean isOddInteger(double y) {
        return Math.abs(y) < 9007199254740992.0 && y == Math.rint(y) && (((long) y) & 1) != 0;
    }

    /** luaV_shiftl: shifts of 64 or more give 0, negative shifts go the other way (logical). */
    static long shiftLeft(long x, long y) {
        if (y < 0) {
            if (y <= -64) return 0;
            return x >>> -y;
        }
        if (y >= 64) return 0;
        return x << y;
    }

    // ---- exact comparisons between integers and floats (LTnum, LEnum)

    private static final double TWO63 = 9.223372036854775808E18;

    static boolean lt(Object a, Object b) {
        if (a instanceof Long x) {
            if (b instanceof Long y) return x < y;
            return ltIntFloat(x, (Double) b);
        }
        double x = (Double) a;
        if (b instanceof Double y) return x < y;
        return ltFloatInt(x, (Long) b);
    }

    static boolean le(Object a, Object b) {
        if (a instanceof Long x) {
            if (b instanceof Long y) return x <= y;
            return leIntFloat(x, (Double) b);
        }
        double x = (Double) a;
        if (b instanceof Double y) return x <= y;
        return leFloatInt(x, (Long) b);
    }

    /** i < f, exactly */
    static boolean ltIntFloat(long i, double f) {
        if (f != f) return false;
        if (f >= TWO63) return true;
        if (f > -TWO63) return i < (long) Math.ceil(f);
        return false;
    }

    static boolean leIntFloat(long i, double f) {
        if (f != f) return false;
        if (f >= TWO63) return true;
        if (f >= -TWO63) return i <= (long) Math.floor(f);
        return false;
    }

    static boolean ltFloatInt(double f, long i) {
        if (f != f) return false;
        if (f >= TWO63) return false;
        if (f >= -TWO63) return (long) Math.floor(f) < i;
        return true;
    }

    static boolean leFloatInt(double f, long i) {
        if (f != f) return false;
        if (f >= TWO63) return false;
        if (f > -TWO63) return (long) Math.ceil(f) <= i;
        return true;
    }

    /** Raw equality of two numbers of any subtype, exact. */
    static boolean numEquals(Object a, Object b) {
        if (a instanceof Long x) {
            if (b instanceof Long y) return x.longValue() == y.longValue();
            Long bi = LuaNumbers.floatToInteger((Double) b);
            return bi != null && bi.longValue() == x.longValue();
        }
        double x = (Double) a;
        if (b instanceof Double y) return x == y;
        Long ai = LuaNumbers.floatToInteger(x);
        return ai != null && ai.longValue() == (Long) b;
    }

    /** Float for-loop and such: a value as a Java double, or null. */
    static Double toDouble(Object v) {
        Object n = toNumber(v);
        if (n instanceof Long l) return (double) l;
        return (Double) n;
    }
}
