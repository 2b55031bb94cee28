package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditCost;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.ClockReadings;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T23, what the host keeps for the script: the audit log. Issue 23 item 3: a run's log is bounded
 * ({@code Limits.withAuditEvents}, the {@code AUDIT} limit), its writes cost the run gas in
 * proportion to their size, clock reads are written compactly and still replay exactly, and the
 * in-memory sink keeps to the budget its host gave it.
 */
class T23AuditLogBoundTest {
    private final AtomicLong calls = new AtomicLong();

    private Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("kv.get", "Read a key").safe().param("key", "string", "the key").grant(c -> {
                    calls.incrementAndGet();
                    return "v:" + c.stringArg(0);
                })
                .build();
    }

    private Sandbox.Builder sandbox(MemoryAuditSink sink, Limits limits) {
        return ThreatSupport.VM.sandbox().capabilities(caps()).limits(limits).audit(sink);
    }

    /** A wall clock that moves 1 ms at every read. */
    static final class Ticking extends Clock {
        private long millis = 1_700_000_000_000L;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public long millis() {
            return millis++;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }

    private static RunEnded end(List<AuditEvent> events) {
        return assertInstanceOf(RunEnded.class, events.get(events.size() - 1));
    }

    @Test
    void theAuditBoundEndsTheRunWithItsOwnLimitWhichPcallCannotCatch() {
        for (String script : List.of("while true do kv.get('x') end",
                "pcall(function() while true do kv.get('x') end end) return 'caught'")) {
            MemoryAuditSink sink = new MemoryAuditSink();
            calls.set(0);
            LuaLimitException e = assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
                try (Sandbox sb = sandbox(sink, Limits.defaults().withAuditEvents(20)).build()) {
                    return assertThrows(LuaLimitException.class, () -> sb.eval(script));
                }
            });
            assertEquals(LuaLimitException.Limit.AUDIT, e.limit());
            assertEquals("audit limit exceeded", e.getMessage());
            List<AuditEvent> events = sink.events();
            assertEquals(21, events.size(), "20 events, then the run's end"); // RunStarted + 19 calls + RunEnded
            RunEnded end = end(events);
            assertEquals(RunEnded.Outcome.LIMIT, end.outcome());
            assertEquals("audit", end.limit());
            assertEquals(21, end.events());
            // every call that ran is in the log, exactly once
            assertEquals(calls.get(), sink.events(HostCallEvent.class).size());
            assertEquals(19, calls.get());
        }
        assertEquals("audit", LuaLimitException.Limit.AUDIT.label);
        assertEquals(Limits.DEFAULT_AUDIT_EVENTS, Limits.defaults().auditEvents());
        assertEquals(Long.MAX_VALUE, Limits.unlimited().auditEvents());
        assertThrows(IllegalArgumentException.class, () -> Limits.defaults().withAuditEvents(0));
    }

    @Test
    void aHostCallTakesRoomForAllItsEventsBeforeItBegins() {
        MemoryAuditSink sink = new MemoryAuditSink();
        // a recording's start is 4 events (RunStarted, SOURCE, INPUTS, ZONE); each call 2 (its event, its results)
        try (Sandbox sb = sandbox(sink, Limits.defaults().withAuditEvents(7)).record(true).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("kv.get('a') kv.get('b') return 1"));
            assertEquals(LuaLimitException.Limit.AUDIT, e.limit());
        }
        assertEquals(1, calls.get(), "the second call would not fit: it never ran");
        List<AuditEvent> events = sink.events();
        assertEquals(List.of("RunStarted", "Recorded", "Recorded", "Recorded", "HostCallEvent", "Recorded", "Recorded", "RunEnded"),
                events.stream().map(x -> x.getClass().getSimpleName()).toList()); // the last Recorded is the output digest
        assertEquals(Recorded.Kind.HOST_RESULTS, ((Recorded) events.get(5)).kind());
    }

    @Test
    void clockReadsEndTheRunAtTheBoundToo() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink, Limits.defaults().withAuditEvents(5)).clock(new Ticking()).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class,
                    () -> sb.eval("local n = 0 while true do os.time() n = n + 1 end"));
            assertEquals(LuaLimitException.Limit.AUDIT, e.limit());
        }
        List<ClockReadings> runs = sink.events(ClockReadings.class);
        assertEquals(4, runs.size()); // RunStarted + 4 full runs of readings: the fifth would not fit
        for (ClockReadings c : runs) assertEquals(ClockReadings.MAX_READS, c.size());
        assertEquals(6, sink.events().size());
    }

    @Test
    void writingEventsCostsTheRunGasInProportionToTheirBytes() {
        for (int n : new int[] {1, 100, 2000}) {
            String script = "local s = kv.get(string.rep('a', " + n + ")) return #s";
            long plain;
            try (Sandbox sb = ThreatSupport.VM.sandbox().capabilities(caps()).build()) {
                sb.eval(script);
                plain = sb.usage().gas();
            }
            MemoryAuditSink sink = new MemoryAuditSink();
            long audited;
            try (Sandbox sb = sandbox(sink, Limits.defaults()).build()) {
                sb.eval(script);
                audited = sb.usage().gas();
            }
            HostCallEvent call = sink.events(HostCallEvent.class).get(0);
            // what the log holds of the call: 64 bytes, the name, the argument and result as logged (cut at 256 characters)
            long bytes = AuditCost.EVENT_BYTES + "kv.get".length() + Math.min(n, 256) + (n > 256 ? ("...(" + (n - 256) + " more chars)").length() : 0)
                    + Math.min(n + 2, 256) + (n + 2 > 256 ? ("...(" + (n + 2 - 256) + " more chars)").length() : 0)
                    + 3 + 3 + sink.events().get(0).sandbox().length(); // two one-element lists: 2 + 1 each
            assertEquals(bytes, AuditCost.logBytes(call));
            assertEquals((bytes + 7) / 8, audited - plain, "n = " + n);
        }
        // recorded in full, a large result costs its size
        String big = "local s = kv.get(string.rep('a', 100000)) return #s";
        MemoryAuditSink sink = new MemoryAuditSink();
        long recorded;
        try (Sandbox sb = sandbox(sink, Limits.defaults()).record(true).build()) {
            sb.eval(big);
            recorded = sb.usage().gas();
        }
        long plain;
        try (Sandbox sb = ThreatSupport.VM.sandbox().capabilities(caps()).build()) {
            sb.eval(big);
            plain = sb.usage().gas();
        }
        long charged = 0;
        for (AuditEvent e : sink.events()) {
            if (e instanceof HostCallEvent || e instanceof Recorded r && r.kind() == Recorded.Kind.HOST_RESULTS) charged += AuditCost.gas(e);
        }
        assertEquals(charged, recorded - plain);
        assertTrue(recorded - plain > 100_000 / 8, "the 100,000-byte result is paid for: " + (recorded - plain));
    }

    @Test
    void clockReadingsCostGasPerReadingAndLandCompactly() {
        String script = "local t = {} for i = 1, 3000 do t[i] = os.time() end return #t";
        long plain;
        try (Sandbox sb = ThreatSupport.VM.sandbox().capabilities(caps()).clock(new Ticking()).build()) {
            sb.eval(script);
            plain = sb.usage().gas();
        }
        MemoryAuditSink sink = new MemoryAuditSink();
        long audited;
        try (Sandbox sb = sandbox(sink, Limits.defaults()).clock(new Ticking()).build()) {
            sb.eval(script);
            audited = sb.usage().gas();
        }
        List<ClockReadings> runs = sink.events(ClockReadings.class);
        assertEquals(3, runs.size()); // 3,000 changed readings: 1024 + 1024 + 952
        assertEquals(3000, runs.stream().mapToInt(ClockReadings::size).sum());
        long charged = runs.stream().mapToLong(AuditCost::gas).sum();
        assertEquals(charged, audited - plain);
        assertTrue(charged < 3000 * 2, "about one unit of gas per reading: " + charged);
    }

    @Test
    void osClockInALoopIsNoLongerTenBytesOfLogPerGas() throws Exception {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        long gas;
        int reads = 200_000;
        try (JsonLinesAuditSink jsonl = new JsonLinesAuditSink(file);
             Sandbox sb = ThreatSupport.VM.sandbox().capabilities(caps()).limits(Limits.defaults().withAuditEvents(1_000))
                     .audit(jsonl).record(true).build()) {
            sb.eval("for i = 1, " + reads + " do os.clock() end");
            gas = sb.usage().gas();
        }
        double perGas = (double) file.size() / gas;
        double perRead = (double) file.size() / reads;
        System.out.printf("os.clock loop: %d reads, %d gas, %d bytes of log: %.2f bytes per gas, %.2f per read%n",
                reads, gas, file.size(), perGas, perRead);
        assertTrue(perGas < 1.5, perGas + " bytes of log per gas");
        assertTrue(perRead < 12, perRead + " bytes of log per read");
    }

    @Test
    void compactClockReadsReplayExactly() {
        MemoryAuditSink sink = new MemoryAuditSink();
        List<Object> got;
        try (Sandbox sb = sandbox(sink, Limits.defaults()).clock(new Ticking()).record(true).build()) {
            got = sb.evalAll("r", "local c, w = {}, {} for i = 1, 2500 do c[i] = os.clock() if i % 3 == 0 then w[#w + 1] = os.time() end end"
                    + " kv.get('x') local a, b = os.clock(), os.date('%S') return c[1] <= c[2500], #w, a >= c[2500], b");
        }
        assertEquals(true, got.get(0));
        assertTrue(sink.events(ClockReadings.class).stream().anyMatch(c -> c.clock() == ClockReadings.Kind.CPU && c.size() > 1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReplayResult r = Replayer.builder(ThreatSupport.VM, Recording.of(sink.events())).output(out::write).build().replay();
        assertTrue(r.identical(), r::toString); // the same readings, results (by digest), gas and output
    }

    @Test
    void aRunEndedByItsAuditBoundReplaysIdentically() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink, Limits.defaults().withAuditEvents(40)).clock(new Ticking()).record(true).build()) {
            assertThrows(LuaLimitException.class, () -> sb.eval("while true do kv.get(tostring(os.time())) os.clock() end"));
        }
        assertEquals("audit", end(sink.events()).limit());
        ReplayResult r = Replayer.replay(ThreatSupport.VM, Recording.of(sink.events()));
        assertTrue(r.identical(), r::toString);
        assertEquals("audit", r.ended().get(0).limit());
    }

    @Test
    void theInMemorySinkKeepsToItsBudgetAndRefusesRunsWhenFull() {
        MemoryAuditSink sink = new MemoryAuditSink(256 << 10);
        Limits limits = Limits.defaults().withAuditEvents(Long.MAX_VALUE);
        try (Sandbox sb = sandbox(sink, limits).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("while true do kv.get('x') end"));
            assertEquals(LuaLimitException.Limit.AUDIT, e.limit());
            long held = sink.bytes();
            int kept = sink.events().size();
            assertTrue(held >= 256 << 10 && held < (256 << 10) + 4096, "the budget, passed by at most a call and an end: " + held);
            assertEquals(calls.get(), sink.events(HostCallEvent.class).size());
            // full: the next run is refused before it starts, and writes nothing
            LuaLimitException next = assertThrows(LuaLimitException.class, () -> sb.eval("return 1"));
            assertEquals(LuaLimitException.Limit.AUDIT, next.limit());
            assertEquals(kept, sink.events().size());
            // the host takes the events away: the budget is back
            sink.clear();
            assertEquals(1L, sb.eval("return 1"));
            assertEquals(2, sink.events().size());
        }
    }

    @Test
    void tenMillionGasOfCheapHostCallsNoLongerLeavesSixtyMegabytesOnTheHeap() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(sink, Limits.defaults().withGas(10_000_000)).build()) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("while true do kv.get('k') end"));
            System.out.println("10M gas of host calls: " + e.limit() + " after " + sink.events().size() + " events, "
                    + sink.bytes() / 1024 + " KiB (estimated)");
        }
        assertTrue(sink.events().size() <= Limits.DEFAULT_AUDIT_EVENTS + 1, sink.events().size() + " events");
        assertTrue(sink.bytes() <= MemoryAuditSink.DEFAULT_MAX_BYTES + 4096, sink.bytes() + " bytes");
        Runtime rt = Runtime.getRuntime();
        System.gc();
        System.out.println("heap in use after: " + (rt.totalMemory() - rt.freeMemory()) / (1 << 20) + " MiB");
    }
}
