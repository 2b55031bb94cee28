package dev.luavm.threats;

import dev.luavm.LuaException;
import dev.luavm.LuaLimitException.Limit;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.luavm.threats.ThreatSupport.assertScriptError;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** T6 Length computations overflow neither silently nor into Java exceptions. */
class T06SizeArithmeticTest {
    @Test
    void repOfTwoToTheFortyIsNotEmpty() {
        try {
            run("return string.rep('x', 2^40)");
            fail("string.rep('x', 2^40) returned");
        } catch (dev.luavm.LuaLimitException e) {
            assertTrue(e.limit() == Limit.MEMORY || e.limit() == Limit.GAS, e.toString());
        } catch (dev.luavm.LuaScriptException e) {
            assertTrue(e.getMessage().contains("too large"), e.getMessage());
        }
        List<Object> r = run("return pcall(string.rep, 'x', 2^40)");
        assertEquals(false, r.get(0));
        String msg = (String) r.get(1);
        assertTrue(msg.contains("not enough memory") || msg.contains("too large"), msg);
    }

    @Test
    void repWithSeparatorOverflow() {
        List<Object> r = run("return pcall(string.rep, 'xx', 2^62, ',')");
        assertEquals(false, r.get(0));
    }

    @Test
    void repAroundTheIntLimit() {
        assertEquals(false, run("return pcall(string.rep, 'x', 2^31)").get(0));
        assertEquals(false, run("return pcall(string.rep, 'x', 2^32 + 1)").get(0));
        assertEquals("", run("return string.rep('x', -1)").get(0));
    }

    @Test
    void concatAndMoveRanges() {
        assertThrows(LuaException.class, () -> run("return table.concat({}, '', 1, 2^40)"));
        assertScriptError("too many elements to move", "return table.move({}, -1, math.maxinteger, 2)");
        assertScriptError("wrap around", "return table.move({}, 1, math.maxinteger, 2)");
    }

    @Test
    void formatWidths() {
        assertThrows(LuaException.class, () -> run("return string.format('%999999999d', 1)"));
    }

    @Test
    void byteAndSubWithExtremeIndices() {
        assertEquals(List.of(), run("return string.byte('abc', math.mininteger, math.mininteger)"));
        assertEquals("abc", run("return string.sub('abc', math.mininteger, math.maxinteger)").get(0));
        assertEquals(List.of(), run("return string.byte('abc', 2^40, 2^41)"));
    }
}
