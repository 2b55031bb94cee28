package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaScriptException;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.host.HostGateway;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T25 Host calls at the deadline: a host function that ignores interrupts (a busy loop, a sleep
 * that swallows the interrupt) cannot hold the run past its deadline or a cancel. Its call runs on
 * a host-call thread and is abandoned {@link HostGateway#GRACE_MILLIS} ms after the interrupt;
 * its result is never seen, what it asks of the sandbox afterwards fails, the audit log says so,
 * and abandoned calls are bounded per sandbox. (The overrun figures are printed; they are
 * measured, not asserted: the machine's load decides them. What is asserted is that the run
 * ends long before the function does.)
 */
class T25HostCallDeadlineTest {
    private static final Limits SHORT = Limits.defaults().withTimeout(Duration.ofMillis(300));

    /** Sleeps {@code ms} milliseconds, swallowing every interrupt. */
    static void sleepThroughInterrupts(long ms) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException ignored) {
                // a stubborn host function
            }
        }
    }

    private static final ConcurrentLinkedQueue<String> LATE = new ConcurrentLinkedQueue<>();

    private static Capabilities caps(long stubbornMs) {
        return Capabilities.standard().toBuilder()
                .grant("stubborn", "sleeps through interrupts", call -> {
                    sleepThroughInterrupts(stubbornMs);
                    // the call was abandoned by now: nothing of the sandbox is reachable any more
                    try {
                        call.chargeGas(1);
                        LATE.add("charged");
                    } catch (IllegalStateException e) {
                        LATE.add("charge refused");
                    }
                    return "late result";
                })
                .grant("spin", "a busy loop that never looks at interrupts", call -> {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stubbornMs);
                    long x = 0;
                    while (System.nanoTime() < end) x++;
                    return x;
                })
                .grant("quick", "returns at once", call -> "ok")
                .grant("thread", "the thread it runs on", call -> Thread.currentThread().getName())
                .declare("hereThread", "the thread it runs on").onSandboxThread()
                .grant(call -> Thread.currentThread().getName())
                .grant("callback", "calls its argument back", call -> call.callLua((dev.luavm.LuaHandle) call.arg(0), "x"))
                .build();
    }

    private static long timeToLimit(Sandbox sb, String script, Limit expected) {
        long t0 = System.nanoTime();
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(script));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(expected, e.limit());
        return ms;
    }

    @Test
    void aHostFunctionThatIgnoresInterruptsIsAbandonedAtTheDeadline() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            MemoryAuditSink audit = new MemoryAuditSink();
            try (Sandbox sb = VM.sandbox().capabilities(caps(5_000)).limits(SHORT).audit(audit).build()) {
                long ms = timeToLimit(sb, "return stubborn()", Limit.TIME);
                System.out.println("[T25] stubborn host function, 300 ms timeout: run ended after " + ms + " ms (overrun "
                        + (ms - 300) + " ms)");
                assertTrue(ms < 4_000, "the run waited for the function: " + ms + " ms");
                HostCallEvent ev = audit.events(HostCallEvent.class).get(0);
                assertEquals(HostCallEvent.Outcome.RUN_ENDED, ev.outcome());
                assertTrue(ev.error().contains("abandoned"), ev.error());
                assertEquals(List.of(), ev.results(), "an abandoned call has no result in the log");
                assertEquals(1, sb.abandonedHostCalls());
                // the sandbox goes on at once, while the abandoned function still sleeps
                assertEquals("ok", sb.eval("return quick()"));
                long ms2 = timeToLimit(sb, "return spin()", Limit.TIME);
                System.out.println("[T25] busy-looping host function: run ended after " + ms2 + " ms");
                assertTrue(ms2 < 4_000, ms2 + " ms");
            }
        });
    }

    @Test
    void cancelAbandonsAHostFunctionThatIgnoresInterrupts() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (Sandbox sb = VM.sandbox().capabilities(caps(5_000)).limits(Limits.defaults().withTimeout(Duration.ofSeconds(60)))
                    .build()) {
                Thread canceller = new Thread(() -> {
                    sleepThroughInterrupts(200);
                    sb.cancel();
                });
                canceller.start();
                long ms = timeToLimit(sb, "local ok = pcall(stubborn) return 'pcall caught it'", Limit.CANCELLED);
                canceller.join();
                System.out.println("[T25] cancel 200 ms into a stubborn host function: run ended after " + ms + " ms");
                assertTrue(ms < 4_000, ms + " ms");
                assertEquals("ok", sb.eval("return quick()"));
            }
        });
    }

    @Test
    void anAbandonedCallsResultIsNeverSeenAndItCanNoLongerTouchTheSandbox() throws Exception {
        LATE.clear();
        try (Sandbox sb = VM.sandbox().capabilities(caps(800)).limits(SHORT).build()) {
            timeToLimit(sb, "result = stubborn() return result", Limit.TIME);
            sb.setGlobal("result", null);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (LATE.isEmpty() && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(List.of("charge refused"), List.copyOf(LATE));
            assertEquals(null, sb.getGlobal("result"), "the late result reached nobody");
            long gas = sb.usage().gas();
            sb.eval("return quick()");
            assertNotEquals(0, sb.usage().gas());
            assertTrue(sb.usage().gas() < gas + 1_000, "no late charge landed in a later run");
            while (sb.abandonedHostCalls() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(0, sb.abandonedHostCalls(), "the returned function counted itself out");
        }
    }

    @Test
    void abandonedCallsAreBoundedPerSandboxAndTheRefusalIsCatchable() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = VM.sandbox().capabilities(caps(3_000))
                    .limits(Limits.defaults().withTimeout(Duration.ofMillis(100))).build()) {
                for (int i = 0; i < HostGateway.MAX_ABANDONED; i++) timeToLimit(sb, "return stubborn()", Limit.TIME);
                assertEquals(HostGateway.MAX_ABANDONED, sb.abandonedHostCalls());
                LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("return quick()"));
                assertEquals("input:1: host function 'quick' not run: " + HostGateway.MAX_ABANDONED
                        + " calls of this sandbox abandoned at a deadline are still running", e.getMessage());
                assertTrue(e.getCause() instanceof java.util.concurrent.RejectedExecutionException, String.valueOf(e.getCause()));
                assertEquals(false, sb.eval("return (pcall(quick))"));
                // once they return, calls run again
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (sb.abandonedHostCalls() > 0 && System.nanoTime() < deadline) Thread.sleep(20);
                assertEquals("ok", sb.eval("return quick()"));
            }
        });
    }

    @Test
    void manyAbandonedCallsLeakNoThreads() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
            int before = HostGateway.hostCallThreads();
            List<Sandbox> sandboxes = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Sandbox sb = VM.sandbox().capabilities(caps(1_000)).limits(Limits.defaults().withTimeout(Duration.ofMillis(20)))
                        .build();
                sandboxes.add(sb);
                timeToLimit(sb, "return stubborn()", Limit.TIME);
            }
            int peak = HostGateway.hostCallThreads();
            System.out.println("[T25] 40 abandoned calls: host-call threads " + before + " -> " + peak);
            assertTrue(peak <= before + 41, "threads: " + before + " -> " + peak);
            // when the functions return their threads are idle again and serve new calls: no new threads
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (Sandbox sb : sandboxes) {
                while (sb.abandonedHostCalls() > 0 && System.nanoTime() < deadline) Thread.sleep(10);
            }
            for (Sandbox sb : sandboxes) {
                assertEquals(0, sb.abandonedHostCalls());
                sb.close();
            }
            try (Sandbox sb = VM.sandbox().capabilities(caps(0)).limits(Limits.defaults()).build()) {
                assertEquals(40L, sb.eval("local n = 0 for i = 1, 40 do if quick() == 'ok' then n = n + 1 end end return n"));
            }
            assertTrue(HostGateway.hostCallThreads() <= peak, HostGateway.hostCallThreads() + " > " + peak);
        });
    }

    @Test
    void hostFunctionsRunOffTheSandboxThreadAndCallbacksRunOnIt() {
        try (Sandbox sb = VM.sandbox().capabilities(caps(0)).limits(Limits.defaults()).build()) {
            String me = Thread.currentThread().getName();
            String off = (String) sb.eval("return thread()");
            assertTrue(off.startsWith("luavm-host-call-"), off);
            assertEquals(me, sb.eval("return hereThread()"), "a grant declared onSandboxThread runs here");
            // Lua called back from a host-call thread runs on the sandbox's thread
            assertEquals(List.of(me), sb.evalAll("input", "return callback(function(x) return hereThread() end)").get(0));
            // nested: a host call inside a callback inside a host call
            Object nested = sb.evalAll("input", "return callback(function(x) return thread() end)").get(0);
            assertTrue(String.valueOf(nested).contains("luavm-host-call-"), String.valueOf(nested));
        }
    }

    @Test
    void hostCallsNestedThroughCallbacksAreBoundedAsACStackOverflow() {
        try (Sandbox sb = VM.sandbox().capabilities(caps(0)).limits(Limits.defaults()).build()) {
            int before = HostGateway.hostCallThreads();
            Object r = sb.eval("local n = 0 local function f() n = n + 1 return callback(f) end "
                    + "local ok, e = pcall(f) return tostring(ok) .. ' ' .. n .. ' ' .. e");
            assertEquals("false " + (HostGateway.MAX_NESTED + 1) + " input:1: C stack overflow (host calls nested "
                    + HostGateway.MAX_NESTED + " deep)", r);
            assertTrue(HostGateway.hostCallThreads() <= before + HostGateway.MAX_NESTED, String.valueOf(HostGateway.hostCallThreads()));
            assertEquals("ok", sb.eval("return quick()"), "every level unwound");
        }
    }

    @Test
    void theDeadlineDuringACallbackEndsTheRunAndTheFunctionUnwinds() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (Sandbox sb = VM.sandbox().capabilities(caps(0)).limits(SHORT.withGas(1L << 50)).build()) {
                long ms = timeToLimit(sb, "return callback(function() while true do end end)", Limit.TIME);
                System.out.println("[T25] deadline inside a callback of a host call: " + ms + " ms");
                assertEquals("ok", sb.eval("return quick()"));
                assertEquals(0, sb.abandonedHostCalls());
            }
        });
    }

    @Test
    void offThreadAndOnThreadCallsGiveTheSameGasAndOutput() {
        String script = "local n = 0 for i = 1, 200 do if quick() == 'ok' then n = n + 1 end end print(n) return n";
        long gasOff;
        String outOff;
        try (Sandbox sb = VM.sandbox().capabilities(caps(0)).limits(Limits.defaults()).build()) {
            assertEquals(200L, sb.eval(script));
            gasOff = sb.usage().gas();
            outOff = sb.output();
        }
        Capabilities same = Capabilities.standard().toBuilder()
                .declare("quick", "returns at once").onSandboxThread().grant(call -> "ok").build();
        try (Sandbox sb = VM.sandbox().capabilities(same).limits(Limits.defaults()).build()) {
            assertEquals(200L, sb.eval(script));
            assertEquals(gasOff, sb.usage().gas());
            assertEquals(outOff, sb.output());
        }
    }

    @Test
    void theSandboxThreadIsNeverLeftInterrupted() {
        try (Sandbox sb = VM.sandbox().capabilities(caps(300)).limits(Limits.defaults().withTimeout(Duration.ofMillis(50))).build()) {
            timeToLimit(sb, "return stubborn()", Limit.TIME);
            assertFalse(Thread.currentThread().isInterrupted());
        }
    }
}
