package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.host.HostCall;
import dev.luavm.host.HostFunctionException;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Code mode: an MCP server started as a child process ({@code --upstream NAME="CMD ARGS"}),
 * connected to as a client, whose tools are granted to scripts as Lua functions
 * {@code NAME.<tool>}. A script then chains many tool calls in one {@code lua_run} instead of one
 * model round trip per call.
 *
 * <p>Each tool is a declared grant ({@code UNSAFE}, so the policy decides; effect
 * {@code mcp:NAME}): every call goes through the host-call gateway (gas, argument checks,
 * policy, audit). It takes one table, the tool's arguments ({@code fs.read_file{path = "a"}};
 * none is {@code {}}), converted to JSON with the input schema's help ({@link JsonValues}); it
 * returns the tool's structured content as a table when the tool gives one, else its text (the
 * text items joined by newlines), else the content items as tables. A tool's error result is a
 * Lua error with its text. The tool's description and input schema are in the grant's
 * declaration, so {@code docs} and {@code lua_docs} show them.
 */
final class Upstream implements AutoCloseable {
    private static final Pattern LUA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> KEYWORDS = Set.of("and", "break", "do", "else", "elseif", "end", "false",
            "for", "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
            "true", "until", "while");
    private static final int MAX_DESCRIPTION = 2000;
    /** The error of a tool call that got no answer in time; a Lua error, caught by pcall. */
    static final String NO_ANSWER = "no answer within the call's time limit";
    /** A tool call never waits past this percentage of its run's time limit. */
    static final int ANSWER_SHARE_PERCENT = 90;
    private static final int MAX_PAGES = 100;

    /** {@code NAME="CMD ARGS"}: the Lua name the tools go under and the command that serves them. */
    record Spec(String name, List<String> command) {
        Spec {
            if (!LUA_NAME.matcher(name).matches() || KEYWORDS.contains(name)) {
                throw new IllegalArgumentException("upstream name must be a Lua name: '" + name + "'");
            }
            if (command.isEmpty()) throw new IllegalArgumentException("upstream '" + name + "' has no command");
            command = List.copyOf(command);
        }

        /** Parses {@code NAME=CMD ARGS}; the command is split at spaces, with '...' and "..." quoting. */
        static Spec parse(String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("expected NAME=\"COMMAND ARGS\", got '" + text + "'");
            return new Spec(text.substring(0, eq).trim(), split(text.substring(eq + 1)));
        }

