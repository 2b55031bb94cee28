package dev.luavm.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.luavm.mcp.RawMcp.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Hostile frames, written by hand to one server subprocess: each gets the JSON-RPC answer it
 * deserves (or none, for what JSON-RPC never answers), and the same server answers the next
 * request. The cases share the server on purpose: that it still serves is the point.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a write blocked on a server that stopped reading fails, not hangs
class McpFramesTest {
    private RawMcp mcp;
    private int pings;

    @BeforeAll
    void start() throws Exception {
        mcp = RawMcp.initialized();
    }

    @AfterAll
    void stop() throws Exception {
        mcp.close();
    }

    /** The server still answers, and nothing else was written before the answer. */
    private void stillServing() throws Exception {
        String id = "alive-" + ++pings;
        mcp.send(ping(id));
        assertEquals("{}", mcp.answer(id).get("result").toString());
    }

    private JsonNode answerTo(String line) throws Exception {
        mcp.send(line);
        return mcp.next();
    }

    @Test
    void aLineThatIsNotJsonIsAParseError() throws Exception {
        JsonNode a = answerTo("hello, server");
        assertError(a, -32700, "Parse error");
        assertTrue(a.get("id").isNull(), a.toString());
        assertError(answerTo("{\"jsonrpc\": \"2.0\", 'id': 1}"), -32700, "Parse error");
        stillServing();
    }

