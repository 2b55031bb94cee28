package dev.luavm.binding;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaHandle;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.docs.HostDocs;
import dev.luavm.host.HostCall;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.HostFunctionException;
import dev.luavm.host.Safety;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Annotated Java classes granted as Lua modules with {@code Capabilities.Builder.module}. */
class TypedModuleTest {
    public record Vendor(String id, String name, int rating) {}

    /** Package-private, as records in application code often are. */
    record Line(String sku, long qty, Optional<String> note) {
        Line {
            if (qty <= 0) throw new IllegalArgumentException("qty must be positive");
        }
    }

    record Invoice(String id, List<Line> lines, Status status) {}

    enum Status { DRAFT, SENT, PAID }

    record Node(String name, List<Node> children) {}

    @LuaModule("invoice")
    static class InvoiceModule {
        final List<String> log = new ArrayList<>();
        Predicate<Object> kept;

        @LuaFunction(description = "Look up a vendor by id", safety = Safety.SAFE, returns = "the vendor",
                example = "print(invoice.lookup_vendor('V-1').name)")
        public Vendor lookupVendor(@Param(name = "id", value = "vendor id") String id) throws HostFunctionException {
            if (!id.startsWith("V-")) throw new HostFunctionException("unknown vendor " + id);
            return new Vendor(id, "ACME", 4);
        }

        @LuaFunction(description = "Create an invoice", effects = "writes:invoices")
        public Invoice create(@Param(name = "id", value = "invoice id") String id,
                              @Param(name = "lines", value = "the lines") List<Line> lines,
                              @Param(name = "status", value = "status", optional = true) Status status) {
            return new Invoice(id, lines, status == null ? Status.DRAFT : status);
        }

        @LuaFunction(description = "Primitive and boxed numbers", safety = Safety.SAFE)
        public String numbers(int i, long l, short s, byte b, double d, float f, Integer boxed, boolean flag) {
            return i + " " + l + " " + s + " " + b + " " + d + " " + f + " " + boxed + " " + flag;
        }

        @LuaFunction(description = "Bytes in, bytes out", safety = Safety.SAFE)
        public byte[] reverse(byte[] data) {
            byte[] out = new byte[data.length];
            for (int i = 0; i < data.length; i++) out[i] = data[data.length - 1 - i];
            return out;
        }

        @LuaFunction(description = "Totals per key", safety = Safety.SAFE)
        public Map<String, Long> totals(Map<String, List<Long>> groups) {
            Map<String, Long> out = new java.util.TreeMap<>();
            groups.forEach((k, v) -> out.put(k, v.stream().mapToLong(Long::longValue).sum()));
            return out;
        }

        @LuaFunction(description = "An optional greeting", safety = Safety.SAFE)
        public Optional<String> greet(Optional<String> name) {
            return name.map(n -> "hello " + n);
        }

        @LuaFunction(description = "Map a function over numbers", safety = Safety.SAFE)
        public List<Long> map(List<Long> xs, Function<Long, Long> f) {
            List<Long> out = new ArrayList<>();
            for (Long x : xs) out.add(f.apply(x));
            return out;
        }

        @LuaFunction(description = "Keep vendors a predicate accepts", safety = Safety.SAFE)
        public List<Vendor> filter(Predicate<Vendor> keep) {
            List<Vendor> out = new ArrayList<>();
            for (Vendor v : List.of(new Vendor("V-1", "ACME", 4), new Vendor("V-2", "Initech", 2))) {
                if (keep.test(v)) out.add(v);
            }
            return out;
        }

        @LuaFunction(description = "Call back with each name", safety = Safety.SAFE)
        public void each(Consumer<String> f) {
            for (String s : List.of("a", "b")) f.accept(s);
        }

        @LuaFunction(description = "A raw callback with several results", safety = Safety.SAFE)
        public String raw(LuaCallback cb) {
            return cb.callAll(1L, "two").toString();
        }

        @LuaFunction(description = "Keeps a callback past its call", safety = Safety.SAFE)
        public void keep(Predicate<Object> p) {
            kept = p;
        }

        @LuaFunction(description = "A tree", safety = Safety.SAFE)
        public int count(Node tree) {
            int n = 1;
            for (Node c : tree.children() == null ? List.<Node>of() : tree.children()) n += count(c);
            return n;
        }

