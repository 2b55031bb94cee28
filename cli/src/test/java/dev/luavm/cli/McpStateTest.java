package dev.luavm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25's "done when", third part: {@code luavm mcp --state DIR}, killed with SIGKILL between
 * two calls and started again, answers the next call with the session's globals intact; killed
 * during a call, it loses that call only; {@code lua_reset} discards the stored state.
 */
// a separate thread: a read from a silent server does not heed an interrupt, so the timeout fails
// the test from outside and endServers() then ends the server, which ends the read
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class McpStateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Every server this test started, ended below whatever happened to the test. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void endServers() throws InterruptedException {
        synchronized (started) {
            for (Process p : started) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            started.clear();
        }
    }

    /** One {@code luavm mcp --state DIR} process, spoken to by hand. */
    private final class Server implements AutoCloseable {
        final Process p;
        final OutputStream in;
        final BufferedReader out;
        int id = 1;

        Server(String... options) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xss8m", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "mcp", "--state",
                    dir.resolve("state").toString()));
            cmd.addAll(List.of(options));
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            synchronized (started) {
                started.add(p);
            }
            in = p.getOutputStream();
            out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"state-test\",\"version\":\"0\"}}}");
            answer(id++);
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        void send(String line) throws Exception {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        JsonNode answer(int want) throws Exception {
            String line = out.readLine();
            assertNotNull(line, "the server closed stdout");
            JsonNode n = JSON.readTree(line);
            assertEquals(want, n.get("id").asInt(), line);
            return n;
        }

        /** Calls a tool and returns its report. */
        JsonNode tool(String name, Map<String, Object> args) throws Exception {
            int n = id++;
            send(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", n, "method", "tools/call",
                    "params", Map.of("name", name, "arguments", args))));
            return JSON.readTree(answer(n).get("result").get("content").get(0).get("text").asText());
        }

        JsonNode run(String source) throws Exception {
            return tool("lua_run", Map.of("source", source));
        }

        /** SIGKILL: no shutdown hook, no flush, nothing. */
        void kill() throws Exception {
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        }

        @Override
        public void close() throws Exception {
            try {
                in.close();
            } finally {
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void killedBetweenCallsTheNextServerGoesOn() throws Exception {
        try (Server s = new Server()) {
            assertEquals(true, s.run("x = 41; words = {}; for w in ('a bc def'):gmatch('%a+') do words[#words + 1] = w end")
                    .get("ok").asBoolean());
            JsonNode r = s.run("gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i * 100) end end) return gen()");
            assertEquals(100, r.get("results").get(0).asInt(), r.toString());
            s.kill();
        }
        try (Server s = new Server()) {
            JsonNode r = s.run("return x + 1, #words, words[3], gen()");
            assertEquals("[42,3,\"def\",200]", r.get("results").toString(), r.toString());
            s.kill();
        }
        // killed during a call: that call is lost, the state before it stays
        try (Server s = new Server("--timeout", "60s", "--gas", "1000000000000000", "--session-gas", "10000000000000000")) {
            int n = s.id++;
            s.send(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", n, "method", "tools/call", "params",
                    Map.of("name", "lua_run", "arguments", Map.of("source", "x = 0 while true do end")))));
            Thread.sleep(500);
            s.kill();
        }
        try (Server s = new Server()) {
            JsonNode r = s.run("return x, gen()");
            assertEquals("[41,300]", r.get("results").toString(), r.toString());
            assertEquals(true, s.tool("lua_reset", Map.of()).get("ok").asBoolean());
            s.kill();
        }
        try (Server s = new Server()) {
            assertEquals("[true]", s.run("return x == nil").get("results").toString(), "lua_reset discarded the state");
        }
        assertTrue(Files.exists(dir.resolve("state").resolve("session.luavm")));
    }
}
