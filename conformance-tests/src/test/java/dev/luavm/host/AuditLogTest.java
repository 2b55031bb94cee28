package dev.luavm.host;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.AuditValues;
import dev.luavm.audit.Digests;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.HostCallEvent.Outcome;
import dev.luavm.audit.HostCallEvent.Verdict;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 3: the audit log. Ordered, complete, exactly once per host call, fail-closed. */
class AuditLogTest {
    private final AtomicInteger ran = new AtomicInteger();
    private final CountDownLatch inHost = new CountDownLatch(1);

    private Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("kv.get", "Read a key").safe().param("key", "string", "the key").grant(c -> {
                    ran.incrementAndGet();
                    return "v:" + c.stringArg(0);
                })
                .declare("kv.put", "Write a key").unsafe().param("key", "string", "the key", ArgConstraint.length(1, 8))
                .param("value", "any", "the value").effects("writes:kv").grant(c -> {
                    ran.incrementAndGet();
                    return true;
                })
                .declare("kv.drop", "Drop the store").forbid()
                .declare("kv.fail", "Always fails").safe().grant(c -> {
                    ran.incrementAndGet();
                    throw new IllegalStateException("disk on fire");
                })
                .declare("kv.wait", "Blocks").safe().grant(c -> {
                    ran.incrementAndGet();
                    inHost.countDown();
                    Thread.sleep(60_000);
                    return null;
                })
                .declare("auth.login", "Log in").safe()
                .param("user", "string", "user name").param("password", "string", "secret")
                .returns("string", "session token")
                .redact((name, value) -> name.equals("password") || name.equals("return#1") ? "***" : value)
                .grant(c -> "token-" + c.stringArg(0))
                .build();
    }

    private Sandbox sandbox(AuditSink sink, Limits limits, HostCallPolicy policy) {
        return LuaVM.create().sandbox().name("sb").capabilities(caps()).limits(limits).policy(policy).audit(sink)
                .randomSeed(42).build();
    }

    private Sandbox sandbox(AuditSink sink) {
        return sandbox(sink, Limits.defaults(), HostCallPolicy.allowAll());
    }

    @Test
    void aRunIsLoggedInOrder() {
        MemoryAuditSink sink = new MemoryAuditSink();
        String src = "local a = ... return kv.get(a), kv.put('k', {1, 2})";
        try (Sandbox sb = sandbox(sink)) {
            CompiledChunk chunk = LuaVM.create().compile("job.lua", src);
            assertEquals(List.of("v:x", true), sb.run(chunk, "x"));
        }
        List<AuditEvent> events = sink.events();
        assertEquals(4, events.size());
        RunStarted start = assertInstanceOf(RunStarted.class, events.get(0));
        assertEquals("sb", start.sandbox());
        assertEquals(1, start.run());
        assertEquals("run", start.kind());
        assertEquals("job.lua", start.chunk());
        assertEquals(Digests.sha256(src.getBytes(StandardCharsets.UTF_8)), start.sourceSha256());
        assertEquals(Digests.ofValues(List.of("x")), start.inputsDigest());
        assertTrue(start.capabilities().contains("kv.drop() [FORBIDDEN] - Drop the store"), start.capabilities().toString());
        assertEquals(Limits.DEFAULT_GAS, start.limits().get("gas"));
        assertEquals(42L, start.randomSeed());
        assertTrue(start.clockMillis() > 0);

        HostCallEvent get = assertInstanceOf(HostCallEvent.class, events.get(1));
        assertEquals(1, get.seq());
        assertEquals("kv.get", get.function());
        assertEquals(List.of("x"), get.args());
        assertEquals(Verdict.ALLOWED, get.verdict());
        assertEquals("safe", get.reason());
        assertEquals(Outcome.RETURNED, get.outcome());
        assertEquals(List.of("v:x"), get.results());
        assertTrue(get.gas() > 0);
        assertTrue(get.complete());
        HostCallEvent put = assertInstanceOf(HostCallEvent.class, events.get(2));
        assertEquals(2, put.seq());
        assertEquals(List.of("k", List.of(1L, 2L)), put.args());
        assertEquals("allow-all", put.reason());
        assertTrue(put.gas() >= get.gas());
        assertTrue(put.elapsedNanos() >= get.elapsedNanos());

        RunEnded end = assertInstanceOf(RunEnded.class, events.get(3));
        assertEquals(RunEnded.Outcome.OK, end.outcome());
        assertEquals(Digests.ofValues(List.of("v:x", true)), end.resultDigest());
        assertEquals(2, end.hostCalls());
        assertTrue(end.usage().gas() > 0);
    }

    @Test
    void everyHostCallAppearsExactlyOnce() throws Exception {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink, Limits.defaults(), r -> r.arg(1) instanceof Boolean
                ? HostCallPolicy.Decision.deny("no booleans") : HostCallPolicy.Decision.allow())) {
            sb.eval("t", String.join("\n",
                    "kv.get('a')",                                       // 1 returned
                    "pcall(kv.put, 'k', true)",                          // 2 denied by the policy
                    "pcall(kv.put, 'much-too-long', 1)",                 // 3 denied by a constraint
                    "pcall(kv.drop)",                                    // 4 forbidden
                    "pcall(kv.fail)",                                    // 5 raised
                    "pcall(kv.get, {})",                                 // 6 bad argument type
                    "pcall(kv.get, setmetatable({}, {__index = function() end}))", // 7 bad type too
                    "kv.put('k', 2)"));                                  // 8 returned
            // 9: cancelled while inside the host function
            ExecutorService ex = Executors.newSingleThreadExecutor();
            try {
                ex.submit(() -> {
                    inHost.await(10, TimeUnit.SECONDS);
                    sb.cancel();
                    return null;
                });
                LuaLimitException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                        () -> assertThrows(LuaLimitException.class, () -> sb.eval("t", "pcall(kv.wait)")));
                assertEquals(LuaLimitException.Limit.CANCELLED, e.limit());
            } finally {
                ex.shutdownNow();
            }
        }
        List<HostCallEvent> calls = sink.events(HostCallEvent.class);
        assertEquals(9, calls.size());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 1L), calls.stream().map(HostCallEvent::seq).toList());
        assertEquals(List.of(Verdict.ALLOWED, Verdict.DENIED, Verdict.DENIED, Verdict.FORBIDDEN, Verdict.ALLOWED,
                Verdict.INVALID, Verdict.INVALID, Verdict.ALLOWED, Verdict.ALLOWED), calls.stream().map(HostCallEvent::verdict).toList());
        assertEquals(List.of(Outcome.RETURNED, Outcome.REFUSED, Outcome.REFUSED, Outcome.REFUSED, Outcome.RAISED,
                Outcome.REFUSED, Outcome.REFUSED, Outcome.RETURNED, Outcome.RUN_ENDED), calls.stream().map(HostCallEvent::outcome).toList());
        assertEquals("no booleans", calls.get(1).reason());
        assertEquals("key is 13 bytes long, more than 8", calls.get(2).reason());
        assertEquals("host function 'kv.fail' failed", calls.get(4).error());
        assertEquals("cancelled", calls.get(8).error());
        // only the allowed calls ran
        assertEquals(4, ran.get());
        // each run is framed: started, its calls, ended
        List<AuditEvent> all = sink.events();
        assertInstanceOf(RunStarted.class, all.get(0));
        assertInstanceOf(RunEnded.class, all.get(9));
        assertInstanceOf(RunStarted.class, all.get(10));
        RunEnded last = assertInstanceOf(RunEnded.class, all.get(12));
        assertEquals(RunEnded.Outcome.CANCELLED, last.outcome());
        assertEquals(1, last.hostCalls());
    }

    @Test
    void secretsAreRedactedAndBigValuesBounded() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink)) {
            assertEquals("token-ann", sb.eval("t", "return auth.login('ann', 'hunter2')"));
            sb.eval("t", "local t = {} for i = 1, 100 do t[i] = i end kv.get(('x'):rep(10000)) kv.put('k', t)");
        }
        List<HostCallEvent> calls = sink.events(HostCallEvent.class);
        HostCallEvent login = calls.get(0);
        assertEquals(List.of("ann", "***"), login.args());
        assertEquals(List.of("***"), login.results());
        assertFalse(login.complete());
        assertFalse(sink.events().toString().contains("hunter2"));
        assertFalse(sink.events().toString().contains("token-ann"));
        String big = (String) calls.get(1).args().get(0);
        assertEquals(AuditValues.MAX_STRING + "...(9744 more chars)".length(), big.length());
        assertTrue(big.endsWith("...(9744 more chars)"));
        List<?> t = (List<?>) calls.get(2).args().get(1);
        assertEquals(AuditValues.MAX_ENTRIES + 1, t.size());
        assertEquals("...(68 more)", t.get(AuditValues.MAX_ENTRIES));
        assertFalse(calls.get(2).complete());
    }

    /** A sink that fails on the n-th event (1-based) and every one after. */
    private static final class BrokenSink implements AuditSink {
        final int failFrom;
        final List<AuditEvent> written = new ArrayList<>();
        int seen;

        BrokenSink(int failFrom) {
            this.failFrom = failFrom;
        }

        @Override
        public void write(AuditEvent event) throws java.io.IOException {
            if (++seen >= failFrom) throw new java.io.IOException("disk full");
            written.add(event);
        }
    }

    @Test
    void aSinkFailingAtRunStartRunsNothing() {
        BrokenSink sink = new BrokenSink(1);
        try (Sandbox sb = sandbox(sink)) {
            LuaAuditException e = assertThrows(LuaAuditException.class, () -> sb.eval("t", "kv.get('a') return 1"));
            assertInstanceOf(LuaException.class, e);
            assertInstanceOf(RunStarted.class, e.event());
            assertEquals("disk full", e.getCause().getMessage());
            assertEquals("audit log failed (IOException: disk full); the run was stopped", e.getMessage());
            assertEquals(0, ran.get());
            assertFalse(sb.isRunning());
        }
    }

    @Test
    void aSinkFailingAtAHostCallStopsTheRunUncatchably() {
        BrokenSink sink = new BrokenSink(2); // the first host call's event fails
        try (Sandbox sb = sandbox(sink)) {
            LuaAuditException e = assertThrows(LuaAuditException.class,
                    () -> sb.eval("t", "local ok = pcall(kv.get, 'a') kv.get('b') return 1"));
            HostCallEvent unwritten = assertInstanceOf(HostCallEvent.class, e.event());
            assertEquals(List.of("a"), unwritten.args());
            assertEquals(1, ran.get()); // the host knows which call ran unlogged; nothing ran after it
        }
    }

    @Test
    void aSinkFailingAtRunEndFailsTheRun() {
        BrokenSink sink = new BrokenSink(3);
        try (Sandbox sb = sandbox(sink)) {
            LuaAuditException e = assertThrows(LuaAuditException.class, () -> sb.eval("t", "return kv.get('a')"));
            assertInstanceOf(RunEnded.class, e.event());
        }
    }

    @Test
    void aSandboxWithoutASinkLogsNothingAndStillCounts() {
        List<Long> numbers = new ArrayList<>();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps()).policy(r -> {
            numbers.add(r.callNumber());
            return HostCallPolicy.Decision.allow();
        }).build()) {
            sb.eval("t", "kv.put('a', 1) kv.put('b', 2)");
        }
        assertEquals(List.of(1L, 2L), numbers);
    }

    private RunEnded endOf(Limits limits, String script) {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink, limits, HostCallPolicy.allowAll())) {
            assertThrows(LuaException.class, () -> sb.eval("t", script));
        }
        List<AuditEvent> events = sink.events();
        assertInstanceOf(RunStarted.class, events.get(0));
        return assertInstanceOf(RunEnded.class, events.get(events.size() - 1));
    }

    @Test
    void aRunEndedByEachLimitEndsItsLog() {
        Limits base = Limits.defaults();
        record Case(Limits limits, String script, String limit) {}
        for (Case c : List.of(
                new Case(base.withGas(100_000), "kv.get('a') while true do end", "gas"),
                new Case(base.withMemory(2L << 20), "kv.get('a') local t = {} for i = 1, 1e8 do t[i] = ('x'):rep(64) .. i end", "memory"),
                new Case(base.withGas(Long.MAX_VALUE).withTimeout(Duration.ofMillis(100)), "kv.get('a') while true do end", "time"),
                new Case(base.withOutput(100), "kv.get('a') while true do print('spam') end", "output"),
                new Case(base.withCallDepth(200), "kv.get('a') local function f() return 1 + f() end return f()", "depth"))) {
            RunEnded end = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> endOf(c.limits(), c.script()));
            assertEquals(RunEnded.Outcome.LIMIT, end.outcome(), c.script());
            assertEquals(c.limit(), end.limit(), c.script());
            assertEquals(1, end.hostCalls());
            assertNull(end.resultDigest());
            assertNotNull(end.usage());
        }
    }

    @Test
    void aRunEndedByALuaErrorOrSyntaxErrorEndsItsLog() {
        RunEnded end = endOf(Limits.defaults(), "error('boom')");
        assertEquals(RunEnded.Outcome.ERROR, end.outcome());
        assertEquals("t:1: boom", end.error());
        end = endOf(Limits.defaults(), "return +");
        assertEquals(RunEnded.Outcome.ERROR, end.outcome());
        assertTrue(end.error().contains("unexpected symbol"), end.error());
    }

    @Test
    void aCallRunIsLoggedWithoutSource() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink)) {
            sb.eval("t", "function handle(x) return kv.get(x) end");
            assertEquals(List.of("v:q"), sb.call("handle", "q"));
        }
        RunStarted call = sink.events(RunStarted.class).get(1);
        assertEquals("call", call.kind());
        assertEquals("handle", call.chunk());
        assertNull(call.sourceSha256());
        assertEquals(2, call.run());
        RunStarted eval = sink.events(RunStarted.class).get(0);
        assertEquals("eval", eval.kind());
        assertEquals(Digests.sha256("function handle(x) return kv.get(x) end".getBytes(StandardCharsets.UTF_8)), eval.sourceSha256());
    }

    /** A clock that moves 1.5 s at every reading. */
    private static final class SteppingClock extends java.time.Clock {
        long millis = 1_700_000_000_000L;

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public long millis() {
            long m = millis;
            millis += 1500;
            return m;
        }

        @Override
        public java.time.Instant instant() {
            return java.time.Instant.ofEpochMilli(millis());
        }
    }

    @Test
    void clockChangesAreRecordedForReplay() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps()).audit(sink).clock(new SteppingClock()).build()) {
            assertEquals(List.of(1_700_000_001L, "v:k", 1_700_000_003L),
                    sb.evalAll("t", "local a = os.time() local v = kv.get('k') return a, v, os.time()"));
        }
        RunStarted start = sink.events(RunStarted.class).get(0);
        assertEquals(1_700_000_000_000L, start.clockMillis());
        List<AuditEvent> all = sink.events();
        assertEquals(List.of("RunStarted", "ClockReadings", "HostCallEvent", "ClockReadings", "RunEnded"),
                all.stream().map(e -> e.getClass().getSimpleName()).toList());
        assertEquals(new dev.luavm.audit.ClockReadings(start.sandbox(), 1, dev.luavm.audit.ClockReadings.Kind.WALL,
                new long[] {1}, new long[] {1_700_000_001_500L}), all.get(1));
        assertEquals(new dev.luavm.audit.ClockReadings(start.sandbox(), 1, dev.luavm.audit.ClockReadings.Kind.WALL,
                new long[] {2}, new long[] {1_700_000_003_000L}), all.get(3));

        // a clock that does not move writes nothing: replay answers every read with the start reading
        MemoryAuditSink fixed = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps()).audit(fixed)
                .clock(java.time.Clock.fixed(java.time.Instant.ofEpochSecond(1_000), java.time.ZoneOffset.UTC)).build()) {
            assertEquals(1_000L, sb.eval("t", "local t for i = 1, 1000 do t = os.time() end return t"));
        }
        assertEquals(2, fixed.events().size());
    }

    @Test
    void digestsIgnoreMapOrderAndSurviveCycles() {
        Map<String, Object> a = new java.util.LinkedHashMap<>();
        a.put("x", 1L);
        a.put("y", List.of("z"));
        Map<String, Object> b = new java.util.LinkedHashMap<>();
        b.put("y", List.of("z"));
        b.put("x", 1L);
        assertEquals(Digests.ofValues(List.of(a)), Digests.ofValues(List.of(b)));
        assertFalse(Digests.ofValues(List.of(1L)).equals(Digests.ofValues(List.of(1.0))));
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic);
        assertEquals(64, Digests.ofValues(List.of(cyclic)).length());
        assertSame(AuditValues.NIL, AuditValues.of(java.util.Arrays.asList((Object) null), Redactor.none(), List.of(), "#").values().get(0));
    }
}
