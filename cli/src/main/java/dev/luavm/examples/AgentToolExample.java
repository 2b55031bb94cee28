package dev.luavm.examples;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostFunctionException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * An agent tool: run a script a language model wrote, with two host functions granted and
 * nothing else dangerous, under tight limits, then show its result and what it used.
 *
 * <pre>
 *   ./luavm --help >/dev/null   # builds cli/target/luavm.jar once
 *   java -cp cli/target/luavm.jar dev.luavm.examples.AgentToolExample examples/agent-tool/invoice.lua
 * </pre>
 */
public final class AgentToolExample {
    private static final Map<String, Map<String, String>> VENDORS = Map.of(
            "V-17", Map.of("name", "Acme Tools", "country", "US"),
            "V-42", Map.of("name", "Brit Supplies", "country", "GB"));

    private static final Map<String, Double> TO_EUR = Map.of("EUR", 1.0, "USD", 0.92, "GBP", 1.17);

    private AgentToolExample() {}

    public static void main(String[] args) throws IOException {
        String file = args.length > 0 ? args[0] : "examples/agent-tool/invoice.lua";
        String script = Files.readString(Path.of(file), StandardCharsets.UTF_8);

        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("invoice.lookup_vendor", "Look up a vendor by id: returns {name=, country=}",
                        call -> {
                            Map<String, String> v = VENDORS.get(call.stringArg(0));
                            if (v == null) throw new HostFunctionException("unknown vendor " + call.stringArg(0));
                            return v;
                        })
                .grant("invoice.convert_currency", "Convert an amount between currencies (EUR, USD, GBP)",
                        call -> {
                            double amount = call.doubleArg(0);
                            Double from = TO_EUR.get(call.stringArg(1));
                            Double to = TO_EUR.get(call.stringArg(2));
                            if (from == null || to == null) throw new HostFunctionException("unsupported currency");
                            return Math.round(amount * from / to * 100) / 100.0;
                        })
                .build();
        Limits limits = Limits.defaults()
                .withGas(1_000_000)
                .withMemory(8L << 20)
                .withTimeout(Duration.ofSeconds(2))
                .withOutput(64L << 10);

        System.out.println("capabilities granted:");
        for (String line : caps.describe()) System.out.println("  " + line);
        System.out.println();

        try (Sandbox sandbox = LuaVM.create().sandbox().capabilities(caps).limits(limits).output(System.out).build()) {
            Object result = sandbox.eval(Path.of(file).getFileName().toString(), script);
            System.out.println();
            System.out.println("result: " + result);
            System.out.println("usage:  " + sandbox.usage());
        } catch (LuaException e) {
            System.out.println("the script failed: " + e.getMessage());
        }
    }
}
