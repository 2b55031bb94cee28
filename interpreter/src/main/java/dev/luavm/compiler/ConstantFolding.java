package dev.luavm.compiler;

/**
 * Compile-time arithmetic, exactly where Lua 5.3 folds (lcode.c {@code constfolding} and
 * {@code validop}): numeric operands only; no division or modulo by zero; bitwise operations
 * only on operands with an exact integer representation; and never a result that is NaN or a
 * float zero (to keep -0.0 apart from 0.0). Semantics follow {@code luaO_arith}.
 */
final class ConstantFolding {
    private ConstantFolding() {}

    /** Operators that can fold, in PUC's LUA_OPADD.. order (the OpCode order ADD..SHR, then UNM, BNOT). */
    enum Op { ADD, SUB, MUL, MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR, UNM, BNOT }

    /** Folds {@code a op b} (b is ignored for unary ops); null when 5.3 would not fold. */
    static Object fold(Op op, Object a, Object b) {
        if (a == null || b == null || !validOp(op, a, b)) return null;
        Object r = arith(op, a, b);
        if (r instanceof Double d && (d.isNaN() || d == 0.0)) return null;
        return r;
    }

    private static boolean validOp(Op op, Object a, Object b) {
        switch (op) {
            case BAND: case BOR: case BXOR: case SHL: case SHR: case BNOT:
                return toInteger(a) != null && toInteger(b) != null;
            case DIV: case IDIV: case MOD:
                return toDouble(b) != 0;
            default:
                return true;
        }
    }

    static double toDouble(Object n) {
        return n instanceof Long l ? (double) l : (Double) n;
    }

    /** The integer with the same value, or null (PUC's luaV_tointeger, exact mode). */
    static Long toInteger(Object n) {
        if (n instanceof Long l) return l;
        double d = (Double) n;
        if (Math.floor(d) == d && d >= -0x1p63 && d < 0x1p63) return (long) d;
        return null;
    }

    static long shiftLeft(long x, long y) {
        if (y < 0) {
            if (y <= -64) return 0;
            return x >>> -y;
        }
        if (y >= 64) return 0;
        return x << y;
    }

    private static Object arith(Op op, Object a, Object b) {
        switch (op) {
            case BAND: return toInteger(a) & toInteger(b);
            case BOR: return toInteger(a) | toInteger(b);
            case BXOR: return toInteger(a) ^ toInteger(b);
            case SHL: return shiftLeft(toInteger(a), toInteger(b));
            case SHR: return shiftLeft(toInteger(a), -toInteger(b));
            case BNOT: return ~toInteger(a);
            case DIV: return toDouble(a) / toDouble(b);
            case POW: return Math.pow(toDouble(a), toDouble(b));
            default: break;
        }
        if (a instanceof Long x && b instanceof Long y) {
            switch (op) {
                case ADD: return x + y;
                case SUB: return x - y;
                case MUL: return x * y;
                case MOD: {
                    long m = x % y;
                    if (m != 0 && (m ^ y) < 0) m += y;
                    return m;
                }
                case IDIV: return Math.floorDiv(x, y);
                case UNM: return -x;
                default: throw new AssertionError(op);
            }
        }
        double x = toDouble(a);
        double y = toDouble(b);
        switch (op) {
            case ADD: return x + y;
            case SUB: return x - y;
            case MUL: return x * y;
            case MOD: {
                double m = x % y;
                if (m * y < 0) m += y;
                return m;
            }
            case IDIV: return Math.floor(x / y);
            case UNM: return -x;
            default: throw new AssertionError(op);
        }
    }
}
