package dev.luavm.host;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.HostCallPolicy.Decision;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The worked example of docs/API.md ("Governing host calls"), kept true by running it. */
class InvoiceToolExampleTest {
    static final String SCRIPT = String.join("\n",
            "local inv = invoice.get('INV-1001')",
            "local ok, err = pcall(payments.refund, inv.id, 5000, 'tok_visa')",
            "print(ok, err)",
            "print(payments.refund(inv.id, 500, 'tok_visa'))",
            "print(pcall(invoice.delete, inv.id))");

    record Review(CallRequest request, CompletableFuture<Decision> answer) {}

    @Test
    void theInvoiceTool() throws Exception {
        Map<String, Map<String, Object>> invoices = Map.of("INV-1001", Map.of("id", "INV-1001", "customer", "ACME", "total", 12_000L));
        Capabilities caps = Capabilities.standard().toBuilder()
                .declare("invoice.get", "Read an invoice").safe()
                .param("id", "string", "invoice id", ArgConstraint.pattern("^INV%-%d+$"))
                .returns("table", "the invoice: id, customer, total (cents)")
                .grant(call -> invoices.get(call.stringArg(0)))
                .declare("payments.refund", "Refund part of an invoice").unsafe()
                .param("invoice", "string", "invoice id", ArgConstraint.pattern("^INV%-%d+$"))
                .param("amount", "integer", "amount in cents", ArgConstraint.range(1, 1000))
                .param("card_token", "string", "the card to refund to")
                .returns("string", "the refund id")
                .effects("network", "writes:payments")
                .redact(Redactor.hide("card_token"))
                .grant(call -> "re-1")
                .declare("invoice.delete", "Delete an invoice").forbid()
                .build();

        BlockingQueue<Review> reviewQueue = new LinkedBlockingQueue<>();
        Operator reviewer = request -> {
            CompletableFuture<Decision> f = new CompletableFuture<>();
            reviewQueue.add(new Review(request, f));
            return f;
        };
        HostCallPolicy policy = HostCallPolicy.firstDenyWins(
                HostCallPolicy.quota("payments.refund", 3, 10),
                HostCallPolicy.ask(reviewer));

        ExecutorService ann = Executors.newSingleThreadExecutor();
        ann.submit(() -> {
            Review r = reviewQueue.poll(10, TimeUnit.SECONDS);
            r.answer().complete(Decision.allow("approved by ann"));
            return null;
        });
        MemoryAuditSink log = new MemoryAuditSink();
        String output;
        try (Sandbox sb = LuaVM.create().sandbox().name("agent-42").capabilities(caps)
                .limits(Limits.defaults().withTimeout(Duration.ofMinutes(5)))
                .policy(policy).audit(log).build()) {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> sb.eval("tool.lua", SCRIPT));
            output = sb.output();
        } finally {
            ann.shutdownNow();
        }
        assertEquals("false\tpermission denied: payments.refund: amount 5000 exceeds 1000\nre-1\n"
                + "false\tpermission denied: invoice.delete: forbidden\n", output);
        assertEquals("payments.refund(invoice: string matches '^INV%-%d+$', amount: integer 1..1000, card_token: string) "
                + "-> string [UNSAFE; network, writes:payments] - Refund part of an invoice", caps.describe().get(8));

        List<AuditEvent> events = log.events();
        assertEquals(6, events.size());
        assertInstanceOf(RunStarted.class, events.get(0));
        List<String> calls = log.events(HostCallEvent.class).stream()
                .map(e -> e.function() + " " + e.verdict() + " " + e.reason() + " " + e.outcome() + " " + e.args()).toList();
        assertEquals(List.of(
                "invoice.get ALLOWED safe RETURNED [INV-1001]",
                "payments.refund DENIED amount 5000 exceeds 1000 REFUSED [INV-1001, 5000, <redacted>]",
                "payments.refund ALLOWED operator: approved by ann RETURNED [INV-1001, 500, <redacted>]",
                "invoice.delete FORBIDDEN forbidden REFUSED [INV-1001]"), calls);
        assertEquals(RunEnded.Outcome.OK, assertInstanceOf(RunEnded.class, events.get(5)).outcome());
    }
}
