package dev.luavm.replay;

import dev.luavm.Capabilities;
import dev.luavm.LuaHandle;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.Redactor;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 4: nothing a script observes comes from identity hashes, the clock or thread timing. */
class DeterminismTest {
    static final String IDS = String.join("\n",
            "local t = {}",
            "for i = 1, 50 do t[{}] = i; t[coroutine.create(print)] = -i end",
            "t[print] = 0; t[string.format] = 0.5",
            "local s = {} for k, v in pairs(t) do s[#s + 1] = tostring(k) .. '=' .. v end",
            "return table.concat(s, ' ')");

    private static Sandbox sandbox(LuaVM vm, long seed) {
        return vm.sandbox().randomSeed(seed).virtualTime(Instant.EPOCH).build();
    }

    @Test
    void idsAndPairsOrderAreTheSameInEverySandboxWhateverTheOthersDid() {
        LuaVM vm = LuaVM.create();
        String first;
        try (Sandbox a = sandbox(vm, 1)) {
            first = (String) a.eval(IDS);
        }
        try (Sandbox noisy = sandbox(vm, 2)) {
            // another sandbox prints and hashes the shared library functions first
            noisy.eval("local t = {} for k, v in pairs(string) do t[v] = k; tostring(v) end for i = 1, 1000 do t[{}] = i end");
            try (Sandbox b = sandbox(vm, 3)) {
                assertEquals(first, b.eval(IDS));
            }
        }
        assertTrue(first.contains("table: 0x00000001=1"), first);
    }

    @Test
    void tostringIdsAreDistinctWithinASandbox() {
        try (Sandbox sb = sandbox(LuaVM.create(), 1)) {
            @SuppressWarnings("unchecked")
            List<Object> ids = (List<Object>) sb.eval("local r = {} for i = 1, 1000 do r[i] = tostring({}) end"
                    + " for i = 1, 100 do r[#r + 1] = tostring(function() return i end) end return r");
            Set<Object> distinct = new HashSet<>(ids);
            assertEquals(ids.size(), distinct.size());
        }
    }

    @Test
    void aHandleShowsWhatLuaTostringShows() {
        try (Sandbox sb = sandbox(LuaVM.create(), 1)) {
            List<Object> r = sb.evalAll("f", "local f = function() end return f, tostring(f), coroutine.create(f)");
            assertEquals(r.get(1), r.get(0).toString());
            assertTrue(r.get(2) instanceof LuaHandle h && h.toString().startsWith("thread: 0x0000000"), r.get(2)::toString);
        }
    }

