package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T21 The memory cap is exact and recoverable: values the host hands in are charged before
 * they are built, the peak never passes the cap, and freeing memory makes the sandbox usable.
 */
class T21ExactMemoryCapTest {
    private static final long MIB = 1L << 20;
    private static final Limits CAP8 = Limits.defaults().withGas(Long.MAX_VALUE).withMemory(8 * MIB)
            .withTimeout(Duration.ofSeconds(60));

    private static List<String> strings(int n) {
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add("value number " + i + " padded to about a hundred bytes ......................................");
        return out;
    }

    private static Sandbox withHost(Limits limits, Object big) {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("big", "returns a big value", c -> big)
                .grant("take", "takes anything", c -> c.args().size())
                .build();
        return VM.sandbox(caps, limits);
    }

    private static void assertPeakWithinCap(Sandbox sb) {
        long cap = sb.limits().memoryBytes();
        System.out.println("[T21] " + sb.usage());
        assertTrue(sb.usage().peakMemoryBytes() <= cap, () -> "peak " + sb.usage().peakMemoryBytes() + " > cap " + cap);
        assertTrue(sb.usage().memoryBytes() <= sb.usage().peakMemoryBytes(), () -> "now above peak: " + sb.usage());
    }

    @Test
    void aCapTooSmallForTheLibrariesIsAMemoryLimitWhenTheSandboxIsBuilt() {
        for (long cap : new long[] {1, 500, 4096}) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> VM.sandbox()
                    .capabilities(Capabilities.standard()).limits(Limits.defaults().withMemory(cap)).build());
            assertEquals(Limit.MEMORY, e.limit(), "cap " + cap);
        }
    }

    @Test
    void aHostResultOverTheCapIsRefused() {
        try (Sandbox sb = withHost(CAP8, strings(200_000))) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("r = big() return #r"));
            assertEquals(Limit.MEMORY, e.limit());
            assertPeakWithinCap(sb);
            assertEquals(List.of(false, "not enough memory"), sb.evalAll("x", "return pcall(big)"));
            assertPeakWithinCap(sb);
            assertEquals(2L, sb.eval("return 1 + 1"));
        }
    }

    @Test
    void aNestedSharedHostResultIsChargedForEachCopy() {
        // one list shared 40 times converts once (a DAG stays a DAG): it fits
        List<String> shared = strings(10_000);
        List<Object> outer = new ArrayList<>();
        for (int i = 0; i < 20; i++) outer.add(List.of(shared, Map.of("k", shared)));
        try (Sandbox sb = withHost(CAP8, outer)) {
            assertEquals(20L, sb.eval("local r = big() return #r"));
            assertPeakWithinCap(sb);
        }
        List<Object> nested = new ArrayList<>();
        for (int i = 0; i < 20; i++) nested.add(List.of(strings(10_000), Map.of("k", strings(100))));
        try (Sandbox sb = withHost(CAP8, nested)) {
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("r = big() return #r"));
            assertEquals(Limit.MEMORY, e.limit());
            assertPeakWithinCap(sb);
        }
    }

    @Test
    void argumentsOverTheCapAreRefused() {
        try (Sandbox sb = withHost(CAP8, null)) {
            sb.eval("function f(x) keep = x return #x end");
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.call("f", strings(200_000)));
            assertEquals(Limit.MEMORY, e.limit());
            assertPeakWithinCap(sb);
            assertEquals(3L, sb.call("f", List.of(1, 2, 3)).get(0));
        }
    }

    @Test
    void setGlobalOverTheCapIsRefusedAndSetGlobalNullFrees() {
        try (Sandbox sb = withHost(CAP8, null)) {
            Map<String, Object> big = new HashMap<>();
            for (int i = 0; i < 5; i++) big.put("k" + i, strings(10_000));
            sb.setGlobal("a", big);
            assertPeakWithinCap(sb);
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.setGlobal("b", strings(200_000)));
            assertEquals(Limit.MEMORY, e.limit());
            assertPeakWithinCap(sb);
            sb.setGlobal("a", null);
            sb.setGlobal("b", strings(40_000));
            assertEquals(40_000L, sb.eval("return #b"));
            assertPeakWithinCap(sb);
        }
    }

    @Test
    void aSandboxAtTheCapRecoversOnceTheScriptFreesMemory() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = VM.sandbox(Capabilities.standard(), CAP8)) {
                LuaLimitException e = assertThrows(LuaLimitException.class,
                        () -> sb.eval("t = {} for i = 1, 1e8 do t[i] = 'x' .. i end"));
                assertEquals(Limit.MEMORY, e.limit());
                assertPeakWithinCap(sb);
                sb.eval("t = nil");
                assertEquals(2L, sb.eval("return 1 + 1"));
                assertEquals(1000L, sb.eval("local u = {} for i = 1, 1000 do u[i] = i end return #u"));
                assertPeakWithinCap(sb);
            }
        });
    }

    @Test
    void aSandboxAtTheCapRecoversThroughSetGlobalNull() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = VM.sandbox(Capabilities.standard(), CAP8)) {
                assertThrows(LuaLimitException.class, () -> sb.eval("t = {} for i = 1, 1e8 do t[i] = 'x' .. i end"));
                sb.setGlobal("t", null);
                assertEquals(2L, sb.eval("return 1 + 1"));
            }
        });
    }

    @Test
    void usageFiguresAgreeAfterARefusedGrow() {
        for (String script : List.of("local t = {} for i = 1, 1e8 do t[i] = i end",
                "local t = {} for i = 1, 1e8 do t['k' .. i] = i end",
                "t = {} for i = 1, 1e8 do t[i] = i end")) {
            try (Sandbox sb = VM.sandbox(Capabilities.standard(), Limits.defaults().withGas(Long.MAX_VALUE).withMemory(4 * MIB))) {
                assertThrows(LuaLimitException.class, () -> sb.eval(script));
                assertPeakWithinCap(sb);
                sb.eval("t = nil");
                assertPeakWithinCap(sb);
            }
        }
    }

    @Test
    void thePeakNeverPassesTheCapInAnyHeapBomb() {
        List<String> bombs = List.of(
                "local s = 'x' while true do s = s .. s end",
                "local t = {} for i = 1, 1e8 do t[i] = {} end",
                "local t = {} for i = 1, 1e8 do t['k' .. i] = i end",
                "local t = {} for i = 1, 1e8 do t[i] = function() return i end end",
                "local t = {} for i = 1, 1e8 do t[i] = coroutine.create(print) end",
                "local t = {} for i = 1, 1e8 do t = {t} end",
                "local t = {} for i = 1, 1e8 do t[i] = string.rep('x', 1000) .. i end",
                "local t = {} for i = 1, 1e8 do t[#t + 1] = i end",
                "local s = {} for i = 1, 1e8 do s[i] = tostring(i) end return table.concat(s)",
                "local t = {} for i = 1, 1e8 do t[i] = string.rep('y', i % 5000) end",
                "local body = string.rep('x', 2^20) local src = {} for i = 1, 16 do src[i] = body end "
                        + "return load(\"return '\" .. table.concat(src) .. \"'\")()");
        for (long cap : new long[] {1 * MIB, 8 * MIB, 8_388_608L + 12_345}) {
            for (String bomb : bombs) {
                Limits limits = Limits.defaults().withGas(Long.MAX_VALUE).withMemory(cap).withTimeout(Duration.ofSeconds(60));
                assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
                    try (Sandbox sb = VM.sandbox(Capabilities.standard(), limits)) {
                        LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(bomb));
                        assertEquals(Limit.MEMORY, e.limit(), bomb);
                        assertPeakWithinCap(sb);
                    }
                });
            }
        }
    }

    @Test
    void memoryErrorsInsideARunAreCatchable() {
        try (Sandbox sb = withHost(CAP8, strings(200_000))) {
            assertEquals(List.of(false, "not enough memory", 2L),
                    sb.evalAll("x", "local ok, m = pcall(big) return ok, type(m) == 'table' and #m or m, 1 + 1"));
        }
    }

    @Test
    void aFreshSandboxIsAccountedExactly() {
        for (Capabilities caps : List.of(Capabilities.standard(), Capabilities.builder().bundle("base").build())) {
            try (Sandbox sb = VM.sandbox(caps, CAP8)) {
                // nothing a walk finds may have escaped its charge: the estimate is never below it
                List<Object> r = sb.evalAll("x", "local before = collectgarbage('count') collectgarbage() "
                        + "return before, collectgarbage('count')");
                System.out.println("[T21] fresh sandbox, KiB before and after a collection: " + r);
                assertTrue((Double) r.get(0) >= (Double) r.get(1), r::toString);
            }
        }
    }
}
