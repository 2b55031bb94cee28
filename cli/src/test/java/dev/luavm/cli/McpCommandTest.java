package dev.luavm.cli;

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
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** {@code luavm mcp} as a real subprocess: JSON-RPC lines written by hand, and the SDK's client. */
@Timeout(120)
class McpCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static List<String> luavmMcp(String... options) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xss8m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp"));
        cmd.addAll(List.of(options));
        return cmd;
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"by-hand\",\"version\":\"0\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

    private static String call(int id, String source) throws Exception {
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "method", "tools/call",
                "params", Map.of("name", "lua_run", "arguments", Map.of("source", source))));
    }

    private static JsonNode answer(BufferedReader out, int id) throws Exception {
        String line = out.readLine();
        assertNotNull(line, "the server closed stdout");
        JsonNode n = JSON.readTree(line); // every stdout line is a JSON-RPC message
        assertEquals("2.0", n.get("jsonrpc").asText(), line);
        assertEquals(id, n.get("id").asInt(), line);
        return n;
    }

    /** lua_run's report, from a tools/call answer. */
    private static JsonNode report(JsonNode answer) throws Exception {
        return JSON.readTree(answer.get("result").get("content").get(0).get("text").asText());
    }

    @Test
    void answersJsonRpcLinesWrittenByHand() throws Exception {
        Path audit = dir.resolve("audit.jsonl");
        Process p = new ProcessBuilder(luavmMcp("--timeout", "1s", "--gas", "1000000000000", "--audit", audit.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode init = answer(out, 1);
        assertEquals("luavm", init.get("result").get("serverInfo").get("name").asText(), init.toString());
        assertTrue(init.get("result").get("capabilities").has("tools"), init.toString());

        in.write((INITIALIZED + "\n" + LIST + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode tools = answer(out, 2).get("result").get("tools");
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.get("name").asText()));
        assertEquals(List.of("lua_run", "lua_docs", "lua_reset"), names);

        in.write((call(3, "greeting = 'hi'\nprint(greeting, 1 + 1)") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode first = answer(out, 3);
        assertFalse(first.get("result").get("isError").asBoolean(), first.toString());
        assertEquals("hi\t2\n", report(first).get("output").asText());

        in.write((call(4, "greeting .. '!'") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertEquals("[\"hi!\"]", report(answer(out, 4)).get("results").toString(), "globals persist");

        in.write((call(5, "while true do end") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        JsonNode limited = answer(out, 5);
        assertTrue(limited.get("result").get("isError").asBoolean(), limited.toString());
        assertEquals("time", report(limited).get("error").get("limit").asText());

        in.close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "ends when stdin closes");
        assertEquals(0, p.exitValue());
        assertNull(out.readLine(), "nothing but the answers on stdout");
        String log = Files.readString(audit);
        assertEquals(3, log.lines().filter(l -> l.contains("\"type\":\"run_started\"")).count(), log);
        assertTrue(log.contains("\"type\":\"run_ended\""), log);
    }

    @Test
    void requestsPipedInThenEndOfInputAreAllAnswered() throws Exception {
        Process p = new ProcessBuilder(luavmMcp()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(String.join("\n", INITIALIZE, INITIALIZED, LIST, call(3, "return 6 * 7"), "")
                    .getBytes(StandardCharsets.UTF_8));
        }
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        answer(out, 1);
        answer(out, 2);
        assertEquals("[42]", report(answer(out, 3)).get("results").toString());
        assertNull(out.readLine());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void aContractSetsTheGrantsPolicyAndLimitsOfEveryCall() throws Exception {
        Path contract = Path.of("..", "examples", "invoice-contract", "contract.yaml").toAbsolutePath().normalize();
        Process p = new ProcessBuilder(luavmMcp("--contract", contract.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        in.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        answer(out, 1);
        in.write((INITIALIZED + "\n").getBytes(StandardCharsets.UTF_8));
        java.util.function.BiFunction<Integer, String, JsonNode> run = (id, source) -> {
            try { // one request at a time (pipelined calls would be answered in order too)
                in.write((call(id, source) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
                return report(answer(out, id));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        assertEquals("[\"function\",\"nil\",\"nil\",\"X\"]",
                run.apply(3, "return type(lookup_vendor_alias), type(io), type(os), string.upper('x')").get("results").toString(),
                "the contract's libraries and functions, nothing else");
        JsonNode forbidden = run.apply(4, "return pcall(send_vendor_email, 'v', 'hi')");
        assertEquals("false", forbidden.get("results").get(0).toString(), forbidden.toString());
        assertTrue(forbidden.get("results").get(1).asText().contains("send_vendor_email"), forbidden.toString());
        JsonNode quota = run.apply(5, "for i = 1, 4 do emit_review_note('n' .. i) end");
        assertTrue(quota.get("error").get("message").asText().contains("emit_review_note"), "max_calls 3: " + quota);
        JsonNode spin = run.apply(6, "while true do end");
        String limit = spin.get("error").get("limit").asText();
        // the contract's 200,000,000 gas or 500 ms per call, whichever comes first on this machine
        assertTrue(limit.equals("gas") || limit.equals("time"), spin.toString());
        if (limit.equals("gas")) assertEquals(200_000_000L, spin.get("usage").get("gas").asLong(), spin.toString());
        assertEquals("[2]", run.apply(7, "return 1 + 1").get("results").toString(), "the next call runs");
        in.close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void maxMessageBoundsALineAndTheServerGoesOn() throws Exception {
        Process p = new ProcessBuilder(luavmMcp("--max-message", "2k")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream in = p.getOutputStream();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        in.write((INITIALIZE + "\n" + INITIALIZED + "\n" + call(3, "return '" + "x".repeat(3000) + "'") + "\n"
                + call(4, "return 'fits'") + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        answer(out, 1);
        JsonNode tooLong = JSON.readTree(out.readLine());
        assertEquals(-32600, tooLong.at("/error/code").asInt(), tooLong.toString());
        assertTrue(tooLong.at("/error/message").asText().contains("at most 2048 bytes"), tooLong.toString());
        assertEquals("[\"fits\"]", report(answer(out, 4)).get("results").toString());
        in.close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    @Test
    void aContractCannotBeWidenedByFlags() {
        MainTest.Outcome o = MainTest.luavm("mcp", "--contract", "x.yaml", "--caps", "standard");
        assertEquals(1, o.status());
        assertTrue(o.err().contains("--contract sets the grants and limits: --caps cannot be added"), o.err());
    }

    @Test
    void theSdkClientSeesTheFlags() throws Exception {
        List<String> cmd = luavmMcp("--caps", "base", "--gas", "5000000", "--output", "10");
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(cmd.get(0))
                .args(cmd.subList(1, cmd.size())).build(), new JacksonMcpJsonMapper(new ObjectMapper()));
        try (McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build()) {
            c.initialize();
            String docs = ((McpSchema.TextContent) c.callTool(new McpSchema.CallToolRequest("lua_docs", Map.of()))
                    .content().get(0)).text();
            assertTrue(docs.contains("- `base`") && !docs.contains("- `string`"), docs);
            assertTrue(docs.contains(" and 5000000 gas per call"), docs);
            McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest("lua_run",
                    Map.of("source", "return string")));
            assertEquals("[null]", JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text()).get("results").toString(),
                    "--caps base: no string library");
            r = c.callTool(new McpSchema.CallToolRequest("lua_run", Map.of("source", "print(('x'):rep(1))")));
            assertTrue(r.isError(), "no string metatable under base alone");
            r = c.callTool(new McpSchema.CallToolRequest("lua_run", Map.of("source", "for i = 1, 20 do print(i) end")));
            assertEquals("output", JSON.readTree(((McpSchema.TextContent) r.content().get(0)).text())
                    .get("error").get("limit").asText());
        }
    }

    @Test
    void badOptionsExitWithOneAndHelpListsTheOptions() {
        MainTest.Outcome o = MainTest.luavm("mcp", "--gas", "lots");
        assertEquals(1, o.status());
        assertTrue(o.err().startsWith("luavm mcp: --gas: not a valid quantity"), o.err());
        o = MainTest.luavm("mcp", "--upstream", "no-equals-sign");
        assertEquals(1, o.status());
        assertTrue(o.err().contains("NAME=\"COMMAND ARGS\""), o.err());
        o = MainTest.luavm("mcp", "--max-message", "10");
        assertEquals(1, o.status());
        assertTrue(o.err().startsWith("luavm mcp: --max-message: must be between 1k and 2g"), o.err());
        o = MainTest.luavm("mcp", "--contract", "x.yaml", "--upstream-timeout", "1s");
        assertEquals(1, o.status());
        assertTrue(o.err().contains("--upstream-timeout cannot be added"), o.err());
        o = MainTest.luavm("mcp", "--help");
        assertEquals(0, o.status());
        assertTrue(o.out().contains("--upstream NAME=\"CMD ARGS\""), o.out());
        assertTrue(o.out().contains("--upstream-timeout DUR") && o.out().contains("--max-message SIZE"), o.out());
        assertTrue(MainTest.luavm("--help").out().contains("luavm mcp"));
    }
}