    @Test
    void truncatedJsonIsAParseError() throws Exception {
        JsonNode a = answerTo("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"lua_r");
        assertError(a, -32700, "Parse error");
        assertTrue(a.get("id").isNull());
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"} {\"jsonrpc\":\"2.0\"}"), -32700,
                "Parse error"); // two values on one line
        stillServing();
    }

    @Test
    void batchArraysAreInvalidRequests() throws Exception {
        JsonNode a = answerTo("[" + ping(1) + "," + ping(2) + "]");
        assertError(a, -32600, "batch");
        assertTrue(a.get("id").isNull());
        assertError(answerTo("[]"), -32600, "batch");
        stillServing();
    }

    @Test
    void idsThatAreNeitherStringsNorIntegersAreInvalidRequests() throws Exception {
        for (String id : List.of("{\"a\":1}", "[1]", "true", "1.5", "1e3", "null")) {
            JsonNode a = answerTo("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            assertError(a, -32600, "id must be a string or an integer");
            assertTrue(a.get("id").isNull(), "the id could not be read, so the answer's is null: " + a);
        }
        // big integers and strings are ids
        mcp.send(ping(new java.math.BigInteger("123456789012345678901234567890")));
        assertEquals("123456789012345678901234567890", mcp.next().get("id").asText());
        mcp.send(ping(""));
        assertEquals("", mcp.next().get("id").asText());
        stillServing();
    }

    @Test
    void messagesThatAreNotObjectsOrLackTheVersionAreInvalidRequests() throws Exception {
        for (String line : List.of("42", "\"ping\"", "null", "true")) assertError(answerTo(line), -32600, "JSON object");
        JsonNode a = answerTo("{\"id\":7,\"method\":\"ping\"}");
        assertError(a, -32600, "\"jsonrpc\" must be \"2.0\"");
        assertEquals(7, a.get("id").asInt(), "the id was readable, so it is echoed");
        assertError(answerTo("{\"jsonrpc\":\"1.0\",\"id\":8,\"method\":\"ping\"}"), -32600, "\"2.0\"");
        assertError(answerTo("{\"jsonrpc\":2.0,\"id\":9,\"method\":\"ping\"}"), -32600, "\"2.0\"");
        stillServing();
    }

    @Test
    void aMissingOrWrongMethodIsAnInvalidRequest() throws Exception {
        JsonNode a = answerTo("{\"jsonrpc\":\"2.0\",\"id\":10}");
        assertError(a, -32600, "no method");
        assertEquals(10, a.get("id").asInt());
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":42}"), -32600, "method must be a string");
        JsonNode n = answerTo("{\"jsonrpc\":\"2.0\",\"method\":null}");
        assertError(n, -32600, "method must be a string");
        assertTrue(n.get("id").isNull(), "an invalid notification is answered too, with a null id");
        stillServing();
    }

    @Test
    void paramsThatAreNotAnObjectAreRefused() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/list\",\"params\":[1]}"), -32602, "object");
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/list\",\"params\":\"x\"}"), -32600, "object");
        // tools/call with params that do not make a call
        assertError(answerTo(request(14, "tools/call", Map.of("arguments", Map.of()))), -32602, "name");
        assertError(answerTo(request(15, "tools/call", Map.of("name", "lua_run", "arguments", List.of(1)))), -32602,
                "arguments must be an object");
        assertError(answerTo(request(16, "tools/call", Map.of("name", "lua_run", "arguments", Map.of("source", "1"),
                "_meta", Map.of("progressToken", Map.of())))), -32602, "progressToken");
        stillServing();
    }

    @Test
    void unknownMethodsAndUnknownToolsAreAnsweredAndServiceGoesOn() throws Exception {
        JsonNode a = answerTo(request(17, "resources/list", null));
        assertError(a, -32601, "Method not found");
        assertEquals(17, a.get("id").asInt());
        assertError(answerTo(request(18, "no/such/method", Map.of())), -32601, "no/such/method");
        JsonNode tool = answerTo(tool(19, "lua_nope"));
        assertEquals(19, tool.get("id").asInt());
        assertEquals(-32602, tool.at("/error/code").asInt(), tool.toString());
        stillServing();
    }

    @Test
    void aNotificationWithAnIdIsARequestForAnUnknownMethod() throws Exception {
        JsonNode a = answerTo("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"notifications/initialized\"}");
        assertError(a, -32601, "notifications/initialized");
        assertEquals(20, a.get("id").asInt());
        // a true notification of an unknown kind is never answered
        mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\",\"params\":{}}");
        stillServing();
    }

    @Test
    void responsesFromTheClientAreNotAnsweredUnlessMalformed() throws Exception {
        mcp.send("{\"jsonrpc\":\"2.0\",\"id\":\"nobody-asked\",\"result\":{}}");
        mcp.send("{\"jsonrpc\":\"2.0\",\"id\":21,\"error\":{\"code\":-1,\"message\":\"no\"}}");
        stillServing(); // neither was answered: the ping's answer comes first
        JsonNode both = answerTo("{\"jsonrpc\":\"2.0\",\"id\":22,\"result\":{},\"error\":{\"code\":1,\"message\":\"x\"}}");
        assertError(both, -32600, "exactly one of result and error");
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"result\":{}}"), -32600, "needs an id");
        stillServing();
    }

    @Test
    void duplicateKeysAndBadUtf8AreRefused() throws Exception {
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":23,\"id\":24,\"method\":\"ping\"}"), -32600, "Duplicate field");
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        bad.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":25,\"method\":\"ping\",\"params\":{\"x\":\"".getBytes(StandardCharsets.UTF_8));
        bad.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe});
        bad.writeBytes("\"}}\n".getBytes(StandardCharsets.UTF_8));
        mcp.sendBytes(bad.toByteArray());
        assertError(mcp.next(), -32700, "Parse error");
        stillServing();
    }

    @Test
    void aHugeLineIsDroppedAnsweredAndReadingGoesOn() throws Exception {
        // a little over the default bound (16 MiB): a lua_run whose source would be huge
        byte[] filler = new byte[LuaMcpServer.DEFAULT_MAX_MESSAGE_BYTES + 1000];
        Arrays.fill(filler, (byte) 'a');
        String head = "{\"jsonrpc\":\"2.0\",\"id\":26,\"method\":\"tools/call\",\"params\":{\"name\":\"lua_run\","
                + "\"arguments\":{\"source\":\"";
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        line.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        line.writeBytes(filler);
        line.writeBytes("\"}}}\n".getBytes(StandardCharsets.UTF_8));
        mcp.sendBytes(line.toByteArray());
        JsonNode a = mcp.next();
        assertError(a, -32600, "at most " + LuaMcpServer.DEFAULT_MAX_MESSAGE_BYTES + " bytes");
        assertTrue(a.get("id").isNull(), "the line was not read, so neither was its id");
        // a huge line that is not JSON at all, and one without any newline for a long while
        mcp.sendBytes(filler);
        mcp.sendBytes(filler);
        mcp.sendBytes("\n".getBytes(StandardCharsets.UTF_8));
        assertError(mcp.next(), -32600, "this line held " + (2L * filler.length));
        mcp.send(run(27, "return 40 + 2"));
        assertEquals("[42]", report(mcp.answer(27)).get("results").toString());
    }

    @Test
    void deepNestingAndEndlessNumbersAreParseErrors() throws Exception {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":29,\"method\":\"tools/call\",\"params\":{\"name\":\"lua_run\","
                + "\"arguments\":{\"source\":\"1\",\"x\":" + deep + "}}}"), -32700, "Parse error");
        assertError(answerTo("{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(100_000) + ",\"method\":\"ping\"}"), -32700,
                "Parse error");
        stillServing();
    }

    @Test
    void blankLinesAndCrLfAreFraming() throws Exception {
        mcp.sendBytes(("\n\r\n   \n" + ping("crlf") + "\r\n").getBytes(StandardCharsets.UTF_8));
        assertEquals("{}", mcp.answer("crlf").get("result").toString());
    }

    @Test
    void aSecondInitializeIsRefused() throws Exception {
        assertError(answerTo(INITIALIZE.replace("\"init\"", "\"init2\"")), -32600, "already initialized");
        stillServing();
    }

    @Test
    void badToolArgumentsAreAToolErrorNotAProtocolError() throws Exception {
        JsonNode a = answerTo(request(28, "tools/call", Map.of("name", "lua_run", "arguments", Map.of("source", 5))));
        assertEquals(28, a.get("id").asInt());
        assertTrue(a.at("/result/isError").asBoolean(), a.toString());
        stillServing();
    }
}
