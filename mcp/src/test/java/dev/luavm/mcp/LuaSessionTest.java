package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** One session's runs in process: cancellation at each point of a call, and the session's gas. */
@Timeout(60)
class LuaSessionTest {
    private final CountDownLatch running = new CountDownLatch(1);
    private final Capabilities caps = Capabilities.standard().toBuilder()
            .grant("ready", "says the script is running", call -> {
                running.countDown();
                return null;
            })
            .build();
    private final Limits limits = Limits.defaults().withTimeout(Duration.ofSeconds(30)).withGas(Long.MAX_VALUE / 2)
            .withRunGas(Long.MAX_VALUE / 4);

    @SuppressWarnings("unchecked")
    private static Map<String, Object> error(Map<String, Object> report) {
        return (Map<String, Object>) report.get("error");
    }

    @SuppressWarnings("unchecked")
    private static long usage(Map<String, Object> report, String key) {
        return ((Number) ((Map<String, Object>) report.get("usage")).get(key)).longValue();
    }

    @Test
    void aCancelDuringTheRunEndsItAndTheStateItLeftStays() throws Exception {
        try (LuaSession session = new LuaSession(LuaVM.create(), caps, limits, "t")) {
            CallCancellation cancellation = new CallCancellation();
            CompletableFuture<Map<String, Object>> call = CompletableFuture.supplyAsync(() -> {
                try {
                    return session.run("x = 1 ready() while true do end", cancellation);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(running.await(30, TimeUnit.SECONDS));
            cancellation.cancel();
            Map<String, Object> r = call.get(20, TimeUnit.SECONDS); // long before the 30 s time limit
            assertEquals("cancelled", error(r).get("limit"), r.toString());
            assertTrue(usage(r, "gas") > 0, "the run's gas is counted: " + r);
            assertEquals(List.of(1L), session.run("x").get("results"), "the next call runs, on the state left");
        }
    }

    @Test
    void aCancelBeforeTheRunStopsItBeforeAnyCode() throws Exception {
        try (LuaSession session = new LuaSession(LuaVM.create(), caps, limits, "t")) {
            CallCancellation cancellation = new CallCancellation();
            cancellation.cancel();
            Map<String, Object> r = session.run("x = 1", cancellation);
            assertEquals("cancelled", error(r).get("limit"), r.toString());
            assertEquals(0, usage(r, "gas"));
            assertEquals(java.util.Collections.singletonList(null), session.run("x").get("results"), "x = 1 never ran");
        }
    }

    @Test
    void aCancelAfterTheRunEndedStopsNoLaterCall() throws Exception {
        try (LuaSession session = new LuaSession(LuaVM.create(), caps, limits, "t")) {
            CallCancellation cancellation = new CallCancellation();
            assertEquals(List.of(2L), session.run("1 + 1", cancellation).get("results"));
            cancellation.cancel();
            assertEquals(List.of(3L), session.run("1 + 2").get("results"));
        }
    }

    @Test
    void aResetCostsWhatIsLeftWhenLessIsLeftThanItsPrice() throws Exception {
        Limits small = Limits.defaults().withGas(3_000_000).withRunGas(2_000_000);
        try (LuaSession session = new LuaSession(LuaVM.create(), caps, small, "t", 1_500_000)) {
            Map<String, Object> first = session.run("while true do end");
            assertEquals("gas", error(first).get("limit"));
            long left = usage(first, "gasLeft");
            assertTrue(left > 0 && left < 1_500_000, first.toString());
            Map<String, Object> reset = session.reset();
            assertEquals(left, usage(reset, "gas"), "all that was left: " + reset);
            assertEquals(0, usage(reset, "gasLeft"));
            Map<String, Object> after = session.run("return 1");
            assertEquals("gas", error(after).get("limit"), after.toString());
            assertEquals(0, usage(after, "gas"));
        }
    }
}
