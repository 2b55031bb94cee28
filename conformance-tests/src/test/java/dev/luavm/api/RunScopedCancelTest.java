package dev.luavm.api;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cancellation belongs to a run ({@link Sandbox.Run}): a watchdog holding the run it watched
 * cancels that run and never a later one of the same sandbox (a pool's next tenant), an idle
 * sandbox ignores {@link Sandbox#cancel()}, and a run armed before it starts ends at its start.
 */
@Timeout(60)
class RunScopedCancelTest {
    private static final Limits LIMITS = Limits.defaults().withTimeout(Duration.ofSeconds(30));

    @Test
    void aWatchdogsLateCancelNeverReachesTheNextTenantsRun() throws Exception {
        AtomicReference<Sandbox> self = new AtomicReference<>();
        AtomicReference<Sandbox.Run> watched = new AtomicReference<>();
        CountDownLatch secondRunWaiting = new CountDownLatch(1);
        CountDownLatch lateCancelSent = new CountDownLatch(1);
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("watch", "the watchdog takes the run", c -> {
                    watched.set(self.get().currentRun());
                    return null;
                })
                .grant("pause", "waits until the stale cancel was sent", c -> {
                    secondRunWaiting.countDown();
                    try {
                        assertTrue(lateCancelSent.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("the host call was interrupted: the stale cancel reached this run");
                    }
                    return null;
                })
                .build();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).limits(LIMITS).build()) {
            self.set(sb);
            assertEquals(1L, sb.eval("watch() return 1"));
            Sandbox.Run first = watched.get();
            assertEquals(1L, first.id());
            assertTrue(first.hasEnded());
            assertFalse(first.isRunning());
            // the next tenant's run, waiting in a host call while the stale watchdog fires
            Thread watchdog = new Thread(() -> {
                try {
                    assertTrue(secondRunWaiting.await(20, TimeUnit.SECONDS));
                    first.cancel();
                    sb.nextRun().cancel(); // and the run after the current one is a third run, not this one
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    lateCancelSent.countDown();
                }
            });
            watchdog.start();
            assertEquals(7L, sb.eval("pause() local n = 0 for i = 1, 100000 do n = n + 1 end return 7"));
            watchdog.join(20_000);
            // the third run was armed by nextRun() during the second: it ends at its start, the fourth runs
            assertEquals(Limit.CANCELLED, assertThrows(LuaLimitException.class, () -> sb.eval("third = true")).limit());
            assertNull(sb.getGlobal("third"));
            assertEquals(4L, sb.eval("return 4"));
        }
    }

    @Test
    void theWatchedRunIsCancelledWhereverItIs() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("started", "signals the test", c -> {
                    started.countDown();
                    return null;
                }).build();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).limits(LIMITS).build()) {
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread t = new Thread(() -> ended.set(assertThrows(LuaLimitException.class,
                    () -> sb.eval("started() while true do end"))));
            t.start();
            assertTrue(started.await(20, TimeUnit.SECONDS));
            Sandbox.Run run = sb.currentRun();
            assertTrue(run.isRunning());
            assertEquals(run, sb.currentRun());
            assertNotEquals(run, sb.nextRun());
            run.cancel();
            t.join(20_000);
            assertEquals(Limit.CANCELLED, ((LuaLimitException) ended.get()).limit());
            assertTrue(run.hasEnded());
            assertNull(sb.currentRun());
            run.cancel(); // ended: nothing
            assertEquals(2L, sb.eval("return 2"));
        }
    }

    @Test
    void anIdleCancelIsIgnoredAndAClosedSandboxsRunsCancelNothing() {
        Sandbox sb = LuaVM.create().sandbox().limits(LIMITS).build();
        Sandbox.Run next = sb.nextRun();
        sb.cancel();
        sb.cancel();
        assertEquals(3L, sb.eval("return 1 + 2"));
        assertTrue(next.hasEnded()); // it was the run that just ran, unharmed
        assertEquals(2L, sb.nextRun().id());
        sb.close();
        sb.nextRun().cancel(); // nothing to do, nothing thrown
        sb.cancel();
    }
}
