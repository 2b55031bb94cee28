package dev.luavm.threats;

import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaVM;
import dev.luavm.conformance.TestTier;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.luavm.threats.ThreatSupport.assertAnyLimit;
import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.assertScriptError;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T4 Builtin amplification: one library call doing unbounded work is charged per byte or
 * element, so a loop of them ends on gas long before the time limit. Compilation is metered.
 */
class T04BuiltinAmplificationTest {
    @Test
    void stringRep() {
        assertAnyLimit("local s = string.rep('x', 1e8)", Limit.GAS, Limit.MEMORY);
        assertLimit(Limit.GAS, "while true do local s = string.rep('x', 1e6) end");
    }

    @Test
    void tableConcat() {
        assertLimit(Limit.GAS, "local t = {} for i = 1, 1000 do t[i] = string.rep('x', 100) end "
                + "while true do local s = table.concat(t) end");
    }

    @Test
    void findOverMegabytes() {
        assertLimit(Limit.GAS, "local s = string.rep('a', 1e6) while true do s:find('b', 1, true) end");
        assertLimit(Limit.GAS, "local s = string.rep('a', 1e6) while true do s:find('a-b') end");
    }

    @Test
    void patternBacktracking() {
        assertLimit(Limit.GAS, "return string.find(string.rep('a', 5000), '.-.-.-.-b')");
    }

    @Test
    void insertDrivenByAHugeFakeLen() {
        assertAnyLimit("table.insert(setmetatable({}, {__len = function() return 2^40 end}), 1, 'x')", Limit.GAS, Limit.MEMORY);
    }

    @Test
    void sortIsChargedPerComparison() {
        try (dev.luavm.Sandbox sb = ThreatSupport.sandbox()) {
            sb.eval("t = {} for i = 1, 1e5 do t[i] = (i * 7919) % 1000003 end");
            sb.eval("table.sort(t)");
            long gas = sb.usage().gas();
            System.out.println("[T4] table.sort of 100,000 integers charged " + gas + " gas");
            assertTrue(gas >= 100_000, "sort charged only " + gas);
        }
        assertLimit(Limit.GAS, "local t = {} for i = 1, 1e5 do t[i] = i end while true do table.sort(t) end");
    }

    @Test
    void format() {
        assertLimit(Limit.GAS, "local s = string.rep('x', 1e5) while true do local r = string.format('%s%s', s, s) end");
    }

    @Test
    void unpackRanges() {
        assertScriptError("too many results", "return table.unpack({}, 1, 1e8)");
        assertScriptError("too many results", "return table.unpack({}, math.mininteger, math.maxinteger)");
    }

    @Test
    void loadOfABigSource() {
        // metered per token; compilation is slower per gas unit than bytecode, so the clock may come first
        assertAnyLimit("local src = string.rep('x = 1\\n', 2e5) while true do load(src) end", Limit.GAS, Limit.MEMORY, Limit.TIME);
    }

    @Test
    void compilationIsNearLinearInElseifs() {
        StringBuilder src = new StringBuilder("local x = 0\nif x == 0 then x = 1\n");
        for (int i = 1; i < 20_000; i++) src.append("elseif x == ").append(i).append(" then x = ").append(i).append('\n');
        src.append("end\nreturn x\n");
        // about 600 KB of source: more compiler heap than the default compile memory (T18)
        LuaVM vm = TestTier.builder().limits(Limits.defaults().withTimeout(Duration.ofSeconds(30)))
                .compileMemory(1L << 30).build();
        long t0 = System.nanoTime();
        CompiledChunk chunk = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> vm.compile("elseifs", src.toString()));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("[T4] compiled 20,000 elseifs in " + ms + " ms");
        assertTrue(chunk != null);
    }

    @Test
    void compilationCountsAgainstGas() {
        String big = "x = 1 ".repeat(2_000_000);
        LuaVM vm = TestTier.builder().limits(Limits.defaults().withGas(1000)).build();
        assertTimeoutPreemptively(ThreatSupport.WALL, () ->
                org.junit.jupiter.api.Assertions.assertThrows(dev.luavm.LuaLimitException.class, () -> vm.compile("big", big)));
    }
}