        @LuaFunction(name = "charged", description = "Charges its own work", safety = Safety.SAFE)
        public long work(HostCall call, @Param("units") long units) {
            call.chargeGas(units);
            return units;
        }

        @LuaFunction(description = "Pay with a card", returns = "payment id")
        public String pay(@Param("amount in cents") long amount, @Param(value = "card token", redact = true) String token) {
            log.add(amount + ":" + token);
            return "pay-1";
        }

        @LuaFunction(description = "Anything goes", safety = Safety.SAFE)
        public Object echo(Object v) {
            return v;
        }

        public String notGranted() {
            return "no";
        }
    }

    static Capabilities caps(Object module) {
        return Capabilities.standard().toBuilder().bundle("docs").module(module).build();
    }

    static String run(Object module, String script) {
        try (Sandbox sb = LuaVM.newSandbox(caps(module), Limits.defaults())) {
            sb.eval(script);
            return sb.output();
        }
    }

    @Test
    void grantsEachAnnotatedMethodByItsSnakeCaseName() {
        Capabilities caps = caps(new InvoiceModule());
        assertEquals(List.of("invoice.charged", "invoice.count", "invoice.create", "invoice.each", "invoice.echo",
                "invoice.filter", "invoice.greet", "invoice.keep", "invoice.lookup_vendor", "invoice.map",
                "invoice.numbers", "invoice.pay", "invoice.raw", "invoice.reverse", "invoice.totals"),
                List.copyOf(caps.hostFunctions().keySet()));
        Capabilities.Grant g = caps.hostFunctions().get("invoice.lookup_vendor");
        assertEquals(Safety.SAFE, g.safety());
        assertEquals("Look up a vendor by id", g.description());
        assertEquals("print(invoice.lookup_vendor('V-1').name)", g.example());
        assertEquals("string", g.params().get(0).type());
        assertEquals("vendor id", g.params().get(0).description());
        assertEquals("table", g.returns().get(0).type());
        assertEquals("the vendor; {id: string, name: string, rating: integer}", g.returns().get(0).description());
        assertEquals(List.of("writes:invoices"), caps.hostFunctions().get("invoice.create").effects());
        assertEquals(Safety.UNSAFE, caps.hostFunctions().get("invoice.create").safety());
    }

    @Test
    void aWrongArgumentGivesPucsMessage() {
        String out = run(new InvoiceModule(), """
                print(pcall(invoice.lookup_vendor))
                print(pcall(invoice.lookup_vendor, nil))
                print(pcall(invoice.lookup_vendor, {}))
                print(pcall(invoice.lookup_vendor, 'X-1'))
                print(pcall(invoice.numbers, 2^40, 1, 1, 1, 1, 1, 1, true))
                print(pcall(invoice.numbers, 1.5, 1, 1, 1, 1, 1, 1, true))
                print(pcall(invoice.numbers, 1, 1, 1, 1, 1, 1, 1))
                print(pcall(invoice.create, 'I-1', {}, 'LOST'))""");
        assertEquals("""
                false\tbad argument #1 to 'invoice.lookup_vendor' (string expected, got no value)
                false\tbad argument #1 to 'invoice.lookup_vendor' (string expected, got nil)
                false\tbad argument #1 to 'invoice.lookup_vendor' (string expected, got table)
                false\tunknown vendor X-1
                false\tbad argument #1 to 'invoice.numbers' (value out of range (-2147483648..2147483647))
                false\tbad argument #1 to 'invoice.numbers' (number has no integer representation)
                false\tbad argument #8 to 'invoice.numbers' (boolean expected, got no value)
                false\tbad argument #3 to 'invoice.create' (invalid option 'LOST'; expected one of 'DRAFT', 'SENT', 'PAID')
                """, out);
        // without pcall the position of the call is in the message, as in PUC
        LuaScriptException e = assertThrows(LuaScriptException.class,
                () -> run(new InvoiceModule(), "\ninvoice.lookup_vendor(nil)"));
        assertEquals("input:2: bad argument #1 to 'invoice.lookup_vendor' (string expected, got nil)", e.getMessage());
    }

