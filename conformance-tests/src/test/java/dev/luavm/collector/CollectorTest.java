package dev.luavm.collector;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The deterministic collector: weak tables, ephemerons and __gc finalizers, through the public API.
 * Most objects are made inside a function that returns before the collection, so no register
 * of the chunk holds them; a loop's dead temporaries do not keep objects alive either (tested).
 */
class CollectorTest {
    private static final LuaVM VM = LuaVM.create();

    private static List<Object> run(String script) {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults())) {
            return sb.evalAll("gc", script);
        }
    }

    @Test
    void finalizersFoundUnderMemoryPressureRunAtTheNextLibraryCall() {
        // no collectgarbage: the meter's walk at the cap finds the object, the next builtin call finalizes it
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults().withMemory(2L << 20))) {
            List<Object> r = sb.evalAll("gc", String.join("\n",
                    "local finalized = false",
                    ";(function() setmetatable({}, {__gc = function() finalized = true end}) end)()",
                    "local rounds = 0",
                    "while not finalized and rounds < 100000 do",
                    "  rounds = rounds + 1",
                    "  local garbage = {} for i = 1, 64 do garbage[i] = i end",
                    "  local _ = math.abs(rounds)",   // a library call: where queued finalizers run
                    "end",
                    "return finalized, rounds < 100000"));
            assertEquals(List.of(true, true), r);
        }
    }

    @Test
    void weakCachesAreEmptiedByCollectgarbage() {
        assertEquals(List.of(100L, 0L, 3L), run(String.join("\n",
                "local cache = setmetatable({}, {__mode = 'v'})",
                "local keep = {}",
                "for i = 1, 100 do cache[i] = {i} end",
                "for i = 1, 3 do keep[i] = cache[i] end",
                "local before = 0 for _ in pairs(cache) do before = before + 1 end",
                "collectgarbage()",
                "local after = 0 for k in pairs(cache) do after = after + 1 end",
                "local weakKeys = setmetatable({}, {__mode = 'k'})",
                ";(function() for i = 1, 50 do weakKeys[{}] = i end end)()",
                "collectgarbage('collect')",
                "return before, next(weakKeys) == nil and 0 or 1, after")));
    }

    @Test
    void stringsAndNumbersStayInWeakTables() {
        assertEquals(List.of("v", 1L, true, false), run(String.join("\n",
                "local t = setmetatable({}, {__mode = 'kv'})",
                "t.str = 'v'; t[1] = 1; t[2] = {}; t[print] = true; t[{}] = 1",
                "collectgarbage()",
                "local n = 0 for k in pairs(t) do if type(k) == 'table' then n = n + 1 end end",
                "return t.str, t[1], t[print], t[2] ~= nil or n > 0")));
    }

    @Test
    void ephemeronsDoNotKeepTheirKeysAlive() {
        assertEquals(List.of(0L, 1L), run(String.join("\n",
                "local e = setmetatable({}, {__mode = 'k'})",
                "do local a = {} e[a] = {a} end", // the value refers to its own key
                "do local b, c = {}, {} e[b] = c e[c] = b end", // a cycle through two entries
                "local kept = {} e[kept] = {kept}",
                "collectgarbage()",
                "local n = 0 for k in pairs(e) do n = n + 1 end",
                "return n - 1, n")));
    }

    @Test
    void aValueReachableOnlyThroughALiveKeyStays() {
        assertEquals(List.of("deep"), run(String.join("\n",
                "local e = setmetatable({}, {__mode = 'k'})",
                "local k1 = {}",
                "do local k2 = {} e[k1] = k2 e[k2] = {v = 'deep'} end",
                "collectgarbage()",
                "return e[e[k1]].v")));
    }

    @Test
    void finalizersRunInReverseOrderOfMarkingAtMostOnce() {
        assertEquals(List.of("3 2 1", "3 2 1"), run(String.join("\n",
                "local order = {}",
                "(function() for i = 1, 3 do setmetatable({}, {__gc = function() order[#order + 1] = i end}) end end)()",
                "collectgarbage()",
                "local first = table.concat(order, ' ')",
                "collectgarbage() collectgarbage()",
                "return first, table.concat(order, ' ')")));
    }

    @Test
    void aLoopsDeadTemporariesDoNotKeepObjectsAlive() {
        assertEquals(List.of("3 2 1", 0L), run(String.join("\n",
                "local order = {}",
                "for i = 1, 3 do setmetatable({}, {__gc = function() order[#order + 1] = i end}) end",
                "local w = setmetatable({}, {__mode = 'k'})",
                "for i = 1, 3 do w[{}] = i end",
                "collectgarbage()",
                "local n = 0 for _ in pairs(w) do n = n + 1 end",
                "return table.concat(order, ' '), n")));
    }

    @Test
    void onlyAMetatableWithGcWhenSetMarksForFinalization() {
        assertEquals(List.of(0L), run(String.join("\n",
                "local n = 0",
                "local mt = {}",
                "setmetatable({}, mt)",
                "mt.__gc = function() n = n + 1 end", // too late, as in PUC
                "collectgarbage()",
                "return n")));
    }

    @Test
    void resurrectedObjectsLeaveWeakValuesAtOnceAndWeakKeysLater() {
        assertEquals(List.of(true, true, true, true), run(String.join("\n",
                "local wk = setmetatable({}, {__mode = 'k'})",
                "local wv = setmetatable({}, {__mode = 'v'})",
                "local saved",
                "(function() local o = setmetatable({}, {__gc = function(o) saved = o end}) wk[o] = 1 wv[1] = o end)()",
                "collectgarbage()",
                "local a, b, c = saved ~= nil, next(wk) ~= nil, wv[1] == nil",
                "saved = nil collectgarbage()",
                "return a, b, c, next(wk) == nil")));
    }

    @Test
    void errorsInFinalizersPropagateAsInPuc() {
        assertEquals(List.of(false, "error in __gc metamethod (gc:1: boom)", false, "error in __gc metamethod (no message)",
                        true, 1L),
                run(String.join("\n",
                        "setmetatable({}, {__gc = function() error('boom') end})",
                        "local ok1, m1 = pcall(collectgarbage)",
                        "setmetatable({}, {__gc = function() error({}) end})",
                        "local ok2, m2 = pcall(collectgarbage)",
                        "local n = 0",
                        "setmetatable({}, {__gc = function() n = n + 1 end})",
                        "setmetatable({}, {__gc = 42})", // not a function: skipped
                        "local ok3 = pcall(collectgarbage)",
                        "return ok1, m1, ok2, m2, ok3, n")));
    }

    @Test
    void anUncaughtErrorInAFinalizerReachesTheHost() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults())) {
            LuaScriptException e = assertThrows(LuaScriptException.class,
                    () -> sb.eval("gc", "(function() setmetatable({}, {__gc = function() error('x', 0) end}) end)() collectgarbage()"));
            assertEquals("error in __gc metamethod (x)", e.getMessage());
        }
    }

    @Test
    void finalizersRunUnderTheSandboxLimits() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults().withGas(1_000_000))) {
            assertThrows(dev.luavm.LuaLimitException.class,
                    () -> sb.eval("gc", "(function() setmetatable({}, {__gc = function() while true do end end}) end)() collectgarbage()"));
        }
    }

    @Test
    void countReportsWhatTheMeterHolds() {
        List<Object> r = run(String.join("\n",
                "collectgarbage()",
                "local before = collectgarbage('count')",
                "local t = {} for i = 1, 10000 do t[i] = {} end",
                "local during = collectgarbage('count')",
                "t = nil collectgarbage()",
                "local after = collectgarbage('count')",
                "return before, during, after, collectgarbage('step'), collectgarbage('isrunning')"));
        double before = (Double) r.get(0);
        double during = (Double) r.get(1);
        double after = (Double) r.get(2);
        assertTrue(during > before + 10000 * 64 / 1024.0, r::toString);
        assertTrue(after < before + 16, r::toString);
        assertEquals(false, r.get(3)); // a lone basic step right after a collection finishes no cycle, as in lua5.3
        assertEquals(true, r.get(4));
    }

    /** collectgarbage("step") as lua5.3 paces it (gc.lua's dosteps): true only for the step that finishes a cycle. */
    @Test
    void stepsArePacedAndTheOneThatFinishesACycleCollects() {
        List<Object> r = run(String.join("\n",
                "local function dosteps(siz)",
                "  collectgarbage()",
                "  local weak = setmetatable({}, {__mode = 'v'})",
                "  for i = 1, 100 do weak[i] = {{}} end",
                "  local i = 0",
                "  repeat i = i + 1 until collectgarbage('step', siz)",
                "  return i, next(weak) == nil",
                "end",
                "local basic, cleared = dosteps(0)",
                "local ten = dosteps(10)",
                "local two = dosteps(2)",
                "local big, bigCleared = dosteps(20000)",
                "return basic, cleared, ten < two, big, bigCleared, collectgarbage('step', 20000), collectgarbage('step', 20000)"));
        assertTrue((Long) r.get(0) > 10, r::toString); // gc.lua: assert(dosteps(0) > 10)
        assertEquals(List.of(true, true, 1L, true, true, true), r.subList(1, 7));
        // the same steps in every sandbox: pacing depends on the accounted heap only
        assertEquals(r, run(String.join("\n",
                "local function dosteps(siz)",
                "  collectgarbage()",
                "  local weak = setmetatable({}, {__mode = 'v'})",
                "  for i = 1, 100 do weak[i] = {{}} end",
                "  local i = 0",
                "  repeat i = i + 1 until collectgarbage('step', siz)",
                "  return i, next(weak) == nil",
                "end",
                "local basic, cleared = dosteps(0)",
                "local ten = dosteps(10)",
                "local two = dosteps(2)",
                "local big, bigCleared = dosteps(20000)",
                "return basic, cleared, ten < two, big, bigCleared, collectgarbage('step', 20000), collectgarbage('step', 20000)")));
    }

    /** lua_close runs every pending finalizer: Sandbox.close() does, in lua5.3's order, errors dropped. */
    @Test
    void closingTheSandboxRunsThePendingFinalizersAsLuaCloseDoes() {
        StringBuilder out = new StringBuilder();
        Sandbox sb = VM.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults())
                .output((bytes, off, len) -> out.append(new String(bytes, off, len, java.nio.charset.StandardCharsets.ISO_8859_1)))
                .build();
        sb.eval("gc", String.join("\n",
                "for i = 1, 3 do setmetatable({}, {__gc = function() print(i) end}) end",
                "keep = {} for i = 4, 6 do keep[i] = setmetatable({}, {__gc = function() print(i) end}) end",
                "setmetatable({}, {__gc = function() error('bad') end})",
                "setmetatable({}, {__gc = function() print('after error') end})",
                "setmetatable({}, {__gc = 42})")); // not a function by then: skipped
        assertEquals("", out.toString());
        sb.close();
        // lua5.3 -e '<the same>' prints exactly this at exit
        assertEquals("after error\n6\n5\n4\n3\n2\n1\n", out.toString());
        sb.close(); // once only
        assertEquals("after error\n6\n5\n4\n3\n2\n1\n", out.toString());
        assertThrows(dev.luavm.LuaSandboxStateException.class, () -> sb.eval("return 1"));
    }

    @Test
    void closeRunsFinalizersUnderTheLimitsAndNotAfterAPlainOsExit() {
        // a finalizer that never ends is ended by the time limit; close still closes
        Sandbox looping = VM.sandbox().capabilities(Capabilities.standard())
                .limits(Limits.defaults().withTimeout(java.time.Duration.ofMillis(200))).build();
        looping.eval("setmetatable({}, {__gc = function() while true do end end})");
        looping.close();
        assertThrows(dev.luavm.LuaSandboxStateException.class, () -> looping.eval("return 1"));
        // os.exit(code) leaves without closing the state, os.exit(code, true) closes it (lua5.3's os_exit)
        for (boolean close : new boolean[] {false, true}) {
            StringBuilder out = new StringBuilder();
            Sandbox sb = VM.sandbox().capabilities(Capabilities.standard().toBuilder().bundle("os.exit").build())
                    .output((bytes, off, len) -> out.append(new String(bytes, off, len, java.nio.charset.StandardCharsets.ISO_8859_1)))
                    .build();
            assertThrows(dev.luavm.LuaExitException.class, () -> sb.eval(
                    "setmetatable({}, {__gc = function() print('fin') end}) os.exit(0, " + close + ")"));
            sb.close();
            assertEquals(close ? "fin\n" : "", out.toString());
        }
    }

    @Test
    void aWeakCacheUnderACapEmptiesUnderPressureInsteadOfFailing() {
        Limits cap = Limits.defaults().withGas(Long.MAX_VALUE).withMemory(4L << 20).withTimeout(Duration.ofSeconds(60));
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), cap)) {
            // 40 MB of cached strings-in-tables through a 4 MiB cap: the meter's walks clear the cache
            assertEquals(10_000L, sb.eval("gc", String.join("\n",
                    "local cache = setmetatable({}, {__mode = 'v'})",
                    "for i = 1, 10000 do cache[i] = {string.rep('x', 4000) .. i} end",
                    "return 10000")));
            assertTrue(sb.usage().peakMemoryBytes() <= 4L << 20);
        }
    }

    /** The same script clears the same entries and runs the same finalizers at the same points. */
    @Test
    void collectionIsDeterministicAcrossRuns() {
        String script = String.join("\n",
                "local log = {}",
                "local cache = setmetatable({}, {__mode = 'k'})",
                "for i = 1, 2000 do",
                "  local o = setmetatable({id = i}, {__gc = function(o) log[#log + 1] = o.id end})",
                "  if i % 3 == 0 then cache[o] = string.rep('v', 500) end",
                "  if i % 7 == 0 then keep = keep or {} keep[#keep + 1] = o end",
                "  if i % 500 == 0 then log[#log + 1] = 'gc@' .. i collectgarbage('step') end",
                "end",
                // the first collection finalizes the dropped objects (resurrected meanwhile, so still
                // weak keys), the second clears them from the cache: as lua5.3, which prints 95 too
                "collectgarbage() collectgarbage()",
                "local n = 0 for _ in pairs(cache) do n = n + 1 end",
                "return table.concat(log, ','), n, collectgarbage('count')");
        List<List<Object>> results = new ArrayList<>();
        List<Long> gas = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (Sandbox sb = VM.sandbox(Capabilities.standard(),
                    Limits.defaults().withMemory(2L << 20).withGas(Long.MAX_VALUE))) {
                results.add(sb.evalAll("gc", script));
                gas.add(sb.usage().gas());
            }
        }
        System.out.println("[collector] three runs: gas " + gas + ", cache entries left " + results.get(0).get(1));
        assertEquals(results.get(0), results.get(1));
        assertEquals(results.get(0), results.get(2));
        // gas is not compared: probes of tables keyed by objects follow identity hashes until
        // reference keys get per-sandbox ids (another branch); what the collector does is compared
        assertEquals(95L, results.get(0).get(1)); // cached (i % 3 == 0) and kept (i % 7 == 0): i % 21 == 0
    }

    @Test
    void manyObjectsWithFinalizersAreRegisteredInLinearTime() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults().withTimeout(Duration.ofSeconds(20)))) {
            long t0 = System.nanoTime();
            assertEquals(200_000L, sb.eval("gc", String.join("\n",
                    "local n, mt = 0, {__gc = function() end}",
                    "local keep = {}",
                    "for i = 1, 200000 do keep[i] = setmetatable({}, mt) setmetatable(keep[i], mt) end",
                    "keep = nil collectgarbage()",
                    "return 200000")));
            System.out.println("[collector] 200,000 finalizers registered, run: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
    }
}
