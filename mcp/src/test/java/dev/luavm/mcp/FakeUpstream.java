package dev.luavm.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A small MCP server written with the SDK, started as a subprocess by the code-mode tests:
 * {@code add {a, b}} (structured {sum}), {@code echo} (its arguments back, structured, with the
 * JSON type of each), {@code greet-user {name}} (text), {@code fail} (an error result),
 * {@code sleep} (a minute), {@code cancels} (how many {@code notifications/cancelled} it has
 * read), {@code calls} (how many calls it has served).
 *
 * <p>It exits when its stdin ends, as an MCP server should (so it never outlives a test that
 * died). Options: {@code --banner} prints a line that is not JSON on stdout first (as some servers
 * do); {@code --stubborn} ignores both the end of stdin and SIGTERM, so only SIGKILL ends it.
 */
public final class FakeUpstream {
    private FakeUpstream() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("slf4j.internal.verbosity", "ERROR");
        boolean stubborn = java.util.Arrays.asList(args).contains("--stubborn");
        if (stubborn) sun.misc.Signal.handle(new sun.misc.Signal("TERM"), sun.misc.SignalHandler.SIG_IGN);
        if (java.util.Arrays.asList(args).contains("--banner")) {
            System.out.println("fake upstream 1.0 starting (this line is not JSON)");
            System.out.flush();
        }
        int[] cancels = {0};
        StringBuilder line = new StringBuilder();
        java.io.InputStream stdin = new java.io.FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws java.io.IOException {
                int n = super.read(b, off, len);
                for (int i = off; i < off + Math.max(n, 0); i++) { // the SDK ignores cancellations: count them here
                    if (b[i] != '\n') {
                        line.append((char) b[i]);
                    } else {
                        if (line.indexOf("\"notifications/cancelled\"") >= 0) cancels[0]++;
                        line.setLength(0);
                    }
                }
                if (n < 0 && !stubborn) System.exit(0); // the client is gone: so are we (stubborn: main waits on)
                return n;
            }
        };
        ObjectMapper om = new ObjectMapper();
        var mapper = new JacksonMcpJsonMapper(om);
        int[] calls = {0};
        List<SyncToolSpecification> tools = new ArrayList<>();
        tools.add(tool("add", "Add two integers.\nReturns {sum}.", Map.of("type", "object",
                "properties", Map.of("a", Map.of("type", "integer"), "b", Map.of("type", "integer")),
                "required", List.of("a", "b")), a -> {
            calls[0]++;
            long sum = ((Number) a.get("a")).longValue() + ((Number) a.get("b")).longValue();
            return CallToolResult.builder().structuredContent(Map.of("sum", sum)).addTextContent("" + sum).build();
        }));
        tools.add(tool("echo", "Echo the arguments with their JSON types", Map.of("type", "object",
                "properties", Map.of("list", Map.of("type", "array", "items", Map.of("type", "number")),
                        "tags", Map.of("type", "array"), "obj", Map.of("type", "object"))), a -> {
            calls[0]++;
            String raw;
            try {
                raw = om.writeValueAsString(a);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return CallToolResult.builder().structuredContent(Map.of("args", a, "json", raw,
                    "float", 2.0, "int", 2, "big", 12345678901234L, "nested", List.of(Map.of("k", List.of(1, 2.5)))))
                    .addTextContent(raw).build();
        }));
        tools.add(tool("greet-user", "Greet someone", Map.of("type", "object",
                "properties", Map.of("name", Map.of("type", "string"))), a -> {
            calls[0]++;
            return CallToolResult.builder().addTextContent("hello, " + a.get("name")).build();
        }));
        tools.add(tool("fail", "Always fails", Map.of("type", "object"), a -> {
            calls[0]++;
            return CallToolResult.builder().addTextContent("it broke").isError(true).build();
        }));
        tools.add(tool("sleep", "Sleeps a minute", Map.of("type", "object"), a -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return CallToolResult.builder().addTextContent("slept").build();
        }));
        tools.add(tool("cancels", "How many notifications/cancelled were received", Map.of("type", "object"), a ->
                CallToolResult.builder().structuredContent(Map.of("cancels", cancels[0])).addTextContent("" + cancels[0]).build()));
        tools.add(tool("calls", "How many calls were served", Map.of("type", "object"), a ->
                CallToolResult.builder().structuredContent(Map.of("calls", calls[0])).addTextContent("" + calls[0]).build()));
        McpServer.sync(new StdioServerTransportProvider(mapper, stdin, System.out))
                .serverInfo("fake-upstream", "1.0")
                .jsonMapper(mapper)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(om))
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(tools)
                .build();
        System.err.println("fake upstream ready");
        new CountDownLatch(1).await(); // until the client ends the process
    }

    private interface Body {
        CallToolResult apply(Map<String, Object> args);
    }

    private static SyncToolSpecification tool(String name, String description, Map<String, Object> schema, Body body) {
        var tool = McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build();
        return new SyncToolSpecification(tool, (ex, req) -> body.apply(req.arguments() == null ? Map.of() : req.arguments()));
    }
}
