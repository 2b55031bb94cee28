package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.Safety;
import io.modelcontextprotocol.client.McpSyncClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.luavm.Limits;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.luavm.mcp.McpTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/** Code mode: an upstream MCP server (written with the SDK, run as a subprocess) granted as Lua functions. */
class CodeModeTest {
    private static LuaMcpServer server;
    private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();

    @BeforeAll
    static void connect() {
        server = LuaMcpServer.builder()
                .log(new PrintStream(LOG, true))
                .upstream("up", javaCommand(FakeUpstream.class))
                .build();
    }

    @AfterAll
    static void disconnect() {
        server.close();
    }

    private static Sandbox sandbox(HostCallPolicy policy, MemoryAuditSink audit) {
        return LuaVM.create().sandbox().capabilities(server.capabilities()).policy(policy).audit(audit).build();
    }

    @Test
    void everyToolIsAGrantedFunctionWithItsDescriptionAndSchema() {
        Map<String, Capabilities.Grant> grants = server.capabilities().hostFunctions();
        assertEquals(List.of("up.add", "up.echo", "up.greet_user", "up.fail", "up.sleep", "up.cancels", "up.calls"),
                List.copyOf(grants.keySet()));
        Capabilities.Grant add = grants.get("up.add");
        assertEquals("Add two integers. Returns {sum}.", add.description());
        assertEquals(Safety.UNSAFE, add.safety());
        assertEquals(List.of("mcp:up"), add.effects());
        assertEquals("table", add.params().get(0).type(), "required properties: the table is required");
        assertTrue(add.params().get(0).description().contains("\"required\":[\"a\",\"b\"]"), add.params().get(0).description());
        assertEquals("table?", grants.get("up.greet_user").params().get(0).type());
        String docs = SandboxDocs.markdown(server.capabilities(), dev.luavm.Limits.defaults(), 1);
        assertTrue(docs.contains("up.add(") && docs.contains("Add two integers") && docs.contains("up.add{a = ..., b = ...}"), docs);
        assertTrue(LOG.toString().contains("upstream up: 7 tools"), LOG.toString());
    }

