package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaScriptException;
import dev.luavm.conformance.TestTier;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T20 Late limits: the time limit and {@code cancel()} stop a run promptly whatever it is doing,
 * also when what it does costs little gas per unit of CPU; and cancellation is per run: a cancel
 * that lands between runs reaches no run at all (a pool's next tenant is safe), one armed with
 * the next run's {@code Sandbox.Run} ends that run only, and neither disables the sandbox. Time, output and
 * cancellation end one run; gas is the sandbox's lifetime budget.
 *
 * <p>Latencies are measured and printed; the assertion is a generous bound (the target is
 * 100 ms) so a loaded two-core CI machine does not fail it.
 */
class T20LateLimitsTest {
    /** Target 100 ms; asserted with slack for shared CI machines. */
    private static final long BUDGET_MS = 1000;

    private static final Limits LONG_RUN = Limits.defaults().withGas(Long.MAX_VALUE).withTimeout(Duration.ofSeconds(60))
            .withMemory(256L << 20);

    /**
     * Busy scripts gathered from the threat tests: each keeps the VM busy for far longer than the
     * budget. {name, script}
     */
    static final List<String[]> BUSY = List.of(
            new String[] {"loop", "while true do end"},
            new String[] {"pcall-retry", "while true do pcall(function() while true do end end) end"},
            new String[] {"pattern", "while true do string.find(string.rep('a', 1e5), '.-.-.-.-.-b') end"},
            new String[] {"sort-comparator", "local t = {} for i = 1, 3e5 do t[i] = (i * 7919) % 1000003 end "
                    + "while true do table.sort(t, function(a, b) return a > b end) table.sort(t, function(a, b) return a < b end) end"},
            new String[] {"gsub-callback", "local s = string.rep('a', 1e6) while true do s:gsub('a', function(c) return c end) end"},
            new String[] {"long-numeral-coercion", "local s = string.rep('1', 16 << 20) while true do local x = s + 0 end"},
            new String[] {"tonumber-base", "local s = string.rep('1', 16 << 20) while true do local x = tonumber(s, 2) end"},
            new String[] {"long-string-equality", "local a = string.rep('x', 16 << 20) local b = string.rep('x', 16 << 20) "
                    + "local n = 0 while true do if a == b then n = n + 1 end end"},
            new String[] {"long-string-order", "local a = string.rep('x', 16 << 20) local b = string.rep('x', 16 << 20) "
                    + "local n = 0 while true do if a <= b then n = n + 1 end end"},
            new String[] {"sort-long-equal-strings", "local s = string.rep('x', 1 << 20) local t = {} "
                    + "for i = 1, 64 do t[i] = s .. '' end while true do table.sort(t) end"},
            new String[] {"hash-flood-integers", "while true do local t = {} for i = 1, 2e5 do t[i * 2^40] = i end end"},
            new String[] {"hash-flood-floats", "while true do local t = {} for i = 1, 2e5 do t[i + 0.5] = i end end"},
            new String[] {"hash-flood-strings", "while true do local t = {} for i = 1, 2e5 do t[string.rep('k', 64) .. i] = i end end"},
            new String[] {"border-search", "local t = {} for i = 1, 1e6 do t[i] = i end for i = 1, 1e6, 2 do t[i] = nil end "
                    + "local n = 0 while true do n = n + #t end"},
            new String[] {"next-sparse-array", "local t = {} for i = 1, 1e6 do t[i] = i end for i = 1, 1e6 - 1 do t[i] = nil end "
                    + "while true do local k = next(t) end"},
            new String[] {"big-varargs", "local t = {} for i = 1, 2e5 do t[i] = i end "
                    + "local function f(...) return select('#', ...) end while true do f(table.unpack(t)) end"},
            new String[] {"select-copies", "local t = {} for i = 1, 2e5 do t[i] = i end "
                    + "local function f(...) return select(2, ...) end while true do f(table.unpack(t)) end"},
            new String[] {"coroutine-transfer", "local t = {} for i = 1, 2e5 do t[i] = i end "
                    + "local co = coroutine.wrap(function(...) while true do coroutine.yield(...) end end) "
                    + "while true do co(table.unpack(t)) end"},
            new String[] {"utf8-codes", "local s = '\\xF4' .. string.rep('\\x80', 16 << 20) "
                    + "while true do pcall(function() for p, c in utf8.codes(s) do end end) end"},
            new String[] {"format-precision", "while true do local s = string.format('%.99f', 1e308) end"},
            new String[] {"load-big-chunk", "local src = string.rep('x = 1\\n', 64000) while true do load(src) end"},
            new String[] {"load-many-constants", "local p = {} for i = 1, 40000 do p[i] = 'a' .. (i % 100) .. ' = ' .. (i * 4294967297) end "
                    + "local src = table.concat(p, '\\n') while true do load(src) end"});

    /** How long a run that ignores its limit is waited for before it is reported and stopped. */
    private static final long GIVE_UP_MS = 5 * BUDGET_MS;

    /**
     * Runs {@code script} in a fresh sandbox on a daemon thread; {@code limitAction} (given the
     * sandbox and the run's start time) ends it; returns milliseconds from {@code limitAction}'s
     * answer (the moment the limit took effect) to the end of the run, or -1 when the run went
     * on past {@link #GIVE_UP_MS}. Such a run is stopped with {@code Thread.stop}, only so that
     * a failing test does not starve the rest of the suite of CPU.
     */
    @SuppressWarnings({"deprecation", "removal"})
    private static long latencyMs(String what, Limits limits, Limit expected, LimitAction limitAction) throws Exception {
        Sandbox sb = TestTier.vm().sandbox(Capabilities.standard(), limits);
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        long[] endedAt = new long[1];
        Thread runner = new Thread(() -> {
            try {
                sb.eval(what, BUSY_BY_NAME.get(what));
            } catch (Throwable t) {
                outcome.set(t);
            } finally {
                endedAt[0] = System.nanoTime();
                done.countDown();
            }
        }, "t20-" + what);
        runner.setDaemon(true);
        long start = System.nanoTime();
        runner.start();
        while (!sb.isRunning() && done.getCount() > 0) Thread.onSpinWait();
        long t0 = limitAction.apply(sb, start);
        if (!done.await(GIVE_UP_MS, TimeUnit.MILLISECONDS)) {
            sb.close();
            runner.stop();
            runner.join(10_000);
            return -1;
        }
        sb.close();
        Throwable t = outcome.get();
        assertTrue(t instanceof LuaLimitException, what + " ended with " + t);
        assertEquals(expected, ((LuaLimitException) t).limit(), what);
        return (endedAt[0] - t0) / 1_000_000;
    }

    /** Ends a run: returns the {@code System.nanoTime()} at which the limit took effect. */
    @FunctionalInterface
    private interface LimitAction {
        long apply(Sandbox sb, long startNanos) throws Exception;
    }

    private static final java.util.Map<String, String> BUSY_BY_NAME = new java.util.HashMap<>();

    static {
        for (String[] s : BUSY) BUSY_BY_NAME.put(s[0], s[1]);
    }

    private static final long TIMEOUT_MS = 300;

    private static long cancelLatencyMs(String what) throws Exception {
        long ms = latencyMs(what, LONG_RUN, Limit.CANCELLED, (sb, start) -> {
            Thread.sleep(300); // let it get deep into the busy part
            long t0 = System.nanoTime();
            sb.cancel();
            return t0;
        });
        System.out.printf("[T20] cancel latency (%s): %s%n", what, ms < 0 ? "did not stop within " + GIVE_UP_MS + " ms" : ms + " ms");
        return ms;
    }

    private static long timeoutLatencyMs(String what) throws Exception {
        long ms = latencyMs(what, LONG_RUN.withTimeout(Duration.ofMillis(TIMEOUT_MS)), Limit.TIME,
                (sb, start) -> start + TIMEOUT_MS * 1_000_000);
        System.out.printf("[T20] timeout latency (%s): %s%n", what,
                ms < 0 ? "did not stop within " + GIVE_UP_MS + " ms" : ms + " ms past the deadline");
        return ms;
    }

    @Test
    void cancelStopsEveryBusyScriptPromptly() throws Exception {
        StringBuilder slow = new StringBuilder();
        for (String[] s : BUSY) {
            long ms = cancelLatencyMs(s[0]);
            if (ms < 0 || ms > BUDGET_MS) slow.append(s[0]).append(" (").append(ms < 0 ? "never" : ms + " ms").append(") ");
        }
        assertTrue(slow.isEmpty(), "cancel too late for: " + slow);
    }

    @Test
    void timeoutStopsEveryBusyScriptPromptly() throws Exception {
        StringBuilder slow = new StringBuilder();
        for (String[] s : BUSY) {
            long ms = timeoutLatencyMs(s[0]);
            if (ms < 0 || ms > BUDGET_MS) slow.append(s[0]).append(" (").append(ms < 0 ? "never" : ms + " ms").append(") ");
        }
        assertTrue(slow.isEmpty(), "timeout too late for: " + slow);
    }

    // ---- limits are per run (gas excepted)

    // gas without limit: these tests are about time and output, and a warm loop spends the default gas in 200 ms
    private static final Limits SHORT = Limits.defaults().withGas(Long.MAX_VALUE).withTimeout(Duration.ofMillis(200)).withOutput(1024);

    @Test
    void aTimedOutRunLeavesTheSandboxUsable() {
        try (Sandbox sb = ThreatSupport.sandbox(SHORT)) {
            LuaLimitException e = assertThrows(LuaLimitException.class,
                    () -> sb.eval("x = 1 local n = 41 f = function() return n + 1 end while true do end"));
            assertEquals(Limit.TIME, e.limit());
            // the state the script left is kept; its closures kept their upvalues' values
            assertEquals(List.of(1L, 42L), sb.evalAll("next", "local a, b, c = 'p', 'q', 'r' return x, f()"));
            // and the next run has a fresh time budget of its own
            assertEquals(Limit.TIME, assertThrows(LuaLimitException.class,
                    () -> sb.eval("while true do pcall(function() while true do end end) end")).limit());
            assertEquals(2L, sb.eval("return x + 1"));
        }
    }

    @Test
    void anOutputLimitedRunLeavesTheSandboxUsable() {
        try (Sandbox sb = ThreatSupport.sandbox(SHORT)) {
            assertEquals(Limit.OUTPUT, assertThrows(LuaLimitException.class,
                    () -> sb.eval("y = 7 while true do print(string.rep('o', 100)) end")).limit());
            assertEquals(7L, sb.eval("print('fine') return y"));
            assertEquals("fine\n", sb.output());
        }
    }

    @Test
    void aCancelledRunLeavesTheSandboxUsable() throws Exception {
        try (Sandbox sb = ThreatSupport.sandbox(LONG_RUN)) {
            Thread t = new Thread(() -> assertEquals(Limit.CANCELLED,
                    assertThrows(LuaLimitException.class, () -> sb.eval("z = 5 while true do end")).limit()));
            t.start();
            while (!sb.isRunning()) Thread.onSpinWait();
            Thread.sleep(50);
            sb.cancel();
            t.join(10_000);
            assertEquals(6L, sb.eval("return z + 1"));
        }
    }

    @Test
    void coroutinesACancelledRunLeftRunningAreDead() {
        try (Sandbox sb = ThreatSupport.sandbox(SHORT)) {
            assertEquals(Limit.TIME, assertThrows(LuaLimitException.class, () -> sb.eval(
                    "co = coroutine.create(function() local inner = coroutine.wrap(function() while true do end end) inner() end) "
                            + "coroutine.resume(co)")).limit());
            assertEquals(List.of("dead", false, "cannot resume dead coroutine"),
                    sb.evalAll("next", "return coroutine.status(co), coroutine.resume(co)"));
        }
    }

    @Test
    void gasStaysALifetimeBudget() {
        try (Sandbox sb = ThreatSupport.sandbox(Limits.defaults().withGas(100_000))) {
            assertEquals(Limit.GAS, assertThrows(LuaLimitException.class, () -> sb.eval("while true do end")).limit());
            assertEquals(Limit.GAS, assertThrows(LuaLimitException.class, () -> sb.eval("return 1")).limit());
        }
    }

    @Test
    void pcallCatchesNeitherTimeNorCancelAndTheNextRunStillWorks() {
        try (Sandbox sb = ThreatSupport.sandbox(SHORT)) {
            assertEquals(Limit.TIME, assertThrows(LuaLimitException.class, () -> sb.eval(
                    "caught = 0 while true do local ok = pcall(function() while true do end end) caught = caught + 1 end")).limit());
            assertEquals(0L, sb.eval("return caught"));
        }
    }

    @Test
    void anIdleCancelReachesNoRunAndTheNextRunsOwnCancelEndsThatRunOnly() {
        try (Sandbox sb = ThreatSupport.sandbox(LONG_RUN)) {
            sb.cancel(); // idle: nothing to cancel, and nothing kept for later
            assertEquals(true, sb.eval("ran = true return ran"));
            sb.nextRun().cancel();
            assertEquals(Limit.CANCELLED, assertThrows(LuaLimitException.class, () -> sb.eval("ran2 = true")).limit());
            assertEquals(null, sb.getGlobal("ran2")); // nothing of the cancelled run ran
            assertEquals(2L, sb.eval("return 1 + 1"));
        }
    }

    @Test
    void cancelRacingTheEndOfARunNeverDisablesTheSandbox() {
        int trials = 2000;
        int[] counts = new int[2]; // race run cancelled, cancel dropped (came as the run finished)
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            try (Sandbox sb = ThreatSupport.sandbox(LONG_RUN)) {
                for (int trial = 0; trial < trials; trial++) {
                    // the canceller waits for the run to start, then lets it go on for a while
                    // that sweeps across the run's length, so cancels land before, at and after its end
                    int spins = trial % 50 * 100;
                    java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();
                    Thread canceller = new Thread(() -> {
                        while (!sb.isRunning() && !over.get()) Thread.onSpinWait();
                        for (int i = 0; i < spins; i++) Thread.onSpinWait();
                        sb.cancel();
                    });
                    canceller.start();
                    Limit first;
                    try {
                        first = outcome(sb, "local s = 0 for i = 1, 20000 do s = s + i end return s", 200010000L);
                    } finally {
                        over.set(true);
                    }
                    canceller.join();
                    Limit second = outcome(sb, "return 2", 2L);
                    // a cancel ends the racing run or, if it came after its end, nothing
                    assertEquals(null, second, "trial " + trial + ": a late cancel reached the next run");
                    assertEquals(3L, sb.eval("return 3"), "trial " + trial);
                    counts[first != null ? 0 : 1]++;
                }
            }
        });
        System.out.printf("[T20] cancel racing a run's end, %d trials: the run cancelled %d, "
                + "dropped (came as the run finished) %d%n", trials, counts[0], counts[1]);
    }

    /** Runs {@code script}: null when it returned {@code expected}, CANCELLED when it was cancelled. */
    private static Limit outcome(Sandbox sb, String script, Object expected) {
        try {
            assertEquals(expected, sb.eval(script));
            return null;
        } catch (LuaLimitException e) {
            assertEquals(Limit.CANCELLED, e.limit());
            return e.limit();
        } catch (LuaScriptException e) {
            throw new AssertionError(e);
        }
    }
}
