package dev.luavm.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.audit.AuditSink;
import dev.luavm.docs.HostDocs;
import dev.luavm.host.HostCallPolicy;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * luavm as a Model Context Protocol server over stdio (newline-delimited JSON-RPC), built on the
 * official MCP Java SDK. Three tools:
 * <ul>
 *   <li>{@code lua_run {source}}: runs Lua in the session's sandbox; the result is JSON with
 *       {@code ok}, {@code output} (what {@code print} wrote), {@code results} (the chunk's values;
 *       an expression's value, as in a REPL), {@code usage} and, on failure, {@code error}
 *       ({@code kind}: syntax, runtime, limit, conversion, audit; {@code message}, {@code line},
 *       {@code limit}). A failure is an error result ({@code isError}); the server keeps serving.</li>
 *   <li>{@code lua_docs}: the sandbox's libraries, host functions and limits, in Markdown.</li>
 *   <li>{@code lua_reset}: a fresh sandbox for the session.</li>
 * </ul>
 * Each MCP session has one sandbox that persists between calls ({@link LuaSession}). Upstream
 * MCP servers ({@link Builder#upstream}) are started and their tools granted as Lua functions
 * ({@link Upstream}). Nothing but protocol messages is written to the output; the upstreams'
 * stderr and this server's notes go to the log stream.
 *
 * <pre>{@code
 * LuaMcpServer.builder()
 *     .capabilities(Capabilities.standard().toBuilder().declare("invoice.get", "Read an invoice")...build())
 *     .limits(Limits.defaults().withTimeout(Duration.ofSeconds(5)))
 *     .build()
 *     .serve(System.in, System.out);      // returns when the client closes stdin
 * }</pre>
 */
public final class LuaMcpServer implements AutoCloseable {
    /** The server's version in {@code initialize}'s answer. */
    public static final String VERSION = "0.1.0";
    /**
     * A session's default gas budget, 100 times {@link Limits#DEFAULT_GAS}: enough that a runaway
     * loop ends by the per-call time limit (which ends that call only) rather than by spending the
     * session's gas (which ends every call until {@code lua_reset}, globals and all).
     */
    public static final long DEFAULT_SESSION_GAS = 100 * Limits.DEFAULT_GAS;

    private static final String RUN_DESCRIPTION = "Run Lua 5.3 code in a sandbox that persists for this session "
            + "(globals survive between calls, as in a REPL; an expression's value is returned). Returns JSON: ok, "
            + "output (what print wrote), results (the returned values), usage (gas, gasLeft, memory, time) and, "
            + "on failure, error {kind: syntax|runtime|limit|conversion, message, line, limit}. Call lua_docs "
            + "first to see the libraries and host functions available.";
    private static final String DOCS_DESCRIPTION = "Describe the Lua sandbox: its libraries, the host functions "
            + "it may call (parameters, results, safety, effects) and its limits, in Markdown; with a name, just "
            + "that module, function or library.";
    private static final String RESET_DESCRIPTION = "Discard this session's sandbox (every global) and start a "
            + "fresh one with a full gas budget.";

    private final Capabilities capabilities;
    private final Limits limits;
    private final LuaVM vm;
    private final PrintStream log;
    private final List<Upstream> upstreams;
    private final McpJsonMapper mapper;
    private final ObjectMapper objectMapper = new ObjectMapper();
    private final Map<String, LuaSession> sessions = new ConcurrentHashMap<>();

    private LuaMcpServer(Builder b, Capabilities capabilities, List<Upstream> upstreams, McpJsonMapper mapper) {
        this.capabilities = capabilities;
        this.limits = b.limits;
        this.log = b.log;
        this.upstreams = upstreams;
        this.mapper = mapper;
        LuaVM.Builder vmb = LuaVM.builder().limits(b.limits);
        if (b.policy != null) vmb.policy(b.policy);
        if (b.audit != null) vmb.audit(b.audit);
        this.vm = vmb.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What scripts are granted: the configured capabilities plus every upstream tool. */
    public Capabilities capabilities() {
        return capabilities;
    }

    /**
     * Serves the MCP protocol on {@code in}/{@code out} until {@code in} ends (the client closed
     * it), answering every request read before the end; then closes the sessions' sandboxes.
     * The upstreams stay connected until {@link #close()}.
     */
    public void serve(InputStream in, OutputStream out) throws InterruptedException {
        StdioPipes pipes = new StdioPipes(limits.timeout().toMillis() + 10_000);
        StdioServerTransportProvider transport =
                new StdioServerTransportProvider(mapper, pipes.input(in), pipes.output(out));
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("luavm", VERSION)
                .instructions("A sandboxed Lua 5.3 interpreter. Call lua_docs to see what scripts may call, "
                        + "then lua_run; chain many host calls in one script rather than one tool call each.")
                .jsonMapper(mapper)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(objectMapper))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .requestTimeout(limits.timeout().plusSeconds(30))
                .tools(toolSpecifications())
                .build();
        try {
            pipes.awaitEnd();
        } finally {
            server.close();
            sessions.values().forEach(LuaSession::close);
            sessions.clear();
        }
    }

    private List<McpServerFeatures.SyncToolSpecification> toolSpecifications() {
        List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
        specs.add(tool("lua_run", RUN_DESCRIPTION, Map.of("type", "object",
                "properties", Map.of("source", Map.of("type", "string", "description", "Lua 5.3 source code")),
                "required", List.of("source")), this::run));
        specs.add(tool("lua_docs", DOCS_DESCRIPTION, Map.of("type", "object", "properties", Map.of("name", Map.of(
                "type", "string", "description", "optional: one module, function or library, e.g. 'invoice', "
                        + "'invoice.lookup_vendor', 'string'; all of them when absent"))), this::docs));
        specs.add(tool("lua_reset", RESET_DESCRIPTION, Map.of("type", "object", "properties", Map.of()), this::reset));
        return specs;
    }

    private interface Handler {
        McpSchema.CallToolResult handle(LuaSession session, Map<String, Object> args) throws Exception;
    }

    private McpServerFeatures.SyncToolSpecification tool(String name, String description, Map<String, Object> schema,
                                                        Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build();
        return new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) -> {
            try {
                Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
                return handler.handle(session(exchange), args);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return error("interrupted");
            } catch (Exception e) {
                log.println("luavm mcp: " + name + " failed: " + e);
                return error(name + " failed: " + e.getMessage());
            }
        });
    }

    private LuaSession session(McpSyncServerExchange exchange) {
        String id = exchange.sessionId() == null ? "stdio" : exchange.sessionId();
        return sessions.computeIfAbsent(id, k -> new LuaSession(vm, capabilities, limits, "mcp-" + (sessions.size() + 1)));
    }

    private McpSchema.CallToolResult run(LuaSession session, Map<String, Object> args) throws Exception {
        if (!(args.get("source") instanceof String source)) return error("lua_run needs a string argument 'source'");
        Map<String, Object> report = session.run(source);
        String text = objectMapper.writeValueAsString(report);
        return McpSchema.CallToolResult.builder()
                .addTextContent(text)
                .structuredContent(report)
                .isError(!Boolean.TRUE.equals(report.get("ok")))
                .build();
    }

    private McpSchema.CallToolResult docs(LuaSession session, Map<String, Object> args) {
        if (args.get("name") instanceof String name && !name.isBlank()) {
            return HostDocs.of(capabilities).text(name.trim())
                    .map(text -> McpSchema.CallToolResult.builder().addTextContent(text).isError(false).build())
                    .orElseGet(() -> error("nothing granted is named '" + name.trim() + "'; call lua_docs without a name "
                            + "for everything"));
        }
        return McpSchema.CallToolResult.builder()
                .addTextContent(SandboxDocs.markdown(capabilities, limits, session.gasLeft()))
                .isError(false)
                .build();
    }

    private McpSchema.CallToolResult reset(LuaSession session, Map<String, Object> args) {
        session.reset();
        return McpSchema.CallToolResult.builder().addTextContent("the sandbox was reset: every global is gone, "
                + "the gas budget is full").isError(false).build();
    }

    private static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    /** Disconnects the upstreams (ending their processes) and closes any session left. */
    @Override
    public void close() {
        sessions.values().forEach(LuaSession::close);
        sessions.clear();
        for (Upstream u : upstreams) u.close();
    }

    /** Configures a server; {@link #build()} starts and connects the upstreams. */
    public static final class Builder {
        private Capabilities capabilities = Capabilities.standard();
        private Limits limits = Limits.defaults().withGas(DEFAULT_SESSION_GAS).withRunGas(Limits.DEFAULT_GAS);
        private HostCallPolicy policy;
        private AuditSink audit;
        private PrintStream log = System.err;
        private final List<Upstream.Spec> upstreams = new ArrayList<>();

        private Builder() {}

        /** The libraries and host functions of every session's sandbox (default: standard). */
        public Builder capabilities(Capabilities caps) {
            this.capabilities = Objects.requireNonNull(caps, "capabilities");
            return this;
        }

        /**
         * Each session's limits (default {@link Limits#defaults()} with {@link #DEFAULT_SESSION_GAS}):
         * time and output per call, memory held, gas over the sandbox's life (until {@code lua_reset}).
         */
        public Builder limits(Limits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /** The policy deciding UNSAFE host calls, upstream tools among them (default: allow all). */
        public Builder policy(HostCallPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Where every run and host call is logged. */
        public Builder audit(AuditSink audit) {
            this.audit = Objects.requireNonNull(audit, "audit");
            return this;
        }

        /** Where upstreams' stderr and the server's notes go (default System.err; never the protocol stream). */
        public Builder log(PrintStream log) {
            this.log = Objects.requireNonNull(log, "log");
            return this;
        }

        /** An upstream MCP server, {@code NAME="CMD ARGS"}: its tools become {@code NAME.<tool>}. */
        public Builder upstream(String spec) {
            upstreams.add(Upstream.Spec.parse(spec));
            return this;
        }

        /** An upstream MCP server started as {@code command}; its tools become {@code name.<tool>}. */
        public Builder upstream(String name, List<String> command) {
            upstreams.add(new Upstream.Spec(name, command));
            return this;
        }

        /**
         * Starts and connects the upstreams, lists their tools and grants them. Fails with
         * {@link IllegalStateException} when an upstream cannot be started or initialized,
         * after stopping the ones already started.
         */
        public LuaMcpServer build() {
            McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
            List<Upstream> connected = new ArrayList<>();
            try {
                Capabilities.Builder caps = capabilities.toBuilder();
                for (Upstream.Spec spec : upstreams) {
                    for (Upstream u : connected) {
                        if (u.name().equals(spec.name())) throw new IllegalArgumentException("upstream named twice: " + spec.name());
                    }
                    Upstream u = Upstream.connect(spec, mapper, limits.timeout(), VERSION, log);
                    connected.add(u);
                    u.grantTo(caps, log);
                    log.println("luavm mcp: upstream " + spec.name() + ": " + u.tools().size() + " tools");
                }
                return new LuaMcpServer(this, caps.build(), connected, mapper);
            } catch (RuntimeException e) {
                for (Upstream u : connected) u.close();
                throw e;
            }
        }
    }
}