    @Test
    void scalarsBytesAndMaps() {
        String out = run(new InvoiceModule(), """
                print(invoice.numbers(1, 2, 3, 4, 0.5, 1.25, 7.0, false))
                print(invoice.reverse('a\\0b'):byte(1, -1))
                local t = invoice.totals({a = {1, 2, 3}, b = {}})
                print(t.a, t.b)
                print(invoice.greet('ann'), invoice.greet(nil), invoice.greet())
                print(invoice.echo(nil), invoice.echo(1.5), invoice.echo({1, 2})[2])""");
        assertEquals("1 2 3 4 0.5 1.25 7 false\n98\t0\t97\n6\t0\nhello ann\tnil\tnil\nnil\t1.5\t2\n", out);
    }

    @Test
    void recordsAndEnumsBothWays() {
        String out = run(new InvoiceModule(), """
                local inv = invoice.create('I-1', {{sku = 'A', qty = 2}, {sku = 'B', qty = 1, note = 'gift'}}, 'SENT')
                print(inv.id, inv.status, #inv.lines, inv.lines[1].sku, inv.lines[1].note, inv.lines[2].note)
                print(invoice.create('I-2', {}).status)
                print(pcall(invoice.create, 'I-3', {{sku = 'A', qty = 'x'}}))
                print(pcall(invoice.create, 'I-3', {{sku = 'A', qty = 1, colour = 'red'}}))
                print(pcall(invoice.create, 'I-3', {{sku = 'A'}}))
                print(pcall(invoice.create, 'I-3', {{sku = 'A', qty = 0}}))
                print(pcall(invoice.create, 'I-3', {x = 1}))
                print(invoice.count({name = 'root', children = {{name = 'a'}, {name = 'b', children = {{name = 'c'}}}}}))""");
        assertEquals("""
                I-1\tSENT\t2\tA\tnil\tgift
                DRAFT
                false\tbad argument #2 to 'invoice.create' ([1].qty: number expected, got string)
                false\tbad argument #2 to 'invoice.create' ([1]: unknown field 'colour' (fields: note, qty, sku))
                false\tbad argument #2 to 'invoice.create' ([1].qty: number expected, got nil)
                false\tbad argument #2 to 'invoice.create' ([1]: qty must be positive)
                false\tbad argument #2 to 'invoice.create' (sequence expected, got table with other keys)
                4
                """, out);
    }

    @Test
    void callbacksIntoLua() {
        String out = run(new InvoiceModule(), """
                print(table.concat(invoice.map({1, 2, 3}, function(x) return x * 10 end), ' '))
                local kept = invoice.filter(function(v) return v.rating > 3 end)
                print(#kept, kept[1].name)
                invoice.each(function(s) io_write = (io_write or '') .. s end)
                print(io_write)
                print(invoice.raw(function(a, b) return a + 1, b .. '!' end))
                print(pcall(invoice.map, {1}, function(x) return 'no' end))
                print(pcall(invoice.map, {1}, function(x) error('inside') end))
                print(pcall(invoice.map, {1}, 'not a function'))""");
        assertEquals("""
                10 20 30
                1\tACME
                ab
                [2, two!]
                false\tbad result from a Lua callback passed to 'invoice.map' (number expected, got string)
                false\tinput:8: inside
                false\tbad argument #2 to 'invoice.map' (function expected, got string)
                """, out);
    }

    @Test
    void recursionThroughCallbacksIsALuaErrorNotAJavaStackOverflow() {
        String out = run(new InvoiceModule(), """
                local depth = 0
                local function f(x) depth = depth + 1 return invoice.map({x}, f)[1] end
                local ok, err = pcall(f, 1)
                print(ok, err, depth > 10)
                print(invoice.map({1, 2}, function(x) return x + 1 end)[2])""");
        assertTrue(out.matches("false\\t.*stack overflow.*\\ttrue\\n3\\n"), out);
    }

    @LuaModule("slow")
    static class Slow {
        @LuaFunction(description = "calls back forever", safety = Safety.SAFE)
        public void loop(Runnable r) {
            while (true) r.run();
        }
    }

