package dev.luavm.compiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Constant folding happens exactly where 5.3 folds: numeric operands, no division or modulo
 * by zero, bitwise operations only on integer-valued operands, no NaN or float-zero result.
 * Cases checked against luac5.3.
 */
class ConstantFoldingTest {

    /** Compiles {@code return <expr>} and returns the code of the main function. */
    private static Prototype ret(String expr) {
        return LuaCompiler.compile(("return " + expr).getBytes(StandardCharsets.ISO_8859_1), "=f");
    }

    /** The expression folds to the single constant {@code value}: LOADK, RETURN, RETURN. */
    private static void assertFolds(String expr, Object value) {
        Prototype p = ret(expr);
        assertEquals(OpCode.LOADK, Instr.op(p.code[0]), expr);
        assertEquals(3, p.code.length, expr);
        assertArrayEquals(new Object[] {value}, p.constants, expr);
    }

    /** The expression does not fold: its last instruction before RETURN is {@code op}. */
    private static void assertNotFolded(String expr, OpCode op) {
        Prototype p = ret(expr);
        assertEquals(op, Instr.op(p.code[p.code.length - 3]), expr);
    }

    @Test
    void folds() {
        assertFolds("1 + 2", 3L);
        assertFolds("1 + 2.0", 3.0);
        assertFolds("7 // 2", 3L);
        assertFolds("7.0 // 2", 3.0);
        assertFolds("-7 % 3", 2L);
        assertFolds("5.5 % -2", -0.5);
        assertFolds("2 ^ 10", 1024.0);
        assertFolds("1 / 2", 0.5);
        assertFolds("3 & 5 | 8 ~ 1", 9L); // & binds tighter than ~, ~ tighter than |
        assertFolds("1 << 63", Long.MIN_VALUE);
        assertFolds("1 << 64", 0L);
        assertFolds("-1 >> 1", Long.MAX_VALUE);
        assertFolds("~0", -1L);
        assertFolds("~1.0", -2L);
        assertFolds("3.0 & 1", 1L);
        assertFolds("- 3", -3L);
        assertFolds("-(-9223372036854775807 - 1)", Long.MIN_VALUE);
        assertFolds("9223372036854775807 + 1", Long.MIN_VALUE);
        assertFolds("0x7fffffffffffffff * 2", -2L);
        assertFolds("2^53 + 1", 9007199254740992.0);
    }

    @Test
    void doesNotFold() {
        assertNotFolded("1 // 0", OpCode.IDIV);
        assertNotFolded("1 % 0", OpCode.MOD);
        assertNotFolded("1 / 0", OpCode.DIV);
        assertNotFolded("1.5 & 1", OpCode.BAND);
        assertNotFolded("1 << 1.5", OpCode.SHL);
        assertNotFolded("~1.5", OpCode.BNOT);
        assertNotFolded("2^1024 & 1", OpCode.BAND); // inf is not an integer
        assertNotFolded("0 * -1.0", OpCode.MUL); // -0.0
        assertNotFolded("1.0 - 1", OpCode.SUB); // 0.0
        assertNotFolded("- 0.0", OpCode.UNM);
        assertNotFolded("\"1\" + 1", OpCode.ADD); // strings never fold
        assertNotFolded("#\"abc\"", OpCode.LEN);
        assertNotFolded("1 .. 2", OpCode.CONCAT);
        assertNotFolded("0/0 + 1", OpCode.ADD); // 0/0 itself is not folded
    }

    @Test
    void integerAndFloatConstantsStayApart() {
        Prototype p = LuaCompiler.compile("local a, b, c, d = 1, 1.0, 1, '1'".getBytes(StandardCharsets.ISO_8859_1), "=k");
        assertArrayEquals(new Object[] {1L, 1.0, dev.luavm.value.LuaString.of("1")}, p.constants);
    }

    @Test
    void notOfConstants() {
        Prototype p = ret("not nil, not 1");
        assertEquals(OpCode.LOADBOOL, Instr.op(p.code[0]));
        assertEquals(1, Instr.b(p.code[0]));
        assertEquals(0, Instr.b(p.code[1]));
    }
}
