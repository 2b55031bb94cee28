package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;

import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** T21 The timeout interrupts a host function blocked in I/O or waiting, as cancel does: the run ends with TIME. */
class T21TimeoutInHostCallTest {
    private static final Limits SHORT = Limits.defaults().withTimeout(Duration.ofMillis(300));

    private static final Capabilities CAPS = Capabilities.standard().toBuilder()
            .grant("sleep", "sleeps a minute", c -> {
                Thread.sleep(60_000);
                return "woke";
            })
            .grant("take", "waits on an empty queue", c -> new LinkedBlockingQueue<String>().take())
            .grant("stubborn", "turns the interrupt into another exception", c -> {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    throw new IllegalStateException("interrupted", e);
                }
                return "woke";
            })
            .grant("quick", "returns at once", c -> "ok")
            .build();

    private static void assertTimeUp(String script) {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try (Sandbox sb = VM.sandbox(CAPS, SHORT)) {
                long t0 = System.nanoTime();
                LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(script));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.println("[T21] " + script + " ended with " + e.limit() + " after " + ms + " ms");
                assertEquals(Limit.TIME, e.limit());
                // the sandbox is usable afterwards, and no interrupt leaks into the next run
                assertEquals("ok", sb.eval("return quick()"));
                assertEquals(false, Thread.currentThread().isInterrupted());
            }
        });
    }

    @Test
    void aSleepingHostFunctionIsInterruptedAtTheDeadline() {
        assertTimeUp("return sleep()");
    }

    @Test
    void aHostFunctionWaitingOnAQueueIsInterruptedAtTheDeadline() {
        assertTimeUp("return take()");
    }

    @Test
    void pcallCannotCatchTheTimeoutOfAHostCall() {
        assertTimeUp("local ok = pcall(sleep) while true do end");
    }

    @Test
    void anInterruptTurnedIntoAnotherExceptionStillEndsTheRunWithTime() {
        assertTimeUp("local ok, e = pcall(stubborn) return ok, e");
    }

    @Test
    void quickHostCallsBeforeTheDeadlineAreNotInterrupted() {
        try (Sandbox sb = VM.sandbox(CAPS, Limits.defaults().withTimeout(Duration.ofSeconds(30)))) {
            assertEquals(1000L, sb.eval("local n = 0 for i = 1, 1000 do if quick() == 'ok' then n = n + 1 end end return n"));
        }
    }
}
