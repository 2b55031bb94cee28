package dev.luavm.mcp;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.luavm.mcp.McpTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** The server as a real subprocess, driven by the SDK's own client over stdio. */
class McpServerEndToEndTest {

    @Test
    void answersInitializeAndListsTheThreeTools() {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class))) {
            assertEquals("luavm", c.getServerInfo().name());
            List<McpSchema.Tool> tools = c.listTools().tools();
            assertEquals(List.of("lua_run", "lua_docs", "lua_reset"), tools.stream().map(McpSchema.Tool::name).toList());
            assertEquals(List.of("source"), tools.get(0).inputSchema().get("required"));
        }
    }

    @Test
    void globalsPersistBetweenCallsAndResultsComeBackAsJson() throws Exception {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class))) {
            Map<String, Object> first = run(c, "x = 41\nprint('set', x)");
            assertEquals(true, first.get("ok"));
            assertEquals("set\t41\n", first.get("output"));
            assertEquals(List.of(), first.get("results"));

            assertEquals(List.of(42), run(c, "x + 1").get("results"), "an expression's value, as in a REPL");
            Map<String, Object> many = run(c, "return 1, 'a', 2.0, {1, 2}, {k = true}, nil, 0/0");
            assertEquals(java.util.Arrays.asList(1, "a", 2.0, List.of(1, 2), Map.of("k", true), null, "nan"),
                    many.get("results"));
            String text = text(call(c, "lua_run", Map.of("source", "return 2.0, 3, {}")));
            assertTrue(text.contains("\"results\":[2.0,3,{}]"), "floats stay floats, integers integers: " + text);

            @SuppressWarnings("unchecked")
            Map<String, Object> usage = (Map<String, Object>) run(c, "for i = 1, 1000 do end").get("usage");
            assertTrue(((Number) usage.get("gas")).longValue() > 1000, "usage: " + usage);
            assertTrue(((Number) usage.get("gasLeft")).longValue() > 0);
        }
    }

    @Test
    void errorsAreClassifiedErrorResultsAndTheServerKeepsServing() throws Exception {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class, "--gas", "1000000000000", "--timeout", "300",
                "--output", "100"))) {
            Map<String, Object> syntax = run(c, "x = = 1");
            assertEquals("syntax", error(syntax).get("kind"));
            assertTrue(((String) error(syntax).get("message")).contains("unexpected symbol near '='"), syntax.toString());

            Map<String, Object> runtime = run(c, "y = 5\nerror('boom')");
            assertEquals("runtime", error(runtime).get("kind"));
            assertEquals("lua_run:2: boom", error(runtime).get("message"));
            assertEquals(2, error(runtime).get("line"));

            Map<String, Object> time = run(c, "while true do end");
            assertEquals("limit", error(time).get("kind"));
            assertEquals("time", error(time).get("limit"));

            Map<String, Object> output = run(c, "for i = 1, 100 do print('line', i) end");
            assertEquals("output", error(output).get("limit"));
            assertTrue(((String) output.get("output")).startsWith("line\t1\n"), "what fit is kept");

            assertEquals(List.of(5), run(c, "y").get("results"), "still serving, globals kept");
        }
    }

    @Test
    void gasIsPerCall() throws Exception {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class, "--gas", "2000000"))) {
            run(c, "keep = 1");
            for (int i = 0; i < 3; i++) { // 3 x 2,000,000: each call ends on its own budget
                Map<String, Object> gas = run(c, "while true do end");
                assertEquals("gas", error(gas).get("limit"));
                assertTrue(((String) error(gas).get("message")).contains("this call's gas"), error(gas).toString());
            }
            Map<String, Object> after = run(c, "keep");
            assertEquals(true, after.get("ok"), after.toString());
            assertEquals(java.util.List.of(1), after.get("results"));
        }
    }

    @Test
    void aSpentSessionBudgetStaysSpentAcrossResets() throws Exception {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class, "--session-gas", "2000000"))) {
            run(c, "keep = 1");
            Map<String, Object> gas = run(c, "while true do end");
            assertEquals("gas", error(gas).get("limit"));
            assertTrue(((String) error(gas).get("message")).contains("the session's gas budget is spent"), gas.toString());
            assertEquals("gas", error(run(c, "keep")).get("limit"));

            McpSchema.CallToolResult reset = call(c, "lua_reset", Map.of());
            assertNotEquals(Boolean.TRUE, reset.isError(), "a reset still answers");
            @SuppressWarnings("unchecked")
            Map<String, Object> usage = (Map<String, Object>) ((Map<String, Object>) reset.structuredContent()).get("usage");
            assertEquals(0, ((Number) usage.get("gasLeft")).longValue(), usage.toString());
            Map<String, Object> after = run(c, "1 + 1");
            assertEquals("gas", error(after).get("limit"), "a reset gives no gas back: " + after);
        }
    }

    @Test
    void docsDescribeTheSandbox() {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class))) {
            String docs = text(call(c, "lua_docs", Map.of()));
            assertTrue(docs.startsWith("# Lua sandbox"), docs);
            assertTrue(docs.contains("- `string`: ") && docs.contains("string.format"), docs);
            assertTrue(docs.contains("## This session") && docs.contains("gas left of 100000000"), docs);
            assertFalse(docs.contains("## Host functions"), docs);
        }
    }
}
