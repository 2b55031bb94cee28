package dev.luavm.compiler;

import static dev.luavm.compiler.SyntaxErrorTest.compileMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.bytecode.Prototype;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The nesting guard: anything nested deeper than PUC's 200 "C levels" fails with PUC's message
 * (expected strings from lua5.3, load(s, "=name")), never with a StackOverflowError, while long
 * flat chains that PUC compiles compile here too, in near-linear time.
 */
class NestingGuardTest {
    private static final int N = 100_000;

    private static String rep(String s, int n) {
        return s.repeat(n);
    }

    private static void assertMessage(String name, String source, String expected) {
        assertEquals(expected, compileMessage(source, "=" + name), name);
    }

    private static final String C_LEVELS_MAIN = ":1: too many C levels (limit is 200) in main function near ";
    private static final String C_LEVELS_FUNC = ":1: too many C levels (limit is 200) in function at line 1 near ";

    @Test
    void deepNestingFailsCleanly() {
        assertMessage("parens", "x = " + rep("(", N) + "1" + rep(")", N), "parens" + C_LEVELS_MAIN + "'('");
        assertMessage("open", rep("(", N), "open" + C_LEVELS_MAIN + "'('");
        assertMessage("tables", "x = " + rep("{", N) + rep("}", N), "tables" + C_LEVELS_MAIN + "'{'");
        assertMessage("do", rep("do ", N) + rep("end ", N), "do" + C_LEVELS_MAIN + "'do'");
        assertMessage("func", rep("function f() ", N) + rep("end ", N), "func" + C_LEVELS_FUNC + "'function'");
        assertMessage("ret", rep("return function() ", N) + rep("end ", N), "ret" + C_LEVELS_FUNC + "'return'");
        assertMessage("lf", rep("local function f() ", N) + rep("end ", N), "lf" + C_LEVELS_FUNC + "'local'");
        assertMessage("unary", "x = " + rep("- ", N) + "1", "unary" + C_LEVELS_MAIN + "'-'");
        assertMessage("not", "x = " + rep("not ", N) + "1", "not" + C_LEVELS_MAIN + "'not'");
        assertMessage("concat", "x = a" + rep(" .. a", N), "concat" + C_LEVELS_MAIN + "'a'");
        assertMessage("pow", "x = a" + rep(" ^ a", N), "pow" + C_LEVELS_MAIN + "'a'");
        assertMessage("powneg", "x = a" + rep(" ^ -a", N), "powneg" + C_LEVELS_MAIN + "'-'");
        assertMessage("assign", rep("a,", N) + "a = 1", "assign" + C_LEVELS_MAIN + "','");
        assertMessage("index", "x = " + rep("a[", N) + "1" + rep("]", N), "index" + C_LEVELS_MAIN + "'a'");
        assertMessage("call", rep("f(", N) + rep(")", N), "call" + C_LEVELS_MAIN + "'f'");
        assertMessage("if", rep("if x then ", N) + rep("end ", N), "if" + C_LEVELS_MAIN + "'x'");
        assertMessage("while", rep("while x do ", N) + rep("end ", N), "while" + C_LEVELS_MAIN + "'x'");
        assertMessage("repeat", rep("repeat ", N) + rep("until x ", N), "repeat" + C_LEVELS_MAIN + "'repeat'");
    }

    @Test
    void exactThresholds() {
        // 197 parentheses fail in PUC (statement + expression + 197 levels + 2 levels in use)
        assertMessage("p", "x = " + rep("(", 196) + "1" + rep(")", 196), "OK");
        assertMessage("p", "x = " + rep("(", 197) + "1" + rep(")", 197), "p" + C_LEVELS_MAIN + "'1'");
        assertMessage("d", rep("do ", 198) + rep("end ", 198), "OK");
        assertMessage("d", rep("do ", 199) + rep("end ", 199), "d" + C_LEVELS_MAIN + "'do'");
        assertMessage("c", "x = a" + rep(" .. a", 196), "OK");
        assertMessage("c", "x = a" + rep(" .. a", 197), "c" + C_LEVELS_MAIN + "'a'");
        assertMessage("t", "x = " + rep("{", 197) + rep("}", 197), "OK");
        assertMessage("t", "x = " + rep("{", 198) + rep("}", 198), "t" + C_LEVELS_MAIN + "'{'");
        assertMessage("a", rep("a,", 197) + "a = 1", "OK");
        assertMessage("a", rep("a,", 198) + "a = 1", "a" + C_LEVELS_MAIN + "'='");
        // labels nest (each one parses the no-op statements after it), semicolons do not
        assertMessage("l", "::a0::" + rep(";", 300), "OK");
    }

    private static Prototype compile(String source) {
        return LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "=flat");
    }

    @Test
    void longFlatChainsCompile() {
        Prototype p = compile("x = 1" + rep("+1", N));
        assertEquals(Long.valueOf(N + 1), p.constants[1]); // folded: x = 100001
        compile("f" + rep("()", 10_000));
        compile("x = a" + rep(".b.c[d]:m()", 2_000));
        compile(rep("x=x..x\n", 20_000));
        compile("if x then " + rep("elseif x then y() ", 20_000) + "end");
        compile("x = a" + rep(" and b or c", 10_000));
        compile("x = {" + rep("1,", N) + "}");
        compile("x = a" + rep(" < a", 20_000));
    }

    @Test
    void workIsMetered() {
        long[] total = {0};
        int[] calls = {0};
        LuaCompiler.compile(rep("x = 1\n", 1000).getBytes(StandardCharsets.ISO_8859_1), "=w", n -> {
            total[0] += n;
            calls[0]++;
        });
        // 1 gas per 8 source bytes and 4 per token in each of the two passes, 4 per rule
        // invocation of the parse, in batches
        assertTrue(total[0] >= 2 * 6000 / 8 + 2 * 4 * 3001 + 4 * 1000, "work " + total[0]);
        assertTrue(calls[0] >= 3001 / CompileAccount.BATCH);
    }

    @Test
    void aThreadWithLittleStackCompilesWhatPucAcceptsNeverAStackOverflow() throws Exception {
        // the syntax check's recursion, ANTLR's and the compiler's: on a 64 KB thread stack any
        // of them runs out first, at PUC's deepest nesting; the compile is done again on a roomy
        // thread, for the same gas as on a big stack
        String[] deep = {"x = " + rep("(", 190) + "1" + rep(")", 190), "x = " + rep("{", 190) + rep("}", 190),
            "return " + rep("f(", 190) + rep(")", 190), rep("do ", 190) + rep("end ", 190)};
        for (String source : deep) {
            Object[] outcome = new Object[1];
            long[] gas = {0, 0}; // on this thread, on the small one
            // once first: the parse's SLL attempt may fall back to LL the first time and not once
            // ANTLR's shared prediction cache is warm, so only warm compiles are compared
            LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "=s");
            LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "=s", n -> gas[0] += n);
            Thread t = new Thread(null, () -> {
                try {
                    LuaCompiler.compile(source.getBytes(StandardCharsets.ISO_8859_1), "=s", n -> gas[1] += n);
                    outcome[0] = "compiled";
                } catch (Throwable e) {
                    outcome[0] = e;
                }
            }, "small-stack", 64 << 10);
            t.start();
            t.join();
            assertEquals("compiled", outcome[0], source.substring(0, 8));
            assertEquals(gas[0], gas[1], "gas of " + source.substring(0, 8) + " on a 64 KB thread");
        }
    }
}
