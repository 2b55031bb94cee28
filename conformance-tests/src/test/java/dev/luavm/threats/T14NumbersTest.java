package dev.luavm.threats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.luavm.threats.ThreatSupport.assertScriptError;
import static dev.luavm.threats.ThreatSupport.run;
import static dev.luavm.threats.ThreatSupport.run1;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** T14 Numeric edge cases give Lua's answers or Lua's errors, never a Java exception. */
class T14NumbersTest {
    @Test
    void integerDivisionAndModuloEdges() {
        assertEquals(Long.MIN_VALUE, run1("return math.mininteger // -1"));
        assertEquals(0L, run1("return math.mininteger % -1"));
        assertScriptError("attempt to perform 'n%0'", "return 1 % 0");
        assertScriptError("attempt to divide by zero", "return 1 // 0");
        assertEquals(Double.POSITIVE_INFINITY, run1("return 1.0 // 0"));
        assertEquals("nan", String.valueOf(run1("local x = 1 % 0.0 return x ~= x and 'nan' or x")));
        assertEquals(Long.MIN_VALUE, run1("return math.maxinteger + 1"));
        assertEquals(Long.MIN_VALUE, run1("return math.abs(math.mininteger)"));
        assertEquals(Long.MIN_VALUE, run1("return -math.mininteger"));
    }

    @Test
    void formatOfUnrepresentableIntegers() {
        assertScriptError("number has no integer representation", "return string.format('%d', 2^63)");
        assertEquals("9223372036854775807", run1("return string.format('%d', math.maxinteger)"));
        assertEquals("-9223372036854775808", run1("return string.format('%d', math.mininteger)"));
    }

    @Test
    void nanKeys() {
        assertScriptError("table index is NaN", "local t = {} t[0/0] = 1");
        assertEquals(null, run1("local t = {} return t[0/0]"));
        assertScriptError("table index is nil", "local t = {} t[nil] = 1");
        assertEquals(null, run1("return rawget({}, 0/0)"));
    }

    @Test
    void forLoopOverflowAndSteps() {
        // Lua 5.3 has no "'for' step is zero" error (5.4 does): a zero step runs no iteration
        assertEquals(List.of(0L), run("local n = 0 for i = 1, 10, 0 do n = n + 1 end return n"));
        assertEquals(List.of(2L), run("local n = 0 for i = math.maxinteger - 1, math.maxinteger, 1 do n = n + 1 end return n"));
        assertEquals(List.of(1L), run("local n = 0 for i = math.mininteger, math.mininteger, -1 do n = n + 1 end return n"));
        assertEquals(List.of(0L), run("local n = 0 for i = 1, 0 do n = n + 1 end return n"));
        assertEquals(List.of(2L), run("local n = 0 for i = 1.0, 2.0 do n = n + 1 end return n"));
        assertScriptError("'for' limit must be a number", "for i = 1, 'x' do end");
    }

    @Test
    void conversions() {
        assertEquals(null, run1("return math.tointeger(2^63)"));
        assertEquals(true, run1("return 2^63 == math.maxinteger + 1.0"));
        assertEquals("-0.0", run1("return tostring(-0.0)"));
        assertEquals("1e+100", run1("return tostring(1e100)"));
        assertEquals(null, run1("return tonumber('0x')"));
        assertEquals(-1L, run1("return tonumber('0xffffffffffffffff')"));
        assertEquals(9.223372036854776E18, run1("return tonumber('9223372036854775808')"));
        assertScriptError("number has no integer representation", "return 1.5 | 0");
        assertScriptError("number has no integer representation", "return ('x'):rep(1.5)");
        assertEquals(0L, run1("return 1 << 64"));
        assertEquals(0L, run1("return 1 >> 64"));
        assertEquals(Long.MIN_VALUE, run1("return 1 << 63"));
    }

    @Test
    void mathFunctionsAtTheEdges() {
        assertScriptError("interval is empty", "return math.random(2, 1)");
        assertScriptError("interval too large", "return math.random(math.mininteger, math.maxinteger)");
        assertEquals(true, run1("local r = math.random(0, math.maxinteger) return math.type(r) == 'integer'"));
        assertEquals(Long.MAX_VALUE, run1("return math.ult(1, -1) and math.maxinteger"));
        assertEquals(Double.NEGATIVE_INFINITY, run1("return math.log(0)"));
        assertEquals(Long.MIN_VALUE, run1("return math.floor(-2^63)"));
        assertEquals(Double.POSITIVE_INFINITY, run1("return math.floor(math.huge)"));
    }
}