        static List<String> split(String s) {
            List<String> words = new ArrayList<>();
            StringBuilder cur = new StringBuilder();
            boolean inWord = false;
            char quote = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (quote != 0) {
                    if (c == quote) quote = 0;
                    else if (c == '\\' && quote == '"' && i + 1 < s.length()) cur.append(s.charAt(++i));
                    else cur.append(c);
                } else if (c == '\'' || c == '"') {
                    quote = c;
                    inWord = true;
                } else if (c == '\\' && i + 1 < s.length()) {
                    cur.append(s.charAt(++i));
                    inWord = true;
                } else if (Character.isWhitespace(c)) {
                    if (inWord) words.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                } else {
                    cur.append(c);
                    inWord = true;
                }
            }
            if (quote != 0) throw new IllegalArgumentException("unclosed quote in '" + s + "'");
            if (inWord) words.add(cur.toString());
            return words;
        }
    }

    /** How long starting an upstream, initializing it and listing its tools may take. */
    private static final Duration STARTUP = Duration.ofSeconds(60);
    /** The most one message from an upstream may hold. */
    private static final int MAX_MESSAGE = 16 << 20;

    private final Spec spec;
    private final UpstreamTransport transport;
    private final McpAsyncClient client;
    private final McpJsonMapper mapper;
    private final List<McpSchema.Tool> tools;
    private final Duration runTimeout;
    private final Duration callTimeout;

    private Upstream(Spec spec, UpstreamTransport transport, McpAsyncClient client, McpJsonMapper mapper,
                     List<McpSchema.Tool> tools, Duration runTimeout, Duration callTimeout) {
        this.spec = spec;
        this.transport = transport;
        this.client = client;
        this.mapper = mapper;
        this.tools = tools;
        this.runTimeout = runTimeout;
        this.callTimeout = callTimeout;
    }

    /**
     * Starts the command, initializes the session and lists its tools (within a minute); the
     * child's stderr goes to {@code log}. A tool call waits at most {@code callTimeout}, and never
     * past {@link #ANSWER_SHARE_PERCENT} percent of the run's time limit {@code runTimeout} (see {@link #wait}).
     */
    static Upstream connect(Spec spec, McpJsonMapper mapper, Duration runTimeout, Duration callTimeout, String version,
                            PrintStream log) {
        List<String> cmd = spec.command();
        UpstreamTransport transport = new UpstreamTransport(spec.name(), cmd, mapper, MAX_MESSAGE,
                line -> log.println("luavm mcp: upstream " + spec.name() + ": " + line));
        McpAsyncClient client = McpClient.async(transport)
                .clientInfo(new McpSchema.Implementation("luavm", version))
                .requestTimeout(STARTUP.plus(runTimeout))
                .initializationTimeout(STARTUP)
                .build();
        try {
            client.initialize().block(STARTUP);
            List<McpSchema.Tool> tools = new ArrayList<>();
            String cursor = null;
            for (int page = 0; page < MAX_PAGES; page++) {
                McpSchema.ListToolsResult r = client.listTools(cursor).block(STARTUP);
                if (r == null) break;
                tools.addAll(r.tools());
                cursor = r.nextCursor();
                if (cursor == null || cursor.isEmpty()) break;
            }
            return new Upstream(spec, transport, client, mapper, tools, runTimeout, callTimeout);
        } catch (RuntimeException e) {
            client.close();
            transport.stop(UpstreamTransport.EXIT_GRACE);
            throw new IllegalStateException("upstream '" + spec.name() + "' (" + String.join(" ", cmd) + "): "
                    + e.getMessage(), e);
        }
    }

    String name() {
        return spec.name();
    }

    List<McpSchema.Tool> tools() {
        return tools;
    }

    /** Grants each tool as {@code NAME.<tool>}; a name Lua cannot spell is made one ({@code get-weather} as {@code get_weather}). */
    void grantTo(Capabilities.Builder caps, PrintStream log) {
        Set<String> taken = new HashSet<>();
        for (McpSchema.Tool tool : tools) {
            String luaName = luaName(tool.name());
            if (!taken.add(luaName)) {
                log.println("luavm mcp: upstream " + spec.name() + ": tool '" + tool.name() + "' skipped: its Lua name "
                        + luaName + " is taken");
                continue;
            }
            Map<String, Object> schema = tool.inputSchema();
            boolean required = schema != null && schema.get("required") instanceof List<?> r && !r.isEmpty();
            caps.declare(spec.name() + "." + luaName, oneLine(tool.description() != null ? tool.description()
                            : "tool " + tool.name() + " of MCP server " + spec.name()))
                    .unsafe()
                    .param("arguments", required ? "table" : "table?", "the tool's arguments; JSON Schema: "
                            + oneLine(json(schema)))
                    .returns("any", "the structured content as a table, else the text")
                    .effects("mcp:" + spec.name())
                    .example(example(spec.name() + "." + luaName, schema))
                    .grant(call -> call(tool, call));
        }
    }

    /** One tool call: Lua arguments to JSON, the request, the result back as Java values for the gateway. */
    private Object call(McpSchema.Tool tool, HostCall call) throws Exception {
        Object arg = call.args().isEmpty() ? null : call.arg(0);
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (arg instanceof Map<?, ?> || arg instanceof List<?>) {
            Object json;
            try {
                json = JsonValues.argumentsToJson(arg, objectSchema(tool.inputSchema()));
            } catch (JsonValues.JsonException e) {
                throw new HostFunctionException("bad argument #1 to '" + call.name() + "' (" + e.getMessage() + ")");
            }
            if (!(json instanceof Map<?, ?> m)) {
                throw new HostFunctionException("bad argument #1 to '" + call.name()
                        + "' (table of named arguments expected, got a sequence)");
            }
            m.forEach((k, v) -> arguments.put((String) k, v));
        }
        McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(tool.name(), arguments);
        Duration left = wait(call.elapsed());
        if (left.isZero()) throw new HostFunctionException(call.name() + ": " + NO_ANSWER);
        McpSchema.CallToolResult result;
        transport.watch(request);
        String abandoned = null;
        try {
            // an upstream that exits fails the call at once rather than at its time limit
            Mono<McpSchema.CallToolResult> exited = transport.exited().then(Mono.error(
                    new HostFunctionException(call.name() + ": the upstream server " + spec.name() + " has exited")));
            result = Mono.firstWithSignal(client.callTool(request), exited).block(left);
        } catch (IllegalStateException e) {
            if (!String.valueOf(e.getMessage()).startsWith("Timeout")) throw e;
            abandoned = "no answer within the call's time limit";
            throw new HostFunctionException(call.name() + ": " + NO_ANSWER);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof HostFunctionException h) throw h;
            if (reactor.core.Exceptions.unwrap(e) instanceof InterruptedException) {
                Thread.currentThread().interrupt(); // the run was cancelled or timed out: the gateway ends it
                abandoned = "the calling script was stopped";
                throw new HostFunctionException(call.name() + ": interrupted");
            }
            ProcessHandle p = transport.handle();
            if (p != null && !p.isAlive()) {
                throw new HostFunctionException(call.name() + ": the upstream server " + spec.name() + " has exited");
            }
            if (e instanceof io.modelcontextprotocol.spec.McpError) { // a JSON-RPC error answer
                throw new HostFunctionException(call.name() + ": " + e.getMessage());
            }
            throw e;
        } finally {
            transport.forget(request, abandoned);
        }
        if (result == null) throw new HostFunctionException(call.name() + ": no result");
        if (Boolean.TRUE.equals(result.isError())) {
            String text = text(result.content());
            throw new HostFunctionException(call.name() + ": " + (text == null || text.isEmpty() ? "tool error" : text));
        }
        try {
            if (result.structuredContent() != null) return JsonValues.fromJson(result.structuredContent());
            String text = text(result.content());
            if (text != null) return text;
            List<Object> items = new ArrayList<>();
            for (McpSchema.Content c : result.content()) items.add(JsonValues.fromJson(mapper.convertValue(c, Map.class)));
            return items;
        } catch (JsonValues.JsonException e) {
            throw new HostFunctionException(call.name() + ": " + e.getMessage());
        }
    }

    /** The text items joined by newlines, or null when some item is not text. */
    private static String text(List<McpSchema.Content> content) {
        if (content == null) return null;
        StringBuilder sb = new StringBuilder();
        for (McpSchema.Content c : content) {
            if (!(c instanceof McpSchema.TextContent t)) return null;
            if (sb.length() > 0) sb.append('\n');
            sb.append(t.text());
        }
        return sb.toString();
    }

    /** The schema as given, with an object's type made explicit for {@link JsonValues}. */
    private static Map<String, Object> objectSchema(Map<String, Object> schema) {
        return schema == null ? Map.of("type", "object") : schema;
    }

    /** {@code up.add{a = ..., b = ...}}: the call with the schema's required properties (all of them when none is required). */
    private static String example(String path, Map<String, Object> schema) {
        List<String> names = new ArrayList<>();
        if (schema != null && schema.get("required") instanceof List<?> req && !req.isEmpty()) {
            for (Object o : req) names.add(String.valueOf(o));
        } else if (schema != null && schema.get("properties") instanceof Map<?, ?> props) {
            for (Object o : props.keySet()) names.add(String.valueOf(o));
        }
        StringBuilder sb = new StringBuilder(path).append('{');
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            sb.append(i > 0 ? ", " : "").append(LUA_NAME.matcher(n).matches() && !KEYWORDS.contains(n) ? n
                    : "[\"" + n.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]").append(" = ...");
        }
        return sb.append('}').toString();
    }

    static String luaName(String toolName) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < toolName.length(); i++) {
            char c = toolName.charAt(i);
            sb.append((c < 128 && (Character.isLetterOrDigit(c) || c == '_')) ? c : '_');
        }
        if (sb.length() == 0 || Character.isDigit(sb.charAt(0))) sb.insert(0, '_');
        if (KEYWORDS.contains(sb.toString())) sb.append('_');
        return sb.toString();
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (java.io.IOException e) {
            return String.valueOf(value);
        }
    }

    private static String oneLine(String s) {
        String t = s.replaceAll("\\s+", " ").trim();
        return t.length() > MAX_DESCRIPTION ? t.substring(0, MAX_DESCRIPTION - 3) + "..." : t;
    }

    /**
     * How long a tool call may wait for its answer, {@code elapsed} into its run: at most
     * {@code callTimeout}, and never past {@link #ANSWER_SHARE_PERCENT} percent of the run's time limit, so the
     * script gets {@link #NO_ANSWER} as an ordinary error with time left to handle it (at the
     * run's own deadline the run would end, uncatchably). Zero when that point has passed.
     */
    Duration wait(Duration elapsed) {
        Duration untilShare = runTimeout.multipliedBy(ANSWER_SHARE_PERCENT).dividedBy(100).minus(elapsed);
        Duration d = untilShare.compareTo(callTimeout) < 0 ? untilShare : callTimeout;
        return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ZERO : d;
    }

    /** The child's process handle (for tests and diagnostics). */
    ProcessHandle process() {
        return transport.handle();
    }

    /** Disconnects and ends the process and every process it started (stdin closed, then SIGTERM, then SIGKILL). */
    @Override
    public void close() {
        try {
            client.closeGracefully().block(Duration.ofSeconds(10));
        } catch (RuntimeException e) {
            client.close();
        }
        transport.stop(UpstreamTransport.EXIT_GRACE); // again, in case the client gave up: returns at once when it is gone
    }

    /** For a JVM going down (a shutdown hook): ends the processes quickly, without the client's goodbye. */
    void kill() {
        transport.stop(Duration.ofMillis(300));
    }
}
