package dev.luavm.mcp;

import dev.luavm.Limits;

import java.time.Duration;

/**
 * The server as a subprocess for the end-to-end tests: {@code [--gas N] [--session-gas N]
 * [--timeout MS] [--output N] [--max-message BYTES] [--progress-ms MS] [--upstream-timeout MS]
 * [--upstream SPEC]...}.
 */
public final class TestServerMain {
    private TestServerMain() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("slf4j.internal.verbosity", "ERROR"); // no 'no providers' warning
        Limits limits = Limits.defaults().withGas(LuaMcpServer.DEFAULT_SESSION_GAS).withRunGas(Limits.DEFAULT_GAS);
        LuaMcpServer.Builder b = LuaMcpServer.builder();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--gas" -> limits = limits.withRunGas(Long.parseLong(args[++i]));
                case "--session-gas" -> limits = limits.withGas(Long.parseLong(args[++i]));
                case "--timeout" -> limits = limits.withTimeout(Duration.ofMillis(Long.parseLong(args[++i])));
                case "--output" -> limits = limits.withOutput(Long.parseLong(args[++i]));
                case "--upstream" -> b.upstream(args[++i]);
                case "--max-message" -> b.maxMessageBytes(Integer.parseInt(args[++i]));
                case "--progress-ms" -> b.progressInterval(Duration.ofMillis(Long.parseLong(args[++i])));
                case "--upstream-timeout" -> b.upstreamTimeout(Duration.ofMillis(Long.parseLong(args[++i])));
                default -> throw new IllegalArgumentException(args[i]);
            }
        }
        var out = System.out;
        System.setOut(System.err); // nothing but protocol messages on the real stdout
        try (LuaMcpServer server = b.limits(limits).build()) {
            server.serve(System.in, out);
        }
        System.exit(0);
    }
}
