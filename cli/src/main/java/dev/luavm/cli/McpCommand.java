package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.contract.Contract;
import dev.luavm.contract.ContractException;
import dev.luavm.contract.ContractRunner;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;
import dev.luavm.mcp.LuaMcpServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code luavm mcp [options]}: luavm as an MCP server on stdin/stdout ({@link LuaMcpServer}):
 * tools {@code lua_run}, {@code lua_docs}, {@code lua_reset}, one persistent sandbox per session.
 * {@code --upstream NAME="CMD ARGS"} (repeatable) starts an MCP server and grants its tools as
 * {@code NAME.<tool>} (code mode). Nothing but protocol messages goes to stdout: anything else
 * written to {@code System.out} while serving goes to stderr.
 */
final class McpCommand implements Subcommand {
    static final String USAGE = String.join("\n",
            "usage: luavm mcp [options]",
            "Serves the Model Context Protocol on stdin/stdout (newline-delimited JSON-RPC): tools lua_run,",
            "lua_docs and lua_reset; each session keeps one sandbox, so globals persist between calls.",
            "Options:",
            "  --gas N                  gas per call (default: 100000000)",
            "  --session-gas N          gas of a session over all its calls, lua_reset included (a reset",
            "                           gives none back and costs 10000) (default: 10000000000)",
            "  --memory SIZE            memory a session's scripts may hold, e.g. 64m (default: 64m)",
            "  --timeout DUR            wall-clock limit per call, e.g. 500ms, 2s (default: 10s)",
            "  --output SIZE            bytes a call may print (default: 1m)",
            "  --caps LIST              library bundles, comma-separated (default: standard)",
            "  --upstream NAME=\"CMD ARGS\"  start an MCP server and grant its tools as NAME.<tool> (repeatable)",
            "  --upstream-timeout DUR   the most one upstream tool call waits for its answer (default: until",
            "                           90% of the call's time limit); then it raises a catchable error",
            "  --max-message SIZE       the most one message (one line of stdin) may hold (default: 16m);",
            "                           a longer line is answered with an error and skipped",
            "  --audit FILE             append every run and host call to FILE as JSON Lines",
            "  --state DIR              keep the session in DIR: its sandbox (a snapshot) and spent gas are",
            "                           written after every call and restored when the server starts again",
            "                           on DIR; lua_reset discards the stored sandbox",
            "  --contract FILE          serve under a sandbox contract: exactly its libraries and host",
            "                           functions (from the host modules, or --host NAME|CLASS), its call",
            "                           bounds and audit rule, and its limits per call (not with --caps,",
            "                           --upstream or limit options)",
            "  --help                   show this help",
            "Calls of a session run one at a time, in the order they arrive; malformed lines get JSON-RPC",
            "errors and the server goes on; it ends when stdin ends, once what was read is answered.",
            "Configure a client to run:  luavm mcp [options]   (see README, \"MCP\").",
            "");

    @Override
    public String summary() {
        return "serve lua_run, lua_docs, lua_reset over MCP on stdio (code mode: --upstream NAME=\"CMD ARGS\")";
    }