    @Test
    void aScriptChainsManyUpstreamCallsInOneRun() {
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), new MemoryAuditSink())) {
            Object total = sb.eval("""
                    local total = 0
                    for i = 1, 10 do total = up.add{a = total, b = i}.sum end
                    return total
                    """);
            assertEquals(55L, total);
            assertEquals("hello, ann", sb.eval("return up.greet_user{name = 'ann'}"));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void argumentsAndResultsKeepArraysObjectsIntegersAndFloats() throws Exception {
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), new MemoryAuditSink())) {
            Map<String, Object> r = (Map<String, Object>) sb.eval(
                    "return up.echo{list = {}, tags = {'x', nil, 'z'}, obj = {}, i = 3, f = 3.0, s = 'é'}");
            Map<String, Object> sent = JSON.readValue((String) r.get("json"), Map.class);
            assertEquals(List.of(), sent.get("list"), "an empty table where the schema wants an array is []");
            assertEquals(java.util.Arrays.asList("x", null, "z"), sent.get("tags"), "holes are nulls in an array");
            assertEquals(Map.of(), sent.get("obj"), "an empty table elsewhere is {}");
            String raw = (String) r.get("json");
            assertTrue(raw.contains("\"i\":3") && raw.contains("\"f\":3.0"), raw);
            assertEquals("é", sent.get("s"));
            // results: JSON integers are Lua integers, JSON floats Lua floats
            assertEquals("float integer integer", sb.eval(
                    "local r = up.echo{} return math.type(r.float) .. ' ' .. math.type(r.int) .. ' ' .. math.type(r.big)"));
            assertEquals(12345678901234L, sb.eval("return up.echo{}.big"));
            assertEquals(2.5, sb.eval("return up.echo{}.nested[1].k[2]"));
        }
    }

    @Test
    void badArgumentsAndToolErrorsAreLuaErrors() {
        try (Sandbox sb = sandbox(HostCallPolicy.allowAll(), new MemoryAuditSink())) {
            assertEquals("up.fail: it broke", sb.eval("local ok, err = pcall(up.fail) assert(not ok) return err"));
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("t.lua", "up.add('x')"));
            assertTrue(e.getMessage().contains("bad argument #1 to 'up.add' (table expected, got string)"), e.getMessage());
            e = assertThrows(LuaScriptException.class, () -> sb.eval("t.lua", "up.echo{f = 0/0}"));
            assertTrue(e.getMessage().contains("cannot encode nan as JSON"), e.getMessage());
            e = assertThrows(LuaScriptException.class, () -> sb.eval("t.lua", "up.echo{1, 2}"));
            assertTrue(e.getMessage().contains("table of named arguments expected"), e.getMessage());
        }
    }

    @Test
    void everyCallGoesThroughThePolicyAndTheAuditLog() {
        MemoryAuditSink audit = new MemoryAuditSink();
        HostCallPolicy noAdds = request -> request.name().equals("up.add")
                ? HostCallPolicy.Decision.deny("adding is not allowed") : HostCallPolicy.Decision.allow("ok");
        try (Sandbox sb = sandbox(noAdds, audit)) {
            long before = ((Number) sb.eval("return up.calls().calls")).longValue();
            Object r = sb.eval("t.lua", "local ok, err = pcall(up.add, {a = 1, b = 2}) return err");
            assertEquals("permission denied: up.add: adding is not allowed", r);
            long after = ((Number) sb.eval("return up.calls().calls")).longValue();
            assertEquals(before, after, "a denied call never reaches the upstream");
            sb.eval("return up.greet_user{name = 'bo'}");
        }
        List<HostCallEvent> calls = audit.events().stream().filter(e -> e instanceof HostCallEvent)
                .map(e -> (HostCallEvent) e).toList();
        assertEquals(List.of("up.calls", "up.add", "up.calls", "up.greet_user"),
                calls.stream().map(HostCallEvent::function).toList());
        assertEquals("DENIED", calls.get(1).verdict().name());
        assertEquals("ALLOWED", calls.get(3).verdict().name());
    }

    @Test
    void lua_runChainsUpstreamCallsEndToEnd() throws Exception {
        try (McpSyncClient c = client(javaCommand(TestServerMain.class, "--upstream", upstreamSpec()))) {
            Map<String, Object> r = run(c, "local s = 0 for i = 1, 5 do s = up.add{a = s, b = i}.sum end return s");
            assertEquals(List.of(15), r.get("results"), r.toString());
            assertTrue(text(call(c, "lua_docs", Map.of())).contains("up.greet_user"));
            String one = text(call(c, "lua_docs", Map.of("name", "up.add")));
            assertTrue(one.contains("Add two integers") && !one.contains("greet"), one);
            assertTrue(call(c, "lua_docs", Map.of("name", "nope")).isError());
        }
    }

    @Test
    void aHangingUpstreamCallIsACatchableErrorAndTheRunGoesOn() throws Exception {
        // the call waits 2.7 s (90%), leaving the script 0.3 s to go on
        Limits threeSeconds = Limits.defaults().withTimeout(Duration.ofSeconds(3));
        try (LuaMcpServer quick = LuaMcpServer.builder().log(new PrintStream(new ByteArrayOutputStream()))
                .limits(threeSeconds).upstream("up", javaCommand(FakeUpstream.class)).build();
             LuaSession session = new LuaSession(LuaVM.create(), quick.capabilities(), threeSeconds, "t")) {
            Map<String, Object> r = session.run("local ok, err = pcall(up.sleep) return ok, err, 'went on'");
            assertEquals(true, r.get("ok"), "the run was not ended by its time limit: " + r);
            List<?> results = (List<?>) r.get("results");
            assertEquals(false, results.get(0));
            assertTrue(((String) results.get(1)).endsWith("up.sleep: no answer within the call's time limit"), r.toString());
            assertEquals("went on", results.get(2));
            assertEquals(List.of(2L), session.run("1 + 1").get("results"), "the session goes on");
        }
    }

    @Test
    void theUpstreamTimeoutBoundsEachToolCall() throws Exception {
        // a minute per run: without its own bound, a tool call would wait 54 s (90% of it)
        Limits aMinute = Limits.defaults().withTimeout(Duration.ofSeconds(60));
        try (LuaMcpServer quick = LuaMcpServer.builder().log(new PrintStream(new ByteArrayOutputStream())).limits(aMinute)
                .upstreamTimeout(Duration.ofSeconds(5)).upstream("up", javaCommand(FakeUpstream.class)).build();
             Sandbox sb = LuaVM.create().sandbox().capabilities(quick.capabilities()).limits(aMinute).build()) {
            long start = System.nanoTime();
            Object err = sb.eval("local ok, err = pcall(up.sleep) return err");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(String.valueOf(err).endsWith("up.sleep: no answer within the call's time limit"), String.valueOf(err));
            assertTrue(ms < 40_000, "bounded by the upstream timeout, not by 90% of the run's minute: " + ms + " ms");
            assertEquals(5L, sb.eval("return up.add{a = 2, b = 3}.sum"), "the upstream still serves");
            assertEquals(1L, sb.eval("return up.cancels().cancels"), "the abandoned call was cancelled upstream");
        }
    }

    @Test
    void anUpstreamThatExitedFailsItsCallsAtOnce() throws Exception {
        try (LuaMcpServer server = LuaMcpServer.builder().log(new PrintStream(new ByteArrayOutputStream()))
                .upstream("up", javaCommand(FakeUpstream.class)).build();
             Sandbox sb = LuaVM.create().sandbox().capabilities(server.capabilities()).build()) {
            assertEquals(3L, sb.eval("return up.add{a = 1, b = 2}.sum"));
            ProcessHandle upstream = server.upstreamProcesses().get(0);
            upstream.destroyForcibly();
            upstream.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            Object err = sb.eval("local ok, err = pcall(up.add, {a = 1, b = 2}) return err");
            assertTrue(String.valueOf(err).contains("up.add: the upstream server up has exited"), String.valueOf(err));
        }
    }

    @Test
    void anUpstreamThatPrintsABannerOnStdoutStillServes() {
        try (LuaMcpServer server = LuaMcpServer.builder().log(new PrintStream(LOG, true))
                .upstream("up", javaCommand(FakeUpstream.class, "--banner")).build();
             Sandbox sb = LuaVM.create().sandbox().capabilities(server.capabilities()).build()) {
            assertEquals(3L, sb.eval("return up.add{a = 1, b = 2}.sum"));
            assertTrue(LOG.toString().contains("not a JSON-RPC message on stdout, skipped: fake upstream 1.0"), LOG.toString());
        }
    }

    @Test
    void closingTheServerEndsTheUpstreamProcesses() throws Exception {
        List<ProcessHandle> processes;
        try (LuaMcpServer server = LuaMcpServer.builder().log(new PrintStream(new ByteArrayOutputStream()))
                .upstream("up", javaCommand(FakeUpstream.class, "--stubborn")).build()) {
            processes = server.upstreamProcesses();
            assertTrue(processes.get(0).isAlive());
        }
        processes.get(0).onExit().get(10, java.util.concurrent.TimeUnit.SECONDS); // stdin closed, SIGTERM ignored: SIGKILL
        assertFalse(processes.get(0).isAlive());
    }
}