    @Test
    void sortingManyDuplicatesUsesTheSameGasOnEveryRunWithTheSameSeed() {
        String sort = String.join("\n",
                "local l = {} for i = 1, 10000 do l[i] = math.random(1, 3) end",
                "for i = 1, 3000 do l[#l + 1] = (i % 2 == 0) and i or 3001 - i end",
                "local n = 0 table.sort(l, function(a, b) n = n + 1 return a < b end) return n");
        LuaVM vm = LuaVM.create();
        Set<Long> gas = new HashSet<>();
        Set<Object> comparisons = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            try (Sandbox sb = sandbox(vm, 77)) {
                comparisons.add(sb.eval(sort));
                gas.add(sb.usage().gas());
            }
        }
        assertEquals(1, gas.size(), gas::toString);
        assertEquals(1, comparisons.size());
    }

    @Test
    void virtualTimeFollowsGasSoAClockLoopEnds() {
        try (Sandbox sb = LuaVM.create().sandbox().virtualTime(Instant.parse("2000-01-01T00:00:00Z")).randomSeed(1).build()) {
            List<Object> r = sb.evalAll("t", "local t0 = os.time() local n = 0 while os.clock() < 0.01 do n = n + 1 end"
                    + " return t0, os.date('!%Y'), n");
            assertEquals(946684800L, r.get(0));
            assertEquals("2000", r.get(1));
            long gas = sb.usage().gas();
            assertTrue(gas >= 1_000_000 && gas < 1_100_000, "0.01 s of virtual time is 1,000,000 gas: " + gas);
        }
    }

    // ---- replay of what the first replay test does not cover

    @Test
    void askAnsweredByAnOperatorReplaysWithoutAskingAnyone() {
        Capabilities caps = Capabilities.standard().toBuilder()
                .declare("pay", "Pay").unsafe().param("amount", "integer", "cents").grant(c -> "paid " + c.longArg(0))
                .build();
        int[] asked = {0};
        HostCallPolicy policy = HostCallPolicy.ask(req -> {
            asked[0]++;
            return CompletableFuture.completedFuture(req.arg(0).equals(5L)
                    ? HostCallPolicy.Decision.allow("ok by ann") : HostCallPolicy.Decision.deny("too much"));
        });
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).policy(policy).audit(log).record(true).build()) {
            sb.eval("print(pay(5)) print(pcall(pay, 6))");
        }
        assertEquals(2, asked[0]);
        ReplayResult r = Replayer.builder(LuaVM.create(), Recording.of(log.events())).capabilities(caps).build().replay();
        assertTrue(r.identical(), r::toString);
        assertEquals(2, asked[0]);
    }

    @Test
    void severalRunsAndACallReplayInOrder() {
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().audit(log).record(true).build()) {
            sb.setGlobal("config", java.util.Map.of("n", 3L));
            sb.eval("function step(x) return x * config.n + math.random(10) end");
            sb.call("step", 4L);
            assertThrows(RuntimeException.class, () -> sb.eval("error({})"));
            sb.call("step", 5L);
        }
        ReplayResult r = Replayer.replay(LuaVM.create(), Recording.of(log.events()));
        assertTrue(r.identical(), r::toString);
        assertEquals(4, r.runs());
    }

    @Test
    void aRunCancelledInAHostCallReplaysToTheSameStop() throws Exception {
        java.util.concurrent.CountDownLatch inHost = new java.util.concurrent.CountDownLatch(1);
        Capabilities caps = Capabilities.standard().toBuilder()
                .declare("slow", "Blocks").safe().grant(c -> {
                    inHost.countDown();
                    Thread.sleep(60_000);
                    return 1;
                }).build();
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).audit(log).record(true).build()) {
            Thread t = new Thread(() -> {
                try {
                    inHost.await();
                    sb.cancel();
                } catch (InterruptedException ignored) {
                    // the test ends
                }
            });
            t.start();
            assertThrows(LuaLimitException.class, () -> sb.eval("print('before') slow() print('after')"));
            t.join();
        }
        ReplayResult r = Replayer.replay(LuaVM.create(), Recording.of(log.events()));
        assertTrue(r.identical(), r::toString);
    }

    @Test
    void redactedResultsAreNotedAndDivergeWhenTheScriptUsesThem() {
        Capabilities caps = Capabilities.standard().toBuilder()
                .declare("secret", "A token").safe().redact(Redactor.hide("return#1")).grant(c -> "tok-123").build();
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).audit(log).record(true).build()) {
            sb.eval("print(secret())");
        }
        assertFalse(log.events().toString().contains("tok-123"), "the secret reached the log");
        ReplayResult r = Replayer.replay(LuaVM.create(), Recording.of(log.events()));
        // the script got "<redacted>" instead of the token: converting it alone costs other gas
        assertFalse(r.identical());
        assertEquals(1, r.divergence().run(), r::toString);
        assertTrue(r.notes().stream().anyMatch(n -> n.contains("redacted")), r.notes()::toString);
    }

    @Test
    void modulesTheHostResolvedAreRecorded() {
        MemoryAuditSink log = new MemoryAuditSink();
        Capabilities caps = Capabilities.builder().standard().bundle("package").build();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).audit(log).record(true)
                .modules(n -> n.equals("greet") ? "return function(x) return 'hi ' .. x .. ' ' .. tostring({}) end" : null)
                .build()) {
            sb.eval("print(require('greet')('ann'), pcall(require, 'nope'))");
        }
        ReplayResult r = Replayer.replay(LuaVM.create(), Recording.of(log.events()));
        assertTrue(r.identical(), r::toString);
    }

    @Test
    void runsEndedByGasOrTimeReplay() {
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().audit(log).record(true)
                // gas lifted: the busy loop must end on time whatever the machine's speed (with the
                // default gas a fast run ended on gas, a slow one on time, and its replay the other way)
                .limits(dev.luavm.Limits.defaults().withTimeout(java.time.Duration.ofMillis(200))
                        .withGas(Long.MAX_VALUE)).build()) {
            assertThrows(LuaLimitException.class, () -> sb.eval("print('spin') while true do end"));
        }
        ReplayResult time = Replayer.replay(LuaVM.create(), Recording.of(log.events()));
        assertTrue(time.identical(), time::toString);

        MemoryAuditSink gasLog = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().audit(gasLog).record(true)
                .limits(dev.luavm.Limits.defaults().withGas(50_000)).build()) {
            assertThrows(LuaLimitException.class, () -> sb.eval("local t = {} for i = 1, 1e9 do t[i] = {} end"));
        }
        ReplayResult gas = Replayer.replay(LuaVM.create(), Recording.of(gasLog.events()));
        assertTrue(gas.identical(), gas::toString);
        assertEquals(dev.luavm.audit.RunEnded.Outcome.LIMIT, gas.ended().get(0).outcome());
    }
}
