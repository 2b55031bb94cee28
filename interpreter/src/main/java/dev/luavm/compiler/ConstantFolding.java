package dev.luavm.compiler;

import dev.luavm.bytecode.OpCode;
import dev.luavm.vm.Arith;

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
                return Arith.toInteger(a) != null && Arith.toInteger(b) != null;
            case DIV: case IDIV: case MOD:
                return (b instanceof Long l ? (double) l : (Double) b) != 0;
            default:
                return true;
        }
    }

    /** luaO_arith: the VM's own arithmetic, so a folded constant is what the run would compute. */
    private static Object arith(Op op, Object a, Object b) {
        return Arith.arith(FIRST_ARITH_OPCODE + op.ordinal(), a, b);
    }

    /** Op is in OpCode order from ADD (ADD..SHR, UNM, BNOT), so ordinals map by an offset. */
    private static final int FIRST_ARITH_OPCODE = OpCode.ADD.ordinal();

    static {
        for (Op op : Op.values()) {
            if (!OpCode.values()[FIRST_ARITH_OPCODE + op.ordinal()].name().equals(op.name())) {
                throw new AssertionError("ConstantFolding.Op is out of OpCode order at " + op);
            }
        }
    }
}
