package dev.luavm.threats;

import dev.luavm.LuaException;
import dev.luavm.LuaSyntaxException;
import dev.luavm.LuaVM;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** T8 Deep syntax gives a clean parse error with a line number (or compiles), never a Java error. */
class T08ParserDepthTest {
    private static final int N = 100_000;

    /** Compiles {@code src}; it must either compile or fail with a positioned syntax error. */
    private static void assertCleanCompile(String src) {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            try {
                LuaVM.create().compile("deep", src);
            } catch (LuaSyntaxException e) {
                assertTrue(e.getMessage().matches("(?s)deep:\\d+: .*"), e.getMessage());
                assertTrue(e.line() > 0, e.getMessage());
            } catch (LuaException e) {
                // a limit (gas for compilation work) is also clean
            } catch (Throwable t) {
                fail("escaped the compiler: " + t, t);
            }
        });
    }

    private static void assertSyntaxError(String src) {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            try {
                LuaVM.create().compile("deep", src);
                fail("compiled");
            } catch (LuaSyntaxException e) {
                assertTrue(e.line() > 0, e.getMessage());
            } catch (Throwable t) {
                fail("escaped the compiler: " + t, t);
            }
        });
    }

    @Test
    void openParentheses() {
        assertSyntaxError("return " + "(".repeat(N));
        assertSyntaxError("return " + "(".repeat(N) + "1" + ")".repeat(N));
    }

    @Test
    void nestedFunctions() {
        assertSyntaxError("return " + "function() return ".repeat(N / 10) + "1" + " end".repeat(N / 10));
    }

    @Test
    void nestedTables() {
        assertSyntaxError("return " + "{".repeat(N) + "}".repeat(N));
    }

    @Test
    void unaryChains() {
        assertSyntaxError("return " + "- ".repeat(N) + "1"); // spaced: "--" would start a comment
        assertSyntaxError("return " + "~".repeat(N) + "1");
        assertSyntaxError("return " + "#".repeat(N) + "'x'");
        assertSyntaxError("return " + "not ".repeat(N) + "true");
    }

    @Test
    void rightAssociativeChains() {
        assertCleanCompile("return " + "'a' .. ".repeat(N) + "'a'");
        assertCleanCompile("return " + "2 ^ ".repeat(N) + "2");
    }

    @Test
    void leftDeepChains() {
        assertCleanCompile("return " + "1 + ".repeat(N) + "1");
        assertCleanCompile("local f = function() return f end return f" + "()".repeat(N));
        assertCleanCompile("local t = {} return t" + ".x".repeat(N));
    }

    @Test
    void deepBlocks() {
        assertSyntaxError("do ".repeat(N) + " end".repeat(N));
        assertSyntaxError("if true then ".repeat(N) + " end".repeat(N));
    }

    @Test
    void throughLoadInsideTheSandbox() {
        List<Object> r = run("return load(string.rep('(', 1e5))");
        assertNull(r.get(0));
        assertTrue(((String) r.get(1)).matches("(?s).*:\\d+: .*"), String.valueOf(r.get(1)));
    }

    @Test
    void leftDeepChainRuns() {
        assertEquals(List.of(10_001L), run("return " + "1 + ".repeat(10_000) + "1"));
    }
}
