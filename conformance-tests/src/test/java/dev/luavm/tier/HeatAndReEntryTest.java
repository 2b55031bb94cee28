package dev.luavm.tier;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Limits;
import dev.luavm.Sandbox;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.luavm.tier.DirectCallsTest.Outcome;
import static dev.luavm.tier.DirectCallsTest.run;
import static dev.luavm.tier.DirectCallsTest.sameInEveryTier;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Heat per prototype per sandbox (closures made afresh in a loop are compiled in auto) and
 * library re-entries into compiled code (table.sort comparators, gsub callbacks, metamethods
 * called from Java): what a script observes stays the interpreter's.
 */
class HeatAndReEntryTest {
    static final String CLOSURES_IN_A_LOOP = """
            local function counter(start)
              local c = start
              local function inc(d) c = c + d; return c end
              local function get() return c end
              return inc, get
            end
            local total = 0
            for i = 1, 600 do
              local inc, get = counter(i)
              inc(1); inc(2)
              total = total + get()
            end
            local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
            local arr = {} for i = 1, 50 do arr[i] = i end
            for r = 1, 40 do
              local m = map(arr, function(x) return x * r % 97 end)
              total = total + m[#m]
            end
            local function range(k) return coroutine.wrap(function() for i = 1, k do coroutine.yield(i) end end) end
            for r = 1, 600 do for x in range(3) do total = total + x end end
            print(total)
            """;

    @Test
    void closuresMadeInALoopShareTheirPrototypesHeatAndAreCompiledInAuto() {
        LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
        Outcome a = run(vm, CLOSURES_IN_A_LOOP, Limits.defaults());
        assertEquals(sameInEveryTier(CLOSURES_IN_A_LOOP), a);
        List<String> compiled = vm.compiledFunctions();
        // each closure is entered at most a few times; only the shared count reaches the threshold
        for (int line : new int[] {3, 4, 16}) {
            assertTrue(compiled.contains("function <d.lua:" + line + ">"), line + " not compiled: " + compiled);
        }
        // line 19: range (one closure) and the coroutine body it wraps afresh each round, both
        assertEquals(2, compiled.stream().filter(n -> n.equals("function <d.lua:19>")).count(), compiled.toString());
    }

    @Test
    void aClosureMadeAfterItsPrototypeWasCompiledRunsCompiledFromItsFirstCall() {
        // probe(): compiled run frames on the Java stack (DirectCallsTest)
        String src = """
                local function mk() return function() return probe() end end
                for i = 1, 600 do mk()() end
                local b = probe()
                print(mk()() - b)
                """;
        Outcome a = run(LuaVM.builder().tier(Tier.AUTO).build(), src, Limits.defaults());
        assertEquals("1\n", a.output(), String.valueOf(a.error()));
    }

    @Test
    void heatIsPerSandboxAndACachedChunkHeatsTheSameCellsRunAfterRun() {
        LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
        String src = "local function f(x) return x + 1 end local s = 0 for i = 1, 100 do s = f(s) end print(s)";
        var chunk = vm.compile("@d.lua", src.getBytes(StandardCharsets.UTF_8));
        // other sandboxes of the VM: 100 entries each never compile f
        for (int i = 0; i < 8; i++) {
            try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).output(new ByteArrayOutputStream()).build()) {
                sb.run(chunk);
            }
        }
        assertFalse(vm.compiledFunctions().contains("function <d.lua:1>"), vm.compiledFunctions().toString());
        // one sandbox running the cached chunk again and again: its count carries from run to run
        try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).output(new ByteArrayOutputStream()).build()) {
            for (int i = 0; i < 6; i++) sb.run(chunk);
        }
        assertTrue(vm.compiledFunctions().contains("function <d.lua:1>"), vm.compiledFunctions().toString());
    }

    @Test
    void comparatorAndCallbackErrorsAndTracebacksAreTheInterpretersInEveryTier() {
        String src = """
                local function desc(x, y) return x > y end
                local t = {} for i = 1, 300 do t[i] = (i * 7919) % 1000 end
                table.sort(t, desc) print(t[1], t[300])
                local bad = {} for i = 1, 50 do bad[i] = i end bad[25] = "x"
                for round = 1, 20 do
                  local ok, e = pcall(table.sort, bad, function(a, b) return a < b end)
                  if round == 20 then print(ok, e) end
                end
                print(xpcall(table.sort, debug.traceback, bad, function(a, b) return a < b end))
                print(xpcall(table.sort, debug.traceback, {3, 2, 1}, function(a, b) error("cmp " .. a) end))
                print(("abcabc"):gsub("%w", function(c) return c:upper() end))
                for i = 1, 600 do assert(("x"):gsub("x", function(c) return c .. i end) == "x" .. i) end
                print(pcall(string.gsub, "abc", "%w", function(c) return c + 1 end))
                local mt = {__lt = function(a, b) return a.v < b.v end}
                local objs = {} for i = 1, 100 do objs[i] = setmetatable({v = (i * 37) % 101}, mt) end
                table.sort(objs) print(objs[1].v, objs[100].v)
                -- a comparator that yields: the C boundary, as today
                local co = coroutine.create(function() table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end) end)
                print(coroutine.resume(co))
                table.sort(t, function(a, b) return a.x < b end)
                """;
        Outcome c = sameInEveryTier(src);
        assertTrue(c.output().contains("attempt to compare string with number"), c.output());
        assertTrue(c.output().contains("in function 'table.sort'"), c.output());
        assertTrue(c.output().contains("false\tattempt to yield across a C-call boundary"), c.output());
        assertTrue(c.error() != null && c.error().contains("d.lua:20: attempt to index a number value (local 'a')"), c.error());
    }

    @Test
    void nestedSortInComparatorRecursionEndsInTheCatchableError() {
        // each comparator call re-enters table.sort: the re-entry cap ends it, never a host overflow
        String src = """
                local function cmp(a, b) table.sort({3, 2, 1}, cmp) return a < b end
                for i = 1, 3 do print(pcall(table.sort, {3, 2, 1}, cmp)) end
                local depth = 0
                local function cmp2(a, b) depth = depth + 1 if depth < 150 then table.sort({2, 1}, cmp2) end return a < b end
                table.sort({2, 1}, cmp2) print(depth)
                """;
        Outcome c = sameInEveryTier(src);
        assertTrue(c.output().startsWith("false\t"), c.output());
        assertTrue(c.output().contains("stack overflow"), c.output());
        assertTrue(c.error() == null, c.error());
    }

    @Test
    void gasExhaustionInsideACompiledComparatorStopsWhereTheInterpreterStops() {
        String src = """
                local function cmp(a, b) local s = 0 for i = 1, 20 do s = s + i end return a < b end
                while true do local t = {} for i = 1, 200 do t[i] = (i * 31) % 200 end table.sort(t, cmp) print(#t) end
                """;
        Outcome c = sameInEveryTier(src, Limits.defaults().withGas(3_000_000));
        assertTrue(c.error() != null && c.error().startsWith("LuaLimitException"), c.error());
    }
}
