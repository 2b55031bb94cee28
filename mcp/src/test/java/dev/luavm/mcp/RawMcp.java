package dev.luavm.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The server ({@link TestServerMain}) as a real subprocess, spoken to in lines written by hand:
 * what a careless or hostile client sends. Every stdout line must be one JSON-RPC message; stderr
 * is kept for failure messages. {@link #close()} kills the process and everything it started.
 */
final class RawMcp implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"by-hand\",\"version\":\"0\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final JsonNode END = JSON.getNodeFactory().textNode("<end of stdout>");

    final Process process;
    private final OutputStream in;
    private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    private final StringBuffer stderr = new StringBuffer();
    private final List<ProcessHandle> family = new ArrayList<>();

    private RawMcp(Process process) {
        this.process = process;
        this.in = process.getOutputStream();
        Thread out = new Thread(() -> readStdout(process.getInputStream()), "raw-mcp-stdout");
        out.setDaemon(true);
        out.start();
        Thread err = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) stderr.append(line).append('\n');
            } catch (IOException ignored) {
                // the process is gone
            }
        }, "raw-mcp-stderr");
        err.setDaemon(true);
        err.start();
    }

    /** {@code java -cp <test class path> TestServerMain args...}. */
    static RawMcp start(String... args) throws IOException {
        return new RawMcp(new ProcessBuilder(McpTestSupport.javaCommand(TestServerMain.class, args)).start());
    }

    /** Started and initialized: initialize answered, notifications/initialized sent. */
    static RawMcp initialized(String... args) throws Exception {
        RawMcp m = start(args);
        m.send(INITIALIZE);
        JsonNode init = m.answer("init");
        assertEquals("luavm", init.at("/result/serverInfo/name").asText(), init.toString());
        m.send(INITIALIZED);
        return m;
    }

    private void readStdout(InputStream stdout) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                try {
                    messages.add(JSON.readTree(line));
                } catch (IOException e) {
                    messages.add(JSON.getNodeFactory().textNode("<not JSON on stdout: " + line + ">"));
                }
            }
        } catch (IOException ignored) {
            // the process is gone
        } finally {
            messages.add(END);
        }
    }

    void send(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    synchronized void sendBytes(byte[] bytes) throws IOException {
        in.write(bytes);
        in.flush();
    }

    void closeStdin() throws IOException {
        in.close();
    }

    /** The next message within {@code within}; fails when none comes or stdout ends. */
    JsonNode next(Duration within) throws InterruptedException {
        JsonNode n = messages.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        assertNotNull(n, "no message within " + within + "; stderr:\n" + stderr);
        assertNotSame(END, n, "stdout ended; stderr:\n" + stderr);
        assertTrue(n.isObject(), "every stdout line is a JSON-RPC message: " + n);
        assertEquals("2.0", n.path("jsonrpc").asText(), n.toString());
        return n;
    }

    JsonNode next() throws InterruptedException {
        return next(Duration.ofSeconds(30));
    }

    /** The next message, which must be the answer to {@code id} (a string or a number). */
    JsonNode answer(Object id) throws InterruptedException {
        JsonNode n = next();
        assertEquals(JSON.valueToTree(id), n.get("id"), "expected the answer to " + id + ", got " + n);
        return n;
    }

    /** Nothing on stdout for {@code d}. */
    void expectSilence(Duration d) throws InterruptedException {
        JsonNode n = messages.poll(d.toMillis(), TimeUnit.MILLISECONDS);
        assertNull(n, "expected no message, got " + n);
    }

    /** stdout has ended (after the answers read so far). */
    void expectEndOfOutput(Duration within) throws InterruptedException {
        JsonNode n = messages.poll(within.toMillis(), TimeUnit.MILLISECONDS);
        assertSame(END, n, "expected the end of stdout, got " + n);
    }

    String stderr() {
        return stderr.toString();
    }

    /** The processes the server started (its upstreams), noted so that {@link #close()} ends them too. */
    List<ProcessHandle> children() {
        List<ProcessHandle> c = process.toHandle().descendants().toList();
        synchronized (family) {
            family.addAll(c);
        }
        return c;
    }

    @Override
    public void close() throws InterruptedException {
        children();
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        synchronized (family) {
            for (ProcessHandle h : family) h.destroyForcibly();
        }
    }

    // ------------------------------------------------------------------ frames

    static String request(Object id, String method, Map<String, Object> params) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("jsonrpc", "2.0");
        m.put("id", id);
        m.put("method", method);
        if (params != null) m.put("params", params);
        return json(m);
    }

    static String ping(Object id) {
        return request(id, "ping", null);
    }

    static String run(Object id, String source) {
        return request(id, "tools/call", Map.of("name", "lua_run", "arguments", Map.of("source", source)));
    }

    static String runWithProgress(Object id, String source, Object token) {
        return request(id, "tools/call", Map.of("name", "lua_run", "arguments", Map.of("source", source),
                "_meta", Map.of("progressToken", token)));
    }

    static String tool(Object id, String name) {
        return request(id, "tools/call", Map.of("name", name, "arguments", Map.of()));
    }

    static String cancel(Object id) {
        return json(Map.of("jsonrpc", "2.0", "method", "notifications/cancelled",
                "params", Map.of("requestId", id, "reason", "the user gave up")));
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** lua_run's (or lua_reset's) report, from a tools/call answer. */
    static JsonNode report(JsonNode answer) {
        try {
            return JSON.readTree(answer.at("/result/content/0/text").asText());
        } catch (IOException e) {
            throw new AssertionError("no report in " + answer, e);
        }
    }

    static void assertError(JsonNode answer, int code, String messagePart) {
        assertEquals(code, answer.at("/error/code").asInt(), answer.toString());
        assertTrue(answer.at("/error/message").asText().contains(messagePart),
                "'" + messagePart + "' not in " + answer);
    }
}
