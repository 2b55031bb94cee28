package dev.luavm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** {@code java -jar luavm.jar mcp}: the shaded jar alone serves MCP (the SDK, Jackson and services all inside). */
@Timeout(120)
class McpJarIT {
    @Test
    void theShadedJarAnswersInitializeListAndCall() throws Exception {
        String jar = System.getProperty("luavm.jar"); // set by the integration-test execution only
        Assumptions.assumeTrue(jar != null, "runs in the integration-test phase, once the jar is built");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar, "mcp")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(String.join("\n",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"0\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"lua_run\","
                            + "\"arguments\":{\"source\":\"return ('%d'):format(6 * 7)\"}}}",
                    "").getBytes(StandardCharsets.UTF_8));
        }
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertEquals(3, lines.size(), String.join("\n", lines));
        ObjectMapper json = new ObjectMapper();
        assertEquals("luavm", json.readTree(lines.get(0)).at("/result/serverInfo/name").asText());
        assertEquals(3, json.readTree(lines.get(1)).at("/result/tools").size());
        JsonNode report = json.readTree(json.readTree(lines.get(2)).at("/result/content/0/text").asText());
        assertEquals("[\"42\"]", report.get("results").toString());
    }
}
