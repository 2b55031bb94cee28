package dev.luavm.threats;

import dev.luavm.Limits;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T5 Heap bombs end with "not enough memory" (the memory limit when uncaught), checked before
 * the JVM allocates; the cap applies to what the script holds, not to churn.
 */
class T05HeapBombsTest {
    private static final Limits PLENTY_OF_GAS = TIGHT.withGas(Long.MAX_VALUE).withTimeout(Duration.ofSeconds(20));

    @Test
    void hugeSingleAllocation() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local s = string.rep('x', 2^30)");
    }

    @Test
    void doublingConcatenation() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local s = 'x' while true do s = s .. s end");
    }

    @Test
    void tableCount() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local t = {} for i = 1, 1e8 do t[i] = {} end");
    }

    @Test
    void hashPartGrowth() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local t = {} for i = 1, 1e8 do t['k' .. i] = i end");
    }

    @Test
    void closureCount() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local t = {} for i = 1, 1e8 do t[i] = function() return i end end");
    }

    @Test
    void coroutineCount() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local t = {} for i = 1, 1e8 do t[i] = coroutine.create(print) end");
    }

    @Test
    void deepNesting() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS, "local t = {} for i = 1, 1e8 do t = {t} end");
    }

    @Test
    void longLiteralThroughLoad() {
        assertLimit(Limit.MEMORY, PLENTY_OF_GAS,
                "local body = string.rep('x', 2^22) local src = {} for i = 1, 8 do src[i] = body end "
                        + "return load(\"return '\" .. table.concat(src) .. \"'\")()");
    }

    @Test
    void pcallCatchesNotEnoughMemoryAsPucDoes() {
        assertEquals(List.of(false, "not enough memory"), run(PLENTY_OF_GAS, "return pcall(string.rep, 'x', 2^30)"));
    }

    @Test
    void churnCompletesHoldingFails() {
        Limits cap64 = Limits.unlimited().withMemory(64L << 20).withTimeout(Duration.ofSeconds(60));
        assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
            try (Sandbox sb = ThreatSupport.sandbox(cap64)) {
                // 1 GiB built and dropped in 1 MiB pieces
                assertEquals("ok", sb.eval("for i = 1, 1024 do local s = string.rep('x', 2^20) end return 'ok'"));
                assertTrue(sb.usage().peakMemoryBytes() <= 64L << 20);
            }
        });
        assertLimit(Limit.MEMORY, cap64, "local keep = {} for i = 1, 100 do keep[i] = string.rep('x', 2^20) end");
    }

    @Test
    void samePeakOnEveryRun() {
        String script = "local keep = {} for i = 1, 200 do keep[i] = string.rep('x', 1000 + i) .. i end "
                + "for i = 1, 2000 do local garbage = {i, tostring(i)} end return #keep";
        long[] peaks = new long[3];
        for (int i = 0; i < peaks.length; i++) {
            try (Sandbox sb = ThreatSupport.sandbox(PLENTY_OF_GAS.withMemory(1L << 20))) {
                assertEquals(200L, sb.eval(script));
                peaks[i] = sb.usage().peakMemoryBytes();
            }
        }
        System.out.println("[T5] peak memory of the same script, three sandboxes: " + java.util.Arrays.toString(peaks));
        assertEquals(peaks[0], peaks[1]);
        assertEquals(peaks[0], peaks[2]);
    }
}
