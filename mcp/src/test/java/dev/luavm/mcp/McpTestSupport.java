package dev.luavm.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starting test processes (this JVM's java and class path) and reading tool results. */
final class McpTestSupport {
    static final ObjectMapper JSON = new ObjectMapper();

    private McpTestSupport() {}

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java -cp <test class path> mainClass args...} */
    static List<String> javaCommand(Class<?> mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-Xss8m", "-cp", System.getProperty("java.class.path"),
                mainClass.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** {@code up=<java -cp ... FakeUpstream args>} for {@code --upstream}, each word quoted. */
    static String upstreamSpec(String... fakeUpstreamArgs) {
        return "up=" + String.join(" ", javaCommand(FakeUpstream.class, fakeUpstreamArgs).stream()
                .map(w -> "'" + w.replace("'", "'\\''") + "'").toList());
    }

    /** The SDK's client, connected to {@code command} started as a subprocess, initialized. */
    static McpSyncClient client(List<String> command) {
        ServerParameters p = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
        StdioClientTransport transport = new StdioClientTransport(p, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
        McpSyncClient client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
        return client;
    }

    static McpSchema.CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
        return c.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    /** lua_run's report, parsed from the text content. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> run(McpSyncClient c, String source) throws Exception {
        McpSchema.CallToolResult r = call(c, "lua_run", Map.of("source", source));
        Map<String, Object> report = JSON.readValue(text(r), Map.class);
        if (Boolean.TRUE.equals(r.isError()) == Boolean.TRUE.equals(report.get("ok"))) {
            throw new AssertionError("isError disagrees with ok: " + report);
        }
        return report;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> error(Map<String, Object> report) {
        return (Map<String, Object>) report.get("error");
    }
}
