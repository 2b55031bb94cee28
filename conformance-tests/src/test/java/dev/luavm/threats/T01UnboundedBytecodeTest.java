package dev.luavm.threats;

import dev.luavm.LuaLimitException.Limit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** T1 Unbounded bytecode: loops, goto, tail-call loops, huge for ranges end on gas (or time). */
class T01UnboundedBytecodeTest {
    @Test
    void whileTrue() {
        assertLimit(Limit.GAS, "while true do end");
    }

    @Test
    void repeatUntilFalse() {
        assertLimit(Limit.GAS, "local n = 0 repeat n = n + 1 until false");
    }

    @Test
    void gotoLoop() {
        assertLimit(Limit.GAS, "::top:: goto top");
    }

    @Test
    void tailCallLoop() {
        assertLimit(Limit.GAS, "local function f(n) return f(n + 1) end return f(1)");
    }

    @Test
    void mutualTailCalls() {
        assertLimit(Limit.GAS, "local g; local function f() return g() end; g = function() return f() end; return f()");
    }

    @Test
    void hugeNumericFor() {
        assertLimit(Limit.GAS, "for i = 1, math.maxinteger do end");
        assertLimit(Limit.GAS, "for i = 1, math.huge do end");
        assertLimit(Limit.GAS, "for i = math.maxinteger, math.mininteger, -1 do end");
    }

    @Test
    void forLoopAtTheTopOfTheIntegerRangeEnds() {
        assertEquals(List.of(3L), run("local n = 0 for i = math.maxinteger - 2, math.maxinteger do n = n + 1 end return n"));
        assertEquals(List.of(3L), run("local n = 0 for i = math.mininteger + 2, math.mininteger, -1 do n = n + 1 end return n"));
        assertEquals(List.of(1L), run("local n = 0 for i = math.maxinteger, math.maxinteger, 2^62 do n = n + 1 end return n"));
    }

    @Test
    void genericForOverAnEndlessIterator() {
        assertLimit(Limit.GAS, "for k in function() return 1 end do end");
    }

    @Test
    void timeLimitWhenGasIsPlenty() {
        assertLimit(Limit.TIME, TIGHT.withGas(Long.MAX_VALUE).withTimeout(Duration.ofMillis(200)), "while true do end");
    }

    @Test
    void gasIsChargedAtCalls() {
        assertLimit(Limit.GAS, "local function f() end while true do f() end");
    }
}
