package dev.luavm.compiler;

import static dev.luavm.compiler.SyntaxErrorTest.compileMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** PUC's compile-time limits and their messages (expected strings from lua5.3). */
class LimitsTest {

    private static String names(String prefix, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) b.append(i > 1 ? "," : "").append(prefix).append(i);
        return b.toString();
    }

    @Test
    void localVariables() {
        assertEquals("OK", compileMessage("local " + names("a", 200), "=l"));
        assertEquals("l:1: too many local variables (limit is 200) in main function near <eof>",
            compileMessage("local " + names("a", 201), "=l"));
        assertEquals("l:2: too many local variables (limit is 200) in function at line 1 near 'end'",
            compileMessage("function f(a)\nlocal " + names("b", 200) + " end", "=l"));
    }

    /** outer: n1 locals; middle: n2 locals; inner uses them all as upvalues. */
    private static String upvalues(int n1, int n2) {
        StringBuilder s = new StringBuilder("local function outer()\n");
        for (int i = 1; i <= n1; i++) s.append("local a").append(i).append(" = ").append(i).append('\n');
        s.append("local function middle()\n");
        for (int i = 1; i <= n2; i++) s.append("local b").append(i).append(" = ").append(i).append('\n');
        s.append("local function inner()\nreturn ");
        for (int i = 1; i <= n1; i++) s.append('a').append(i).append('+');
        for (int i = 1; i <= n2; i++) s.append('b').append(i).append('+');
        return s.append("0\nend\nend\nend\n").toString();
    }

    @Test
    void upvalues() {
        assertEquals("OK", compileMessage(upvalues(150, 105), "=up"));
        assertEquals("up:260: too many upvalues (limit is 255) in function at line 259 near '+'",
            compileMessage(upvalues(150, 106), "=up"));
    }

    @Test
    void registers() {
        assertEquals("regs:1: function or expression needs too many registers near '1'",
            compileMessage("f(" + "1,".repeat(260) + "1)", "=regs"));
        assertEquals("regs:1: function or expression needs too many registers near '('",
            compileMessage("x = " + "f(1,".repeat(130) + "1" + ")".repeat(130), "=regs"));
    }

    @Test
    void controlStructureTooLong() {
        assertEquals("jmp:131071: control structure too long near 'end'",
            compileMessage("while x do " + "b = a\n".repeat(131070) + "end", "=jmp"));
        assertEquals("and:1: control structure too long near <eof>",
            compileMessage("x = a" + " and a".repeat(100_000), "=and"));
    }

    @Test
    void labelsAndGotos() {
        assertEquals("too many labels/gotos (limit is 32767)",
            compileMessage("do " + "goto l\n".repeat(40_000) + "::l:: end", "=g"));
    }

    @Test
    void manyConstantsGoThroughRegisters() {
        StringBuilder s = new StringBuilder("local t = {");
        for (int i = 0; i < 300; i++) s.append("'s").append(i).append("',");
        Prototype p = LuaCompiler.compile(s.append("}").toString().getBytes(StandardCharsets.ISO_8859_1), "=k");
        // constants beyond 255 cannot be RK operands but LOADK reaches them
        int loadk = 0;
        for (int i : p.code) if (Instr.op(i) == OpCode.LOADK) loadk++;
        assertEquals(300, loadk);
        assertEquals(300, p.constants.length);
        // a binary operation with a constant beyond MAXINDEXRK loads it first
        StringBuilder s2 = new StringBuilder();
        for (int i = 0; i < 300; i++) s2.append("x = a + ").append(i).append(".5\n");
        Prototype q = LuaCompiler.compile(s2.toString().getBytes(StandardCharsets.ISO_8859_1), "=k");
        int last = q.code[q.code.length - 2]; // SETTABUP of the last statement
        assertEquals(OpCode.SETTABUP, Instr.op(last));
    }

    @Test
    void loadkxBeyondMaxArgBx() {
        int n = Instr.MAXARG_Bx + 2;
        StringBuilder s = new StringBuilder("local t = {");
        for (int i = 0; i < n; i++) s.append(i).append(',');
        Prototype p = LuaCompiler.compile(s.append("}").toString().getBytes(StandardCharsets.ISO_8859_1), "=kx");
        int loadkx = 0;
        for (int pc = 0; pc < p.code.length; pc++) {
            if (Instr.op(p.code[pc]) == OpCode.LOADKX) {
                loadkx++;
                assertEquals(OpCode.EXTRAARG, Instr.op(p.code[pc + 1]));
            }
        }
        assertEquals(n - Instr.MAXARG_Bx - 1, loadkx);
    }
}
