package dev.luavm.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/** The MCP agent-host example, run as a reader would, driven by the SDK's client. */
@Timeout(120)
class McpAgentHostExampleTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void theAnnotatedModuleIsDocumentedAndCallableThroughMcp() throws Exception {
        ServerParameters p = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args("-cp", System.getProperty("java.class.path"), McpAgentHostExample.class.getName()).build();
        try (McpSyncClient c = McpClient.sync(new StdioClientTransport(p, new JacksonMcpJsonMapper(new ObjectMapper())))
                .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build()) {
            c.initialize();
            String docs = text(c.callTool(new McpSchema.CallToolRequest("lua_docs", Map.of())));
            assertTrue(docs.contains("invoice.lookup_vendor") && docs.contains("vendor id, e.g. V-17")
                    && docs.contains("Mark an invoice paid"), docs);

            String script = """
                    local total = 0
                    for _, inv in ipairs(invoice.list(true)) do
                      local v = invoice.lookup_vendor(inv.vendorId)
                      total = total + invoice.convert(inv.cents, inv.currency, 'EUR')
                      print(inv.id, v.name)
                    end
                    return total
                    """;
            JsonNode r = JSON.readTree(text(c.callTool(new McpSchema.CallToolRequest("lua_run", Map.of("source", script)))));
            assertTrue(r.get("ok").asBoolean(), r.toString());
            assertEquals("INV-1001\tAcme Tools\nINV-1002\tBrit Supplies\n", r.get("output").asText());
            assertEquals(Math.round(129_900 * 0.92) + Math.round(45_000 * 1.17), r.get("results").get(0).asLong());

            JsonNode bad = JSON.readTree(text(c.callTool(new McpSchema.CallToolRequest("lua_run",
                    Map.of("source", "invoice.lookup_vendor(17)")))));
            assertEquals("runtime", bad.get("error").get("kind").asText());
            assertTrue(bad.get("error").get("message").asText()
                    .contains("bad argument #1 to 'invoice.lookup_vendor' (string expected, got number)"), bad.toString());

            JsonNode quota = JSON.readTree(text(c.callTool(new McpSchema.CallToolRequest("lua_run", Map.of("source",
                    "invoice.mark_paid('INV-1001') invoice.mark_paid('INV-1002') return pcall(invoice.mark_paid, 'INV-1003')")))));
            assertFalse(quota.get("results").get(0).asBoolean(), quota.toString());
            assertTrue(quota.get("results").get(1).asText().startsWith("permission denied: invoice.mark_paid"), quota.toString());
        }
    }
}
