package dev.luavm.examples;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.binding.LuaFunction;
import dev.luavm.binding.LuaModule;
import dev.luavm.binding.Param;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.HostFunctionException;
import dev.luavm.host.Safety;
import dev.luavm.mcp.LuaMcpServer;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An agent host: a plain Java class annotated as a Lua module ({@code @LuaModule("invoice")}),
 * exposed to any MCP client through {@code lua_run}, {@code lua_docs} and {@code lua_reset}. The
 * model reads {@code lua_docs} (generated from the annotations), then writes one script that
 * makes many calls, instead of one tool call per lookup; marking an invoice paid goes through a
 * quota policy and every call is checked against the declared types.
 *
 * <pre>
 *   ./luavm --help >/dev/null   # builds cli/target/luavm.jar once
 *   java -cp cli/target/luavm.jar dev.luavm.examples.McpAgentHostExample     # speaks MCP on stdio
 * </pre>
 * A client configuration for it is in {@code examples/mcp/README.md}.
 */
public final class McpAgentHostExample {
    private McpAgentHostExample() {}

    public record Vendor(String id, String name, String country) {}

    public record Invoice(String id, String vendorId, long cents, String currency, boolean paid) {}

    /** The host's invoices, as an application would expose them; the annotations are all luavm needs. */
    @LuaModule("invoice")
    public static final class InvoiceModule {
        private final Map<String, Vendor> vendors = Map.of(
                "V-17", new Vendor("V-17", "Acme Tools", "US"),
                "V-42", new Vendor("V-42", "Brit Supplies", "GB"));
        private final Map<String, Invoice> invoices = new LinkedHashMap<>();

        public InvoiceModule() {
            for (Invoice i : List.of(new Invoice("INV-1001", "V-17", 129_900, "USD", false),
                    new Invoice("INV-1002", "V-42", 45_000, "GBP", false),
                    new Invoice("INV-1003", "V-17", 9_900, "USD", true))) {
                invoices.put(i.id(), i);
            }
        }

        @LuaFunction(description = "Look up a vendor by id", safety = Safety.SAFE, returns = "the vendor {id, name, country}",
                example = "print(invoice.lookup_vendor('V-17').name)")
        public Vendor lookupVendor(@Param(name = "id", value = "vendor id, e.g. V-17") String id) throws HostFunctionException {
            Vendor v = vendors.get(id);
            if (v == null) throw new HostFunctionException("unknown vendor " + id);
            return v;
        }

        @LuaFunction(description = "List the invoices, unpaid only when asked", safety = Safety.SAFE,
                returns = "a list of {id, vendorId, cents, currency, paid}",
                example = "for _, i in ipairs(invoice.list(true)) do print(i.id, i.cents) end")
        public List<Invoice> list(@Param(name = "unpaid_only", value = "only unpaid invoices", optional = true) Boolean unpaidOnly) {
            List<Invoice> out = new ArrayList<>();
            for (Invoice i : invoices.values()) if (unpaidOnly == null || !unpaidOnly || !i.paid()) out.add(i);
            return out;
        }

        @LuaFunction(description = "Convert cents between EUR, USD and GBP", safety = Safety.SAFE, returns = "cents",
                example = "invoice.convert(129900, 'USD', 'EUR')")
        public long convert(@Param(name = "cents", value = "amount in cents") long cents,
                            @Param(name = "from", value = "currency code") String from,
                            @Param(name = "to", value = "currency code") String to) throws HostFunctionException {
            return Math.round(cents * rate(from) / rate(to));
        }

        @LuaFunction(description = "Mark an invoice paid", effects = "writes:invoices", returns = "the updated invoice")
        public Invoice markPaid(@Param(name = "id", value = "invoice id") String id) throws HostFunctionException {
            Invoice i = invoices.get(id);
            if (i == null) throw new HostFunctionException("unknown invoice " + id);
            Invoice paid = new Invoice(i.id(), i.vendorId(), i.cents(), i.currency(), true);
            invoices.put(id, paid);
            return paid;
        }

        private static double rate(String currency) throws HostFunctionException {
            return switch (currency) {
                case "EUR" -> 1.0;
                case "USD" -> 0.92;
                case "GBP" -> 1.17;
                default -> throw new HostFunctionException("unsupported currency " + currency);
            };
        }
    }

    public static void main(String[] args) throws InterruptedException {
        System.setProperty("slf4j.internal.verbosity", "ERROR"); // the SDK logs through SLF4J; no provider here
        PrintStream protocol = System.out;
        System.setOut(System.err); // stdout carries MCP messages only
        Capabilities caps = Capabilities.standard().toBuilder().module(new InvoiceModule()).build();
        try (LuaMcpServer server = LuaMcpServer.builder()
                .capabilities(caps)
                .limits(Limits.defaults().withGas(LuaMcpServer.DEFAULT_SESSION_GAS)
                        .withTimeout(Duration.ofSeconds(5)).withMemory(16L << 20))
                .policy(HostCallPolicy.quota("invoice.mark_paid", 2, 5)) // at most 2 per call, 5 per session
                .build()) {
            server.serve(System.in, protocol);
        }
        System.exit(0);
    }
}
