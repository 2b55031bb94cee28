package dev.luavm.collector;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A deep recursion's stacks are given back: when a run ends (the main coroutine) and when a
 * coroutine yields, the register stack and the frames a deep call chain grew shrink back to what
 * the live frames use (PUC's luaD_shrinkstack), so the memory walk no longer counts them and the
 * JVM no longer keeps them; before, a sandbox kept about 5 MB after one 50,000-deep run. Gas,
 * results, coroutines and snapshots are as they were.
 */
class StackShrinkTest {
    private static final LuaVM VM = LuaVM.create();
    private static final Limits ROOMY = Limits.defaults().withGas(Long.MAX_VALUE).withMemory(256L << 20)
            .withCallDepth(200_000).withTimeout(Duration.ofSeconds(120));
    /** what may stay above the baseline: the stacks' floor (256 slots, 32 frames: about 4 KiB) and a run's leftovers */
    private static final long NEAR = 8 << 10;
    private static final String DEEP = "function deep(n) if n == 0 then return 0 end return 1 + deep(n - 1) end";

    /** The meter's figure after a full walk. */
    private static long collected(Sandbox sb) {
        sb.evalAll("collect", "collectgarbage()");
        return sb.usage().memoryBytes();
    }

    @Test
    void aDeepRunsStacksAreGivenBackWhenItEnds() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), ROOMY)) {
            sb.evalAll("def", DEEP);
            long base = collected(sb);
            assertEquals(List.of(50_000L), sb.evalAll("run", "return deep(50000)"));
            long atEnd = sb.usage().memoryBytes();
            long after = collected(sb);
            System.out.println("[shrink] baseline " + base + ", at the run's end " + atEnd + ", collected " + after);
            assertTrue(after - base < NEAR, () -> "after a 50,000-deep run the sandbox holds " + (after - base)
                    + " bytes more than before it");
            // and at once, without a walk: the meter was credited with what the shrink dropped
            assertTrue(atEnd - base < NEAR, () -> "at the end of a 50,000-deep run the meter counts " + (atEnd - base)
                    + " bytes more than before it");
            // again and again: nothing accumulates, and each run costs the same gas
            long gas = -1;
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of(50_000L), sb.evalAll("run", "return deep(50000)"));
                if (gas >= 0) assertEquals(gas, sb.usage().gas(), "the same run, the same gas");
                gas = sb.usage().gas();
                assertEquals(after, collected(sb));
            }
        }
    }

    @Test
    void aDeepRunEndedByAnErrorOrALimitGivesItsStacksBackToo() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), ROOMY)) {
            sb.evalAll("def", "function down(n) if n == 0 then error('bottom') end return 1 + down(n - 1) end");
            long base = collected(sb);
            assertEquals(List.of(false), sb.evalAll("run", "return (pcall(down, 50000))"));
            assertTrue(collected(sb) - base < NEAR, "after a caught error");
            assertThrows(LuaScriptException.class, () -> sb.evalAll("run", "down(50000)"));
            assertTrue(collected(sb) - base < NEAR, "after an error that ended the run");
        }
        // a run ended by its gas limit (the sandbox goes on: the limit is the run's)
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), ROOMY.withRunGas(2_000_000))) {
            sb.evalAll("def", "function spin(n) if n == 0 then while true do end end return spin(n - 1) end");
            long base = collected(sb);
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.evalAll("run", "spin(50000)"));
            assertEquals(LuaLimitException.Limit.GAS, e.limit());
            assertTrue(collected(sb) - base < NEAR, "after a run ended by its gas limit");
        }
    }

    @Test
    void aCoroutineThatWentDeepGivesItsStackBackWhenItYields() {
        try (Sandbox sb = VM.sandbox(Capabilities.standard(), ROOMY)) {
            sb.evalAll("def", String.join("\n", DEEP,
                    "co = coroutine.wrap(function() while true do coroutine.yield(deep(50000)) end end)"));
            long base = collected(sb);
            assertEquals(List.of(50_000L), sb.evalAll("run", "return co()"));
            long after = collected(sb);
            assertTrue(after - base < NEAR, () -> "a suspended coroutine keeps " + (after - base) + " bytes of a deep call");
            // it goes deep again from its shrunk stacks, and yields deep down as well
            assertEquals(List.of(50_000L, 50_000L), sb.evalAll("run", "return co(), co()"));
            sb.evalAll("def", String.join("\n",
                    "function dive(n) if n == 0 then coroutine.yield('bottom') return 0 end return 1 + dive(n - 1) end",
                    "diver = coroutine.create(function() return dive(40000) end)"));
            assertEquals(List.of(true, "bottom"), sb.evalAll("run", "return coroutine.resume(diver)"));
            long suspendedDeep = collected(sb);
            assertTrue(suspendedDeep - base > 40_000L * 64, "a coroutine suspended 40,000 deep keeps its frames");
            assertEquals(List.of(true, 40_000L), sb.evalAll("run", "return coroutine.resume(diver)"));
            assertEquals(List.of("dead"), sb.evalAll("run", "return coroutine.status(diver)"));
            assertTrue(collected(sb) - base < NEAR, "a dead coroutine holds no stack");
            // the body's local, captured by closures, lives on in the shrunk stack (its open upvalue moved with it)
            sb.evalAll("def", String.join("\n",
                    "keeper = coroutine.wrap(function()",
                    "  local x = 1",
                    "  get = function() return x end",
                    "  set = function(v) x = v end",
                    "  deep(50000)",
                    "  coroutine.yield(x)",
                    "  x = x + 1",
                    "  coroutine.yield(x)",
                    "end)"));
            assertEquals(List.of(1L), sb.evalAll("run", "return keeper()"));
            assertEquals(List.of(41L, 42L, 42L), sb.evalAll("run", "set(41) return get(), keeper(), get()"));
        }
    }

    @Test
    void aRestoredSandboxGoesOnAsTheOriginalAfterDeepRuns() {
        try (Sandbox a = VM.sandbox(Capabilities.standard(), ROOMY)) {
            a.evalAll("def", String.join("\n", DEEP,
                    "gen = coroutine.wrap(function() local i = 0 while true do i = i + 1 coroutine.yield(deep(20000 * i)) end end)"));
            assertEquals(List.of(20_000L), a.evalAll("run", "return gen()"));
            assertEquals(List.of(30_000L), a.evalAll("run", "return deep(30000)"));
            byte[] snap = a.snapshot();
            try (Sandbox b = LuaVM.restore(snap, Capabilities.standard(), ROOMY)) {
                String next = "local r = {gen(), deep(45000), gen()} return r[1], r[2], r[3], collectgarbage('count')";
                List<Object> ra = a.evalAll("next", next);
                List<Object> rb = b.evalAll("next", next);
                assertEquals(ra, rb);
                assertEquals(List.of(40_000L, 45_000L, 60_000L), ra.subList(0, 3));
                assertEquals(a.usage().gas(), b.usage().gas());
                assertEquals(a.usage().memoryBytes(), b.usage().memoryBytes());
                assertEquals(collected(a), collected(b));
            }
        }
    }
}
