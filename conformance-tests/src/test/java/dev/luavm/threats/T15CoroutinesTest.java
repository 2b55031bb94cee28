package dev.luavm.threats;

import dev.luavm.Limits;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.assertLimit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** T15 Coroutines cost memory, never OS threads; an abandoned one keeps nothing running. */
class T15CoroutinesTest {
    private static int liveThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    @Test
    void thousandsOfSuspendedCoroutinesUseNoThreads() {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            int before = liveThreads();
            try (Sandbox sb = ThreatSupport.sandbox(TIGHT.withGas(50_000_000).withMemory(64L << 20))) {
                Object n = sb.eval("cos = {} for i = 1, 10000 do local co = coroutine.create(function(a) "
                        + "local b = coroutine.yield(a + 1) return b end) coroutine.resume(co, i) cos[i] = co end "
                        + "return #cos");
                assertEquals(10000L, n);
                int during = liveThreads();
                System.out.println("[T15] threads before " + before + ", with 10,000 suspended coroutines " + during);
                assertTrue(during - before <= 2, "threads grew from " + before + " to " + during);
            }
        });
    }

    @Test
    void abandonedSuspendedCoroutineKeepsNothingRunning() {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            try (Sandbox sb = ThreatSupport.sandbox()) {
                sb.eval("local co = coroutine.wrap(function() while true do counter = (counter or 0) + 1 coroutine.yield() end end) co()");
                assertFalse(sb.isRunning());
                Thread.sleep(50);
                assertEquals(1L, sb.getGlobal("counter"));
                assertEquals(1L, sb.eval("return counter"));
            }
        });
    }

    @Test
    void coroutineCountIsBoundedByMemory() {
        Limits l = TIGHT.withGas(Long.MAX_VALUE).withTimeout(Duration.ofSeconds(20));
        assertLimit(Limit.MEMORY, l, "local t = {} for i = 1, 1e8 do local co = coroutine.create(function() coroutine.yield() end) "
                + "coroutine.resume(co) t[i] = co end");
    }

    @Test
    void deepCoroutineNesting() {
        // a coroutine resuming a coroutine resuming... is Java re-entry: a Lua error, never a Java one
        ThreatSupport.assertContained("local function f(n) local co = coroutine.create(f) "
                + "local ok, e = coroutine.resume(co, n + 1) if not ok then error(e, 0) end end f(1)");
    }
}
