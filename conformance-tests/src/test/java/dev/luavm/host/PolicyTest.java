package dev.luavm.host;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.host.HostCallPolicy.Decision;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 2: each built-in policy, quotas, composition, and ask (answered, timed out, cancelled). */
class PolicyTest {
    private final AtomicInteger sent = new AtomicInteger();

    private Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("mail.send", "Send an e-mail").unsafe()
                .param("to", "string", "recipient")
                .effects("network")
                .grant(call -> "sent" + sent.incrementAndGet())
                .declare("mail.count", "Count mails").unsafe().grant(call -> sent.get())
                .build();
    }

    private Sandbox sandbox(HostCallPolicy policy, MemoryAuditSink sink, Limits limits) {
        return LuaVM.create().sandbox().capabilities(caps()).limits(limits).policy(policy).audit(sink).build();
    }

    private Sandbox sandbox(HostCallPolicy policy, MemoryAuditSink sink) {
        return sandbox(policy, sink, Limits.defaults());
    }

    @Test
    void allowAllDenyAllAuditOnly() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), sink)) {
            assertEquals("sent1", sb.eval("t", "return mail.send('a@b')"));
        }
        try (Sandbox sb = sandbox(HostCallPolicy.denyAll(), sink)) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.send('a@b')"));
            assertEquals("t:1: permission denied: mail.send: all host calls are denied", e.getMessage());
        }
        try (Sandbox sb = sandbox(HostCallPolicy.auditOnly(), sink)) {
            assertEquals("sent2", sb.eval("t", "return mail.send('a@b')"));
        }
        List<HostCallEvent> calls = sink.events(HostCallEvent.class);
        assertEquals(List.of("allow-all", "all host calls are denied", "audit-only"),
                calls.stream().map(HostCallEvent::reason).toList());
        assertEquals(List.of(HostCallEvent.Verdict.ALLOWED, HostCallEvent.Verdict.DENIED, HostCallEvent.Verdict.ALLOWED),
                calls.stream().map(HostCallEvent::verdict).toList());
    }

    @Test
    void aDenialIsCatchableAndSaysWhy() {
        HostCallPolicy noStrangers = r -> String.valueOf(r.arg("to")).endsWith("@example.com")
                ? Decision.allow("internal") : Decision.deny("recipient " + r.arg("to") + " is outside example.com");
        try (Sandbox sb = sandbox(noStrangers, new MemoryAuditSink())) {
            assertEquals(List.of(false, "t:1: permission denied: mail.send: recipient x@evil.org is outside example.com", "sent1"),
                    sb.evalAll("t", "local ok, e = pcall(function() return mail.send('x@evil.org') end) "
                            + "return ok, e, mail.send('ann@example.com')"));
        }
    }

    @Test
    void thePolicySeesTheRequest() {
        List<String> seen = new ArrayList<>();
        HostCallPolicy spy = r -> {
            seen.add(r.sandboxName() + " " + r.name() + " " + r.args() + " #" + r.callNumber() + " " + r.chunk() + ":" + r.line()
                    + " " + r.grant().effects() + " prev=" + r.previousCallsThisRun() + "/" + r.previousCallsThisSandbox()
                    + " elapsedOk=" + (!r.elapsed().isNegative()));
            return Decision.allow();
        };
        try (Sandbox sb = LuaVM.create().sandbox().name("job-7").capabilities(caps()).policy(spy).build()) {
            sb.eval("tool.lua", "mail.count()\nmail.send('a@b')\nmail.send('c@d')");
            sb.eval("tool.lua", "mail.send('e@f')");
        }
        assertEquals(List.of(
                "job-7 mail.count [] #1 tool.lua:1 [] prev=0/0 elapsedOk=true",
                "job-7 mail.send [a@b] #2 tool.lua:2 [network] prev=0/0 elapsedOk=true",
                "job-7 mail.send [c@d] #3 tool.lua:3 [network] prev=1/1 elapsedOk=true",
                "job-7 mail.send [e@f] #1 tool.lua:1 [network] prev=0/2 elapsedOk=true"), seen);
    }

    @Test
    void quotasPerRunAndPerSandbox() {
        HostCallPolicy quota = HostCallPolicy.firstDenyWins(HostCallPolicy.quota("mail.send", 2, 3), HostCallPolicy.allowAll());
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(quota, sink)) {
            // pcall calls it directly: no Lua caller, so no position (as in PUC)
            assertEquals(List.of("sent1", "sent2", false, "permission denied: mail.send: quota of 2 calls per run reached"),
                    sb.evalAll("t", "local a, b = mail.send('x'), mail.send('y') "
                            + "local ok, e = pcall(mail.send, 'z') return a, b, ok, e"));
            // other functions are not counted
            assertEquals(2L, sb.eval("t", "mail.count() mail.count() mail.count() return mail.count()"));
            // a new run has a fresh run quota, but the sandbox has one call left
            assertEquals("sent3", sb.eval("t", "return mail.send('x')"));
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.send('x')"));
            assertEquals("t:1: permission denied: mail.send: quota of 3 calls per sandbox reached", e.getMessage());
        }
        // a new sandbox starts afresh: the policy object holds no counts
        try (Sandbox sb = sandbox(quota, sink)) {
            assertEquals("sent4", sb.eval("t", "return mail.send('x')"));
        }
        assertEquals(4, sent.get());
    }

    @Test
    void firstDenyWins() {
        AtomicInteger later = new AtomicInteger();
        HostCallPolicy counting = r -> {
            later.incrementAndGet();
            return Decision.allow();
        };
        HostCallPolicy p = HostCallPolicy.firstDenyWins(HostCallPolicy.auditOnly(),
                r -> r.name().equals("mail.send") ? Decision.deny("no mail today") : Decision.allow(),
                HostCallPolicy.denyAll(), counting);
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(p, sink)) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.send('x')"));
            assertEquals("t:1: permission denied: mail.send: no mail today", e.getMessage());
            e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.count()"));
            assertEquals("t:1: permission denied: mail.count: all host calls are denied", e.getMessage());
        }
        assertEquals(0, later.get());
        try (Sandbox sb = sandbox(HostCallPolicy.firstDenyWins(HostCallPolicy.auditOnly(), counting), sink)) {
            assertEquals(0L, sb.eval("t", "return mail.count()"));
        }
        assertEquals(1, later.get());
        assertEquals("audit-only", sink.events(HostCallEvent.class).get(2).reason());
    }

    @Test
    void aPolicyThatThrowsDenies() {
        try (Sandbox sb = sandbox(r -> { throw new IllegalStateException("bug"); }, new MemoryAuditSink())) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.send('x')"));
            assertEquals("t:1: permission denied: mail.send: the policy failed", e.getMessage());
            assertEquals(0, sent.get());
        }
    }

    @Test
    void anOperatorThatFailsDenies() {
        for (Operator broken : List.<Operator>of(r -> { throw new IllegalStateException("queue down"); }, r -> null,
                r -> CompletableFuture.failedFuture(new RuntimeException("ui crashed")),
                r -> CompletableFuture.completedFuture(Decision.ask(r2 -> null)))) {
            try (Sandbox sb = sandbox(HostCallPolicy.ask(broken), new MemoryAuditSink())) {
                LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "return mail.send('x')"));
                assertTrue(e.getMessage().startsWith("t:1: permission denied: mail.send: the operator "), e.getMessage());
            }
        }
        assertEquals(0, sent.get());
    }

    /** An operator as a queue: the sandbox posts requests, another thread answers them. */
    private static final class QueueOperator implements Operator {
        record Pending(CallRequest request, CompletableFuture<Decision> answer) {}

        final BlockingQueue<Pending> pending = new LinkedBlockingQueue<>();

        @Override
        public CompletableFuture<Decision> ask(CallRequest request) {
            CompletableFuture<Decision> f = new CompletableFuture<>();
            pending.add(new Pending(request, f));
            return f;
        }
    }

    @Test
    void askIsAnsweredFromAnotherThread() throws Exception {
        QueueOperator op = new QueueOperator();
        MemoryAuditSink sink = new MemoryAuditSink();
        ExecutorService reviewer = Executors.newSingleThreadExecutor();
        try (Sandbox sb = sandbox(HostCallPolicy.ask(op), sink)) {
            Future<List<String>> answered = reviewer.submit(() -> {
                List<String> asked = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    QueueOperator.Pending p = op.pending.poll(10, TimeUnit.SECONDS);
                    asked.add(p.request().name() + p.request().args() + " at " + p.request().chunk() + ":" + p.request().line());
                    p.answer().complete(p.request().arg(0).equals("boss@example.com")
                            ? Decision.allow("approved by ann") : Decision.deny("rejected by ann"));
                }
                return asked;
            });
            List<Object> r = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> sb.evalAll("agent.lua",
                    "local a = mail.send('boss@example.com')\nlocal ok, e = pcall(function() return mail.send('all@example.com') end)\nreturn a, ok, e"));
            assertEquals(List.of("sent1", false, "agent.lua:2: permission denied: mail.send: rejected by ann"), r);
            assertEquals(List.of("mail.send[boss@example.com] at agent.lua:1", "mail.send[all@example.com] at agent.lua:2"),
                    answered.get(10, TimeUnit.SECONDS));
        } finally {
            reviewer.shutdownNow();
        }
        List<HostCallEvent> calls = sink.events(HostCallEvent.class);
        assertEquals("operator: approved by ann", calls.get(0).reason());
        assertEquals("rejected by ann", calls.get(1).reason());
    }

    @Test
    void aBlockingOperatorRunsOnAnExecutor() {
        ExecutorService console = Executors.newSingleThreadExecutor();
        try (Sandbox sb = sandbox(HostCallPolicy.ask(Operator.blocking(console, r -> {
            Thread.sleep(50); // a person reading the prompt
            return Decision.allow("typed y");
        })), new MemoryAuditSink())) {
            assertEquals("sent1", sb.eval("t", "return mail.send('x')"));
        } finally {
            console.shutdownNow();
        }
    }

    @Test
    void askIsInterruptedByTheTimeLimit() {
        QueueOperator op = new QueueOperator(); // nobody answers
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(HostCallPolicy.ask(op), sink, Limits.defaults().withTimeout(Duration.ofMillis(300)))) {
            long t0 = System.nanoTime();
            LuaLimitException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(LuaLimitException.class, () -> sb.eval("t", "return pcall(mail.send, 'x')")));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("ask interrupted by a 300 ms time limit after " + ms + " ms");
            assertEquals(LuaLimitException.Limit.TIME, e.limit());
            assertTrue(ms < 5_000, "took " + ms + " ms");
            assertTrue(op.pending.peek().answer().isCancelled(), "the abandoned question is withdrawn");
        }
        assertEquals(0, sent.get());
        HostCallEvent call = sink.events(HostCallEvent.class).get(0);
        assertEquals(HostCallEvent.Verdict.UNDECIDED, call.verdict());
        assertEquals(HostCallEvent.Outcome.RUN_ENDED, call.outcome());
        assertEquals("time limit exceeded", call.error());
        RunEnded end = sink.events(RunEnded.class).get(0);
        assertEquals(RunEnded.Outcome.LIMIT, end.outcome());
        assertEquals("time", end.limit());
    }

    @Test
    void askIsInterruptedByCancel() throws Exception {
        // an operator that blocks on the sandbox's own thread: cancel interrupts it
        CompletableFuture<Void> asking = new CompletableFuture<>();
        Operator stuck = r -> {
            asking.complete(null);
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new CompletableFuture<>();
        };
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(HostCallPolicy.ask(stuck), sink)) {
            ExecutorService canceller = Executors.newSingleThreadExecutor();
            try {
                Future<?> cancel = canceller.submit(() -> {
                    asking.get(10, TimeUnit.SECONDS);
                    Thread.sleep(50);
                    sb.cancel();
                    return null;
                });
                long t0 = System.nanoTime();
                LuaLimitException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                        () -> assertThrows(LuaLimitException.class, () -> sb.eval("t", "return pcall(mail.send, 'x')")));
                System.out.println("ask ended by cancel after " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                assertEquals(LuaLimitException.Limit.CANCELLED, e.limit());
                cancel.get(10, TimeUnit.SECONDS);
            } finally {
                canceller.shutdownNow();
            }
        }
        HostCallEvent call = sink.events(HostCallEvent.class).get(0);
        assertEquals(HostCallEvent.Outcome.RUN_ENDED, call.outcome());
        assertEquals(RunEnded.Outcome.CANCELLED, sink.events(RunEnded.class).get(0).outcome());
        assertNull(sink.events(RunEnded.class).get(0).limit());
    }

    @Test
    void askWaitingOnAFutureIsCancelledToo() {
        QueueOperator op = new QueueOperator();
        try (Sandbox sb = sandbox(HostCallPolicy.ask(op), new MemoryAuditSink())) {
            ExecutorService canceller = Executors.newSingleThreadExecutor();
            try {
                canceller.submit(() -> {
                    op.pending.poll(10, TimeUnit.SECONDS);
                    sb.cancel();
                    return null;
                });
                LuaLimitException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                        () -> assertThrows(LuaLimitException.class, () -> sb.eval("t", "return pcall(mail.send, 'x')")));
                assertEquals(LuaLimitException.Limit.CANCELLED, e.limit());
            } finally {
                canceller.shutdownNow();
            }
        }
    }
}