    @Override
    public int run(List<String> args, Console console) {
        Limits limits = Limits.defaults().withGas(LuaMcpServer.DEFAULT_SESSION_GAS).withRunGas(Limits.DEFAULT_GAS);
        Capabilities caps = Capabilities.standard();
        List<String> upstreams = new ArrayList<>();
        java.time.Duration upstreamTimeout = null;
        Integer maxMessage = null;
        Path audit = null;
        Path state = null;
        String contractFile = null;
        String host = null;
        List<String> overridden = new ArrayList<>();
        try {
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                String name = a;
                String value = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                if (name.equals("--help")) {
                    console.out.print(USAGE);
                    console.out.flush();
                    return 0;
                }
                if (!List.of("--gas", "--session-gas", "--memory", "--timeout", "--output", "--caps", "--upstream", "--audit",
                        "--contract", "--host", "--upstream-timeout", "--max-message", "--state").contains(name)) {
                    throw new ArgParser.UsageException("unrecognized option '" + a + "'");
                }
                if (value == null) {
                    if (i + 1 >= args.size()) throw new ArgParser.UsageException("'" + name + "' needs argument");
                    value = args.get(++i);
                }
                if (!List.of("--audit", "--contract", "--host", "--max-message", "--state").contains(name)) overridden.add(name);
                try {
                    switch (name) {
                        case "--contract" -> contractFile = value;
                        case "--host" -> host = value;
                        case "--gas" -> limits = limits.withRunGas(Quantities.parseCount(value, value));
                        case "--session-gas" -> limits = limits.withGas(Quantities.parseCount(value, value));
                        case "--memory" -> limits = limits.withMemory(Quantities.parseSize(value));
                        case "--timeout" -> limits = limits.withTimeout(Quantities.parseDuration(value));
                        case "--output" -> limits = limits.withOutput(Quantities.parseSize(value));
                        case "--caps" -> caps = Capabilities.builder().bundles(Arrays.asList(value.split(","))).build();
                        case "--upstream" -> upstreams.add(value);
                        case "--state" -> state = Path.of(value);
                        case "--upstream-timeout" -> upstreamTimeout = Quantities.parseDuration(value);
                        case "--max-message" -> {
                            long size = Quantities.parseSize(value);
                            if (size < 1024 || size > Integer.MAX_VALUE - 8) {
                                throw new IllegalArgumentException("must be between 1k and 2g: " + value);
                            }
                            maxMessage = (int) size;
                        }
                        default -> audit = Path.of(value);
                    }
                } catch (IllegalArgumentException e) {
                    throw new ArgParser.UsageException(name + ": " + e.getMessage());
                }
            }
            if (contractFile != null && !overridden.isEmpty()) {
                throw new ArgParser.UsageException("--contract sets the grants and limits: " + String.join(", ", overridden)
                        + " cannot be added");
            }
            if (contractFile == null && host != null) throw new ArgParser.UsageException("--host needs --contract");
        } catch (ArgParser.UsageException e) {
            console.err.println("luavm mcp: " + e.getMessage());
            console.err.print(USAGE);
            return 1;
        }
        HostCallPolicy policy = null;
        if (contractFile != null) {
            RunCommand.quietValidatorLogging();
            try {
                Contract contract = Contract.load(Path.of(contractFile));
                HostModules modules = HostModules.load(host);
                ContractRunner runner = ContractRunner.bind(contract, modules.registry, modules.policy, LuaVM.create());
                caps = runner.capabilities();
                policy = runner.policy();
                // the contract's limits bound each call; the session's life budget stays
                Limits perCall = contract.limits().toLimits();
                limits = perCall.withGas(Math.max(LuaMcpServer.DEFAULT_SESSION_GAS, perCall.gas())).withRunGas(perCall.gas());
            } catch (ContractException | IllegalArgumentException e) {
                console.err.println("luavm mcp: " + e.getMessage());
                return 1;
            }
        }
        // the SDK logs through SLF4J, which has no provider here: no "no providers" notice either
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        java.io.PrintStream systemOut = System.out;
        System.setOut(console.err); // stdout is the protocol's alone
        JsonLinesAuditSink auditSink = null;
        try {
            LuaMcpServer.Builder b = LuaMcpServer.builder().capabilities(caps).limits(limits).log(console.err);
            if (policy != null) b.policy(policy);
            for (String u : upstreams) b.upstream(u);
            if (upstreamTimeout != null) b.upstreamTimeout(upstreamTimeout);
            if (maxMessage != null) b.maxMessageBytes(maxMessage);
            if (state != null) b.stateDirectory(state);
            if (audit != null) {
                auditSink = JsonLinesAuditSink.append(audit);
                b.audit(auditSink);
            }
            // the server ends its upstreams when closed, and from a shutdown hook when this process
            // is ended by a signal (SIGTERM, SIGINT) before
            try (LuaMcpServer server = b.build()) {
                server.serve(console.in, console.out);
            }
            return 0;
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            console.err.println("luavm mcp: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            System.setOut(systemOut);
            if (auditSink != null) {
                try {
                    auditSink.close();
                } catch (IOException e) {
                    console.err.println("luavm mcp: closing the audit log: " + e.getMessage());
                }
            }
        }
    }
}
