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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

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
 *   <li>{@code lua_reset}: a fresh sandbox for the session, at a cost of {@link #RESET_GAS}.</li>
 * </ul>
 * Each MCP session has one sandbox that persists between calls, and one gas budget for its whole
 * life ({@link LuaSession}). The session's calls run one at a time in the order they arrived;
 * malformed frames are answered as JSON-RPC says and the server keeps serving; a call can be
 * cancelled ({@code notifications/cancelled}) and reports progress when asked
 * ({@link StdioServerTransport}, {@link ProgressTicker}). Upstream MCP servers
 * ({@link Builder#upstream}) are started and their tools granted as Lua functions
 * ({@link Upstream}); their processes end when the server is closed or the JVM goes down
 * ({@link UpstreamTransport}). Nothing but protocol messages is written to the output; the
 * upstreams' stderr and this server's notes go to the log stream.
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
    /**
     * What {@code lua_reset} costs of the session's gas budget: a few times the work of building
     * a fresh sandbox with the standard libraries, so that resets are not free.
     */
    public static final long RESET_GAS = 10_000;
    /** The default bound on one message (one line of stdin), as the SDK's and as {@link Limits#DEFAULT_SOURCE}. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 << 20;
    /** The default interval between progress notifications of a call that asked for them. */
    public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(1);
    /** Bytes of calls that may wait in a session's queue before reading pauses (at least two messages). */
    private static final long MAX_QUEUED_BYTES = 64L << 20;

    private static final String ORDER = " Calls of one session run one at a time, in the order they arrive.";
    private static final String RUN_DESCRIPTION = "Run Lua 5.3 code in a sandbox that persists for this session "
            + "(globals survive between calls, as in a REPL; an expression's value is returned). Returns JSON: ok, "
            + "output (what print wrote), results (the returned values), usage (gas, gasLeft, memory, time) and, "
            + "on failure, error {kind: syntax|runtime|limit|conversion, message, line, limit}. Call lua_docs "
            + "first to see the libraries and host functions available. The session's gas budget covers all its "
            + "calls, lua_reset included; usage.gasLeft says what remains. Send a progressToken for progress "
            + "notifications during long runs." + ORDER;
    private static final String DOCS_DESCRIPTION = "Describe the Lua sandbox: its libraries, the host functions "
            + "it may call (parameters, results, safety, effects) and its limits, in Markdown; with a name, just "
            + "that module, function or library." + ORDER;
    private static final String RESET_DESCRIPTION = "Discard this session's sandbox (every global) and start a "
            + "fresh one. The session's gas budget is not restored: the reset costs " + RESET_GAS + " gas of it "
            + "(usage.gas) and usage.gasLeft says what remains." + ORDER;

    private final Capabilities capabilities;
    private final Limits limits;
    private final LuaVM vm;
    private final PrintStream log;
    private final List<Upstream> upstreams;
    private final McpJsonMapper mapper;
    private final ObjectMapper objectMapper = new ObjectMapper();
    private final Set<LuaSession> sessions = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sessionNumbers = new AtomicInteger();
    private final int maxMessageBytes;
    private final Duration progressInterval;
    private final Thread endUpstreams;
    /** where the session outlives the server ({@link Builder#stateDirectory}), or null */
    private final SessionStore store;

    private LuaMcpServer(Builder b, Capabilities capabilities, List<Upstream> upstreams, McpJsonMapper mapper,
                         Thread endUpstreams, SessionStore store) {
        this.store = store;
        this.capabilities = capabilities;
        this.limits = b.limits;
        this.log = b.log;
        this.upstreams = upstreams;
        this.mapper = mapper;
        this.maxMessageBytes = b.maxMessageBytes;
        this.progressInterval = b.progressInterval;
        this.endUpstreams = endUpstreams;
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
     * Serves one MCP session on {@code in}/{@code out} until {@code in} ends (the client closed it):
     * every request read before the end is answered, the tool calls in the order they arrived, each
     * within its own limits; then the session's sandbox is closed and this returns. The upstreams
     * stay connected until {@link #close()}. See {@link StdioServerTransport} for how malformed
     * frames, the lifecycle, cancellation and the end of input are handled.
     */
    public void serve(InputStream in, OutputStream out) throws InterruptedException {
        String name = "mcp-" + sessionNumbers.incrementAndGet();
        if (store != null && !sessions.isEmpty()) {
            throw new IllegalStateException("the state directory holds one session: serve one at a time");
        }
        LuaSession session = new LuaSession(vm, capabilities, limits, name, RESET_GAS, store, log);
        StdioServerTransport transport = new StdioServerTransport(mapper, in, out, maxMessageBytes,
                Math.max(MAX_QUEUED_BYTES, 2L * maxMessageBytes), name, log);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "luavm-" + name + "-progress");
            t.setDaemon(true);
            return t;
        });
        sessions.add(session);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("luavm", VERSION)
                .instructions("A sandboxed Lua 5.3 interpreter. Call lua_docs to see what scripts may call, "
                        + "then lua_run; chain many host calls in one script rather than one tool call each.")
                .jsonMapper(mapper)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(objectMapper))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .requestTimeout(limits.timeout().plusSeconds(30))
                // the transport runs tool calls on its own worker, one at a time: no offloading
                .immediateExecution(true)
                .tools(toolSpecifications(session, transport, timer))
                .build();
        try {
            transport.serve();
        } finally {
            server.close();
            timer.shutdownNow();
            session.close();
            sessions.remove(session);
        }
    }

    private List<McpServerFeatures.SyncToolSpecification> toolSpecifications(LuaSession session,
            StdioServerTransport transport, ScheduledExecutorService timer) {
        List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
        specs.add(tool("lua_run", RUN_DESCRIPTION, Map.of("type", "object",
                "properties", Map.of("source", Map.of("type", "string", "description", "Lua 5.3 source code")),
                "required", List.of("source")), (exchange, request, args) -> {
                    CallCancellation cancellation = transport.currentCall();
                    try (ProgressTicker ignored = ProgressTicker.start(timer, request.progressToken(), progressInterval,
                            limits.timeout(), cancellation, exchange::progressNotification)) {
                        return run(session, args, cancellation);
                    }
                }));
        specs.add(tool("lua_docs", DOCS_DESCRIPTION, Map.of("type", "object", "properties", Map.of("name", Map.of(
                "type", "string", "description", "optional: one module, function or library, e.g. 'invoice', "
                        + "'invoice.lookup_vendor', 'string'; all of them when absent"))),
                (exchange, request, args) -> docs(session, args)));
        specs.add(tool("lua_reset", RESET_DESCRIPTION, Map.of("type", "object", "properties", Map.of()),
                (exchange, request, args) -> json(session.reset())));
        return specs;
    }

    private interface Handler {
        McpSchema.CallToolResult handle(McpSyncServerExchange exchange, McpSchema.CallToolRequest request,
                                        Map<String, Object> args) throws Exception;
    }

    private McpServerFeatures.SyncToolSpecification tool(String name, String description, Map<String, Object> schema,
                                                        Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build();
        return new McpServerFeatures.SyncToolSpecification(tool, (exchange, request) -> {
            try {
                Map<String, Object> args = request.arguments() == null ? Map.of() : request.arguments();
                return handler.handle(exchange, request, args);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return error("interrupted");
            } catch (Exception e) {
                log.println("luavm mcp: " + name + " failed: " + e);
                return error(name + " failed: " + e.getMessage());
            }
        });
    }

    private McpSchema.CallToolResult run(LuaSession session, Map<String, Object> args, CallCancellation cancellation)
            throws Exception {
        if (!(args.get("source") instanceof String source)) return error("lua_run needs a string argument 'source'");
        return json(session.run(source, cancellation));
    }

    /** A report as the result: JSON text, the same as structured content; an error result unless {@code ok}. */
    private McpSchema.CallToolResult json(Map<String, Object> report) throws IOException {
        return McpSchema.CallToolResult.builder()
                .addTextContent(objectMapper.writeValueAsString(report))
                .structuredContent(report)
                .isError(!Boolean.TRUE.equals(report.get("ok")))
                .build();
    }

    private McpSchema.CallToolResult docs(LuaSession session, Map<String, Object> args) {
        if (args.get("name") instanceof String name && !name.isBlank()) {
            return HostDocs.of(capabilities).text(name.trim())
                    .map(text -> McpSchema.CallToolResult.builder().addTextContent(text + "\n\n"
                            + SandboxDocs.gasLine(limits, session.gasLeft())).isError(false).build())
                    .orElseGet(() -> error("nothing granted is named '" + name.trim() + "'; call lua_docs without a name "
                            + "for everything"));
        }
        return McpSchema.CallToolResult.builder()
                .addTextContent(SandboxDocs.markdown(capabilities, limits, session.gasLeft()))
                .isError(false)
                .build();
    }

    private static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    /** The upstreams' processes, in the order configured (for diagnostics and tests). */
    List<ProcessHandle> upstreamProcesses() {
        return upstreams.stream().map(Upstream::process).toList();
    }

    /**
     * Disconnects the upstreams and ends their processes (and the processes they started: stdin
     * closed, then SIGTERM, then SIGKILL), and closes any session left.
     */
    @Override
    public void close() {
        sessions.forEach(LuaSession::close);
        sessions.clear();
        if (store != null) store.close();
        for (Upstream u : upstreams) u.close();
        if (endUpstreams != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(endUpstreams);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
    }

    /** Configures a server; {@link #build()} starts and connects the upstreams. */
    public static final class Builder {
        private Capabilities capabilities = Capabilities.standard();
        private Limits limits = Limits.defaults().withGas(DEFAULT_SESSION_GAS).withRunGas(Limits.DEFAULT_GAS);
        private HostCallPolicy policy;
        private AuditSink audit;
        private PrintStream log = System.err;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private Duration progressInterval = DEFAULT_PROGRESS_INTERVAL;
        private Duration upstreamTimeout;
        private final List<Upstream.Spec> upstreams = new ArrayList<>();
        private java.nio.file.Path stateDirectory;

        private Builder() {}

        /**
         * Keeps the session in {@code dir} ({@code luavm mcp --state DIR}): after every
         * {@code lua_run} and {@code lua_reset} the session's sandbox (a snapshot, docs/SNAPSHOT.md)
         * and its spent gas are written to {@code DIR/session.luavm}, atomically, and a server
         * started again on the same directory restores them, so a server killed between two calls
         * (SIGKILL included) loses at most the call in flight; {@code lua_reset} discards the
         * stored sandbox. One session at a time, one server per directory (a lock file; a second
         * server fails to start). A state that cannot be read or restored is moved aside to
         * {@code session.luavm.bad} and the session starts afresh.
         */
        public Builder stateDirectory(java.nio.file.Path dir) {
            this.stateDirectory = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /** The libraries and host functions of every session's sandbox (default: standard). */
        public Builder capabilities(Capabilities caps) {
            this.capabilities = Objects.requireNonNull(caps, "capabilities");
            return this;
        }

        /**
         * Each session's limits (default {@link Limits#defaults()} with {@link #DEFAULT_SESSION_GAS}
         * and {@link Limits#DEFAULT_GAS} per call): time, output and {@link Limits#runGas()} per call,
         * memory held, and {@link Limits#gas()} over the session's whole life, {@code lua_reset}
         * included.
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

        /**
         * The most one message (one line of input) may hold, in bytes (default
         * {@link #DEFAULT_MAX_MESSAGE_BYTES}); a longer line is dropped and answered with
         * {@code -32600}, and the server goes on.
         */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 1024) throw new IllegalArgumentException("the bound on a message must be at least 1024 bytes: " + bytes);
            this.maxMessageBytes = bytes;
            return this;
        }

        /** How often a call that sent a {@code progressToken} gets a progress notification (default one second). */
        public Builder progressInterval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            if (interval.isNegative() || interval.isZero()) throw new IllegalArgumentException("progress interval must be positive");
            this.progressInterval = interval;
            return this;
        }

        /**
         * The most one upstream tool call waits for its answer (default: no bound but the run's).
         * A call never waits past 90% of its run's time limit either; then, or at this bound, it
         * raises {@code NAME.tool: no answer within the call's time limit}, which pcall catches.
         */
        public Builder upstreamTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("upstream timeout must be positive");
            this.upstreamTimeout = timeout;
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
         * after stopping the ones already started. With upstreams, a JVM shutdown hook ends their
         * processes if the JVM goes down (SIGTERM, SIGINT, {@code System.exit}) before
         * {@link #close()}.
         */
        public LuaMcpServer build() {
            McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
            List<Upstream> connected = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread hook = null;
            if (!upstreams.isEmpty()) {
                hook = new Thread(() -> connected.forEach(Upstream::kill), "luavm-mcp-end-upstreams");
                Runtime.getRuntime().addShutdownHook(hook);
            }
            Duration callTimeout = upstreamTimeout != null ? upstreamTimeout : limits.timeout();
            SessionStore store = null;
            try {
                if (stateDirectory != null) {
                    try {
                        store = SessionStore.open(stateDirectory);
                    } catch (IOException e) {
                        throw new IllegalStateException("cannot use the state directory: " + e.getMessage(), e);
                    }
                }
                Capabilities.Builder caps = capabilities.toBuilder();
                for (Upstream.Spec spec : upstreams) {
                    for (Upstream u : connected) {
                        if (u.name().equals(spec.name())) throw new IllegalArgumentException("upstream named twice: " + spec.name());
                    }
                    Upstream u = Upstream.connect(spec, mapper, limits.timeout(), callTimeout, VERSION, log);
                    connected.add(u);
                    u.grantTo(caps, log);
                    log.println("luavm mcp: upstream " + spec.name() + ": " + u.tools().size() + " tools");
                }
                return new LuaMcpServer(this, caps.build(), List.copyOf(connected), mapper, hook, store);
            } catch (RuntimeException e) {
                if (store != null) store.close();
                for (Upstream u : connected) u.close();
                if (hook != null) Runtime.getRuntime().removeShutdownHook(hook);
                throw e;
            }
        }
    }
}
