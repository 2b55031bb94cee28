package dev.luavm.host;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 1: declared host functions, safety classes, argument types and constraints. */
class DeclaredGrantTest {
    static final Limits LIMITS = Limits.defaults().withGas(10_000_000);

    private final AtomicInteger refunds = new AtomicInteger();

    private Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("invoice.get", "Read an invoice").safe()
                .param("id", "string", "invoice id", ArgConstraint.pattern("^INV%-%d+$"))
                .returns("table", "the invoice")
                .grant(call -> java.util.Map.of("id", call.stringArg(0), "total", 4200L))
                .declare("payments.refund", "Refund part of an invoice").unsafe()
                .param("invoice", "string", "invoice id", ArgConstraint.length(5, 20))
                .param("amount", "integer", "amount in cents", ArgConstraint.range(1, 1000))
                .param("currency", "string?", "ISO code", ArgConstraint.oneOf("EUR", "USD"))
                .returns("string", "refund id")
                .effects("network", "writes:payments")
                .grant(call -> "R" + refunds.incrementAndGet())
                .declare("payments.delete_all", "Delete every payment").forbid()
                .build();
    }

    private Sandbox sandbox(HostCallPolicy policy, MemoryAuditSink sink) {
        return LuaVM.create().sandbox().capabilities(caps()).limits(LIMITS).policy(policy).audit(sink).build();
    }

    @Test
    void describeListsDeclarations() {
        List<String> lines = caps().describe();
        assertTrue(lines.contains("invoice.get(id: string matches '^INV%-%d+$') -> table [SAFE] - Read an invoice"), lines.toString());
        assertTrue(lines.contains("payments.refund(invoice: string length 5..20, amount: integer 1..1000, currency: string? "
                + "one of 'EUR', 'USD') -> string [UNSAFE; network, writes:payments] - Refund part of an invoice"), lines.toString());
        assertTrue(lines.contains("payments.delete_all() [FORBIDDEN] - Delete every payment"), lines.toString());
        // the short form is unchanged: an UNSAFE grant with nothing declared
        Capabilities plain = Capabilities.none().toBuilder().grant("lookup", "Look up", c -> 1L).build();
        assertEquals(List.of("lookup - Look up"), plain.describe());
        assertEquals(Safety.UNSAFE, plain.hostFunctions().get("lookup").safety());
    }

    @Test
    void constraintsRefuseBeforeTheFunctionRuns() {
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), sink)) {
            assertEquals(List.of(false, "t:1: permission denied: payments.refund: amount 5000 exceeds 1000"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV-1', 5000) end)"));
            assertEquals(List.of(false, "t:1: permission denied: payments.refund: amount 0 is below 1"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV-1', 0) end)"));
            assertEquals(List.of(false, "t:1: permission denied: payments.refund: currency 'GBP' is not one of 'EUR', 'USD'"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV-1', 5, 'GBP') end)"));
            assertEquals(List.of(false, "t:1: permission denied: payments.refund: invoice is 3 bytes long, less than 5"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV', 5) end)"));
            assertEquals(List.of(false, "t:1: permission denied: invoice.get: id 'INV-12x' does not match '^INV%-%d+$'"),
                    sb.evalAll("t", "return pcall(function() return invoice.get('INV-12x') end)"));
            assertEquals(0, refunds.get());
            // within the constraints: runs; an optional parameter may be left out; 1.0 is the integer 1
            assertEquals("R1", sb.eval("t", "return payments.refund('INV-1', 1000, 'EUR')"));
            assertEquals("R2", sb.eval("t", "return payments.refund('INV-1', 1.0)"));
            assertEquals(4200L, sb.eval("t", "return invoice.get('INV-77').total"));
            List<HostCallEvent> calls = sink.events(HostCallEvent.class);
            assertEquals(List.of(HostCallEvent.Verdict.DENIED, HostCallEvent.Verdict.DENIED, HostCallEvent.Verdict.DENIED,
                    HostCallEvent.Verdict.DENIED, HostCallEvent.Verdict.DENIED, HostCallEvent.Verdict.ALLOWED,
                    HostCallEvent.Verdict.ALLOWED, HostCallEvent.Verdict.ALLOWED), calls.stream().map(HostCallEvent::verdict).toList());
            assertEquals("amount 5000 exceeds 1000", calls.get(0).reason());
        }
    }

    @Test
    void declaredTypesAreCheckedAsLuaWould() {
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), new MemoryAuditSink())) {
            assertEquals(List.of(false, "t:1: bad argument #2 to 'payments.refund' (number expected, got string)"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV-1', 'x') end)"));
            assertEquals(List.of(false, "t:1: bad argument #2 to 'payments.refund' (number has no integer representation)"),
                    sb.evalAll("t", "return pcall(function() return payments.refund('INV-1', 1.5) end)"));
            assertEquals(List.of(false, "t:1: bad argument #1 to 'invoice.get' (string expected, got no value)"),
                    sb.evalAll("t", "return pcall(function() return invoice.get() end)"));
            assertEquals(0, refunds.get());
        }
    }

    @Test
    void forbiddenIsRefusedBeforeAnyPolicy() {
        AtomicInteger consulted = new AtomicInteger();
        HostCallPolicy openDoor = request -> {
            consulted.incrementAndGet();
            return HostCallPolicy.Decision.allow("misconfigured: allows everything");
        };
        MemoryAuditSink sink = new MemoryAuditSink();
        try (Sandbox sb = sandbox(openDoor, sink)) {
            assertEquals(List.of(false, "t:1: permission denied: payments.delete_all: forbidden"),
                    sb.evalAll("t", "return pcall(function() return payments.delete_all() end)"));
            assertEquals(0, consulted.get());
            HostCallEvent e = sink.events(HostCallEvent.class).get(0);
            assertEquals(HostCallEvent.Verdict.FORBIDDEN, e.verdict());
            assertEquals(HostCallEvent.Outcome.REFUSED, e.outcome());
            assertEquals(Safety.FORBIDDEN, e.safety());
        }
    }

    @Test
    void safeFunctionsSkipThePolicy() {
        try (Sandbox sb = sandbox(HostCallPolicy.denyAll(), new MemoryAuditSink())) {
            assertEquals(4200L, sb.eval("t", "return invoice.get('INV-1').total"));
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t", "payments.refund('INV-1', 5)"));
            assertEquals("t:1: permission denied: payments.refund: all host calls are denied", e.getMessage());
        }
    }

    @Test
    void aPatternConstraintChargesItsWork() {
        Capabilities c = Capabilities.standard().toBuilder()
                .declare("check", "pattern-checked").safe()
                .param("s", "string", "subject", ArgConstraint.pattern(("a*").repeat(20) + "b"))
                .grant(call -> true).build();
        try (Sandbox sb = LuaVM.create().sandbox(c, Limits.defaults().withGas(200_000))) {
            // catastrophic backtracking in the constraint ends on gas, like string.find would
            dev.luavm.LuaLimitException e = assertThrows(dev.luavm.LuaLimitException.class,
                    () -> sb.eval("t", "return check(('a'):rep(40))"));
            assertEquals(dev.luavm.LuaLimitException.Limit.GAS, e.limit());
        }
    }

    @Test
    void badDeclarationsFailAtGrantTime() {
        Capabilities.Builder b = Capabilities.none().toBuilder();
        assertThrows(IllegalArgumentException.class, () -> b.declare("f", "d").param("x", "strnig", "typo"));
        assertThrows(IllegalArgumentException.class, () -> b.declare("f", "d").effects("two words"));
        assertThrows(IllegalArgumentException.class, () -> ArgConstraint.range(5, 1));
        assertThrows(IllegalArgumentException.class, () -> ArgConstraint.oneOf(new Object()));
        assertThrows(NullPointerException.class, () -> b.declare("f", "d").safe().grant(null));
    }
}