    @Test
    void cancelStopsALuaCallbackLoopInsideAHostMethod() throws Exception {
        try (Sandbox sb = LuaVM.newSandbox(caps(new Slow()), Limits.defaults().withTimeout(java.time.Duration.ofSeconds(30)))) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ignored) {
                    // the test ends anyway
                }
                sb.cancel();
            });
            t.start();
            long start = System.nanoTime();
            dev.luavm.LuaLimitException e = assertThrows(dev.luavm.LuaLimitException.class,
                    () -> sb.eval("pcall(slow.loop, function() end)"));
            assertEquals(dev.luavm.LuaLimitException.Limit.CANCELLED, e.limit());
            System.out.println("cancel inside a callback loop: ended after " + (System.nanoTime() - start) / 1_000_000 + " ms");
            t.join();
            assertEquals(1L, sb.eval("return 1"), "the sandbox is usable after the cancelled run");
        }
    }

    @Test
    void aCallbackKeptPastItsCallCannotBeCalled() {
        InvoiceModule m = new InvoiceModule();
        run(m, "invoice.keep(function() return true end)");
        assertThrows(IllegalStateException.class, () -> m.kept.test("x"));
    }

    @Test
    void aHostCallParameterIsInjectedNotALuaArgument() {
        Capabilities caps = caps(new InvoiceModule());
        assertEquals(1, caps.hostFunctions().get("invoice.charged").params().size());
        long small;
        long big;
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            sb.eval("return invoice.charged(1)");
            small = sb.usage().gas();
        }
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            assertEquals(100_000L, sb.eval("return invoice.charged(100000)"));
            big = sb.usage().gas();
        }
        assertTrue(big - small >= 99_999, big + " vs " + small);
    }

    @Test
    void convertedValuesAreChargedPerElement() {
        Capabilities caps = caps(new InvoiceModule());
        long[] gas = new long[2];
        int[] sizes = {1_000, 10_000};
        for (int i = 0; i < 2; i++) {
            try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
                sb.setGlobal("xs", java.util.Collections.nCopies(sizes[i], 1L));
                long before = sb.usage().gas();
                sb.eval("invoice.map(xs, function(x) return x end)");
                gas[i] = sb.usage().gas() - before;
            }
        }
        System.out.println("invoice.map gas: 1,000 elements " + gas[0] + ", 10,000 elements " + gas[1]);
        assertTrue(gas[1] >= 8 * gas[0], gas[1] + " vs " + gas[0]);
    }

    @Test
    void callsGoThroughTheGatewayPolicyAndAudit() {
        InvoiceModule m = new InvoiceModule();
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps(m)).policy(HostCallPolicy.denyAll()).audit(log).build()) {
            sb.eval("""
                    print(pcall(invoice.pay, 100, 'tok_visa'))
                    print(invoice.lookup_vendor('V-9').name)""");
            assertEquals("false\tpermission denied: invoice.pay: all host calls are denied\nACME\n", sb.output());
        }
        assertEquals(List.of(), m.log);
        List<HostCallEvent> calls = log.events().stream().filter(HostCallEvent.class::isInstance).map(HostCallEvent.class::cast).toList();
        assertEquals(2, calls.size());
        assertEquals("invoice.pay", calls.get(0).function());
        assertEquals(HostCallEvent.Verdict.DENIED, calls.get(0).verdict());
        assertTrue(calls.get(0).toString().contains("<redacted>"), calls.get(0).toString());
        assertTrue(!calls.get(0).toString().contains("tok_visa"), calls.get(0).toString());
        assertEquals(HostCallEvent.Verdict.ALLOWED, calls.get(1).verdict());

        try (Sandbox sb = LuaVM.newSandbox(caps(m), Limits.defaults())) {
            assertEquals("pay-1", sb.eval("return invoice.pay(100, 'tok_visa')"));
        }
        assertEquals(List.of("100:tok_visa"), m.log);
    }

    @Test
    void descriptionsFeedDocs() {
        Capabilities caps = caps(new InvoiceModule());
        String out = run(new InvoiceModule(), "docs('invoice.create')");
        assertEquals("""
                invoice.create(id: string, lines: table, status: string?) -> table
                  Create an invoice
                  safety: UNSAFE (runs when the host's policy allows it)
                  effects: writes:invoices
                  parameters:
                    id: string - invoice id
                    lines: table - the lines; list of {sku: string, qty: integer, note: string}
                    status: string? - status; one of 'DRAFT', 'SENT', 'PAID'
                  returns:
                    table - {id: string, lines: list of {sku: string, qty: integer, note: string}, status: one of 'DRAFT', 'SENT', 'PAID'}
                """, out);
        assertTrue(HostDocs.markdown(caps).contains("#### `invoice.lookup_vendor(id: string) -> table`"));
        // the recursive record names itself instead of expanding forever
        assertEquals("{name: string, children: list of Node}", caps.hostFunctions().get("invoice.count").params().get(0).description());
    }

    @LuaModule("bad")
    static class UnsupportedType {
        @LuaFunction(description = "takes a thread")
        public void f(Thread t) {}
    }

    @LuaModule("bad")
    static class OptionalPrimitive {
        @LuaFunction(description = "optional int")
        public void f(@Param(optional = true) int x) {}
    }

    @LuaModule("bad")
    static class Twice {
        @LuaFunction(description = "one")
        public void fooBar() {}

        @LuaFunction(description = "two", name = "foo_bar")
        public void other() {}
    }

    static class NotAModule {
        @LuaFunction(description = "f")
        public void f() {}
    }

    @LuaModule("priv")
    static class PrivateRecordModule {
        private record Secret(String value) {}

        @LuaFunction(description = "reads a private record")
        public String open(Secret s) {
            return s.value();
        }
    }

    @Test
    void registrationErrorsNameTheProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Capabilities.builder().module(new UnsupportedType()));
        assertTrue(e.getMessage().startsWith("bad.f (dev.luavm.binding.TypedModuleTest$UnsupportedType.f): parameter 't': type java.lang.Thread cannot cross into Lua")
                || e.getMessage().contains("parameter 'arg1': type java.lang.Thread cannot cross into Lua"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().module(new OptionalPrimitive()));
        assertTrue(e.getMessage().contains("is a primitive and cannot be optional"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().module(new Twice()));
        assertTrue(e.getMessage().contains("two methods are named 'foo_bar' in Lua"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().module(new NotAModule()));
        assertTrue(e.getMessage().endsWith("is not annotated @LuaModule"), e.getMessage());
    }

    @Test
    void aPrivateRecordIsReadWhenTheLookupCanAndRefusedClearlyWhenNot() {
        assertEquals("s3cret", run(new PrivateRecordModule(), "print(priv.open({value = 's3cret'}))").trim());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Capabilities.builder().module(new PrivateRecordModule(), MethodHandles.publicLookup()));
        assertTrue(e.getMessage().contains("priv.open") && (e.getMessage().contains("cannot read record")
                || e.getMessage().contains("cannot call the method")), e.getMessage());
    }

    @LuaModule("pub")
    public static class PublicModule {
        @LuaFunction(description = "reads a private record")
        public String open(PrivateRecordModule.Secret s) {
            return s.value();
        }
    }

    @Test
    void aRecordTheLookupCannotReadIsAClearRegistrationError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Capabilities.builder().module(new PublicModule(), MethodHandles.publicLookup()));
        assertTrue(e.getMessage().contains("cannot read record dev.luavm.binding.TypedModuleTest$PrivateRecordModule$Secret"),
                e.getMessage());
        assertTrue(e.getMessage().contains("make it public, or register the module with"), e.getMessage());
    }

    @Test
    void snakeCaseNames() {
        assertEquals("lookup_vendor", ModuleBinder.snakeCase("lookupVendor"));
        assertEquals("get_http_status", ModuleBinder.snakeCase("getHTTPStatus"));
        assertEquals("total", ModuleBinder.snakeCase("total"));
        assertEquals("v2_sum", ModuleBinder.snakeCase("v2Sum"));
    }

    @Test
    void aReturnedHandleIsTheSameFunction() {
        try (Sandbox sb = LuaVM.newSandbox(caps(new InvoiceModule()), Limits.defaults())) {
            assertEquals(true, sb.eval("local f = function() end return invoice.echo(f) == f"));
            assertInstanceOf(LuaHandle.class, sb.eval("return invoice.echo(print)"));
        }
    }
}
