package dev.luavm.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.luavm.mcp.RawMcp.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * One session over a real subprocess, in lines written by hand: the lifecycle, the order of
 * calls, the end of input, cancellation, progress and the session's gas budget.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a write blocked on a server that stopped reading fails, not hangs
class McpSessionTest {
    /** Gas per call that a loop does not spend before its time limit. */
    private static final String ENDLESS = "1000000000000";

    @Test
    void requestsBeforeInitializeAreRefusedAndPingIsAlwaysAnswered() throws Exception {
        try (RawMcp mcp = RawMcp.start()) {
            mcp.send(run(1, "return 1"));
            assertError(mcp.answer(1), -32600, "not initialized: send initialize first");
            mcp.send(request(2, "tools/list", null));
            assertError(mcp.answer(2), -32600, "not initialized");
            mcp.send(ping(3));
            assertEquals("{}", mcp.answer(3).get("result").toString());
            mcp.send(INITIALIZED); // before initialize: ignored
            mcp.send(request(4, "initialize", Map.of("protocolVersion", "2025-06-18")));
            assertError(mcp.answer(4), -32602, "capabilities");

            mcp.send(INITIALIZE);
            assertEquals("luavm", mcp.answer("init").at("/result/serverInfo/name").asText());
            mcp.send(run(5, "return 1"));
            assertError(mcp.answer(5), -32600, "send notifications/initialized first");
            mcp.send(INITIALIZED);
            mcp.send(run(6, "return 1"));
            assertEquals("[1]", report(mcp.answer(6)).get("results").toString());
        }
    }

    @Test
    void aPipelinedSessionIsAnsweredInOrderAndEndsAtEndOfInput() throws Exception {
        try (RawMcp mcp = RawMcp.start()) {
            mcp.send(String.join("\n", INITIALIZE, INITIALIZED, request(1, "tools/list", null), run(2, "x = 6"),
                    run(3, "x * 7")));
            mcp.closeStdin();
            mcp.answer("init");
            assertEquals(3, mcp.answer(1).at("/result/tools").size());
            mcp.answer(2);
            assertEquals("[42]", report(mcp.answer(3)).get("results").toString());
            mcp.expectEndOfOutput(Duration.ofSeconds(30));
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, mcp.process.exitValue());
        }
    }

    @Test
    void callsRunOneAtATimeInArrivalOrderWhateverThreadsWrite() throws Exception {
        try (RawMcp mcp = RawMcp.initialized()) {
            int writers = 4;
            int each = 25;
            List<Integer> written = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int base = w * 1000;
                Thread t = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        int id = base + i;
                        // a call that takes longer the earlier it is written, so that running
                        // calls side by side would finish them out of order
                        String line = run(id, "for i = 1, " + (20_000 * ((id % 7) + 1)) + " do end n = (n or 0) + 1 return n");
                        synchronized (written) {
                            try {
                                mcp.send(line);
                            } catch (java.io.IOException e) {
                                throw new IllegalStateException(e);
                            }
                            written.add(id);
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) t.join();
            Map<Integer, JsonNode> reports = new HashMap<>();
            List<Integer> answered = new ArrayList<>();
            for (int i = 0; i < writers * each; i++) {
                JsonNode a = mcp.next();
                answered.add(a.get("id").asInt());
                reports.put(a.get("id").asInt(), report(a));
            }
            assertEquals(written, answered, "answered in the order written");
            long gasLeft = Long.MAX_VALUE;
            for (int k = 0; k < written.size(); k++) {
                JsonNode r = reports.get(written.get(k));
                assertEquals("[" + (k + 1) + "]", r.get("results").toString(), "the " + (k + 1) + "th call to arrive "
                        + "ran " + (k + 1) + "th: " + r);
                long left = r.at("/usage/gasLeft").asLong();
                assertTrue(left < gasLeft, "gasLeft falls with every call: " + left + " after " + gasLeft);
                gasLeft = left;
            }
        }
    }

    @Test
    void atEndOfInputCallsQueuedBehindALongOneAreStillAnsweredEachWithinItsOwnLimit() throws Exception {
        try (RawMcp mcp = RawMcp.initialized("--timeout", "1500", "--gas", ENDLESS)) {
            long start = System.nanoTime();
            mcp.send(run(1, "while true do end"));
            mcp.send(run(2, "while true do end"));
            mcp.send(run(3, "return 'third'"));
            mcp.closeStdin();
            JsonNode first = report(mcp.answer(1));
            assertEquals("time", first.at("/error/limit").asText(), first.toString());
            JsonNode second = report(mcp.answer(2));
            assertEquals("time", second.at("/error/limit").asText(), "the second call had its own 1.5 s: " + second);
            assertEquals("[\"third\"]", report(mcp.answer(3)).get("results").toString());
            mcp.expectEndOfOutput(Duration.ofSeconds(10));
            assertTrue(mcp.process.waitFor(10, TimeUnit.SECONDS), "ends promptly once all is answered");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 3000, "each looping call ran its own time limit: " + ms + " ms");
            assertEquals(0, mcp.process.exitValue());
        }
    }

    @Test
    void aTruncatedLastLineAtEndOfInputIsAnsweredAsAParseError() throws Exception {
        try (RawMcp mcp = RawMcp.initialized()) {
            mcp.sendBytes((run(1, "return 1") + "\n{\"jsonrpc\":\"2.0\",\"id\":2,\"meth").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            mcp.closeStdin();
            // protocol errors are answered as soon as read; only tool calls wait their turn
            JsonNode a = mcp.next();
            JsonNode b = mcp.next();
            JsonNode call = a.has("result") ? a : b;
            assertEquals("[1]", report(call).get("results").toString());
            assertError(a.has("result") ? b : a, -32700, "Parse error");
            mcp.expectEndOfOutput(Duration.ofSeconds(10));
            assertTrue(mcp.process.waitFor(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aDuplicateIdIsRefusedWhileTheFirstRequestIsInProgress() throws Exception {
        try (RawMcp mcp = RawMcp.initialized("--timeout", "2000", "--gas", ENDLESS)) {
            mcp.send(run(7, "while true do end"));
            mcp.send(run(7, "return 'again'"));
            JsonNode dup = mcp.next(); // answered at once, before the first call ends
            assertError(dup, -32600, "still in progress");
            assertEquals(7, dup.get("id").asInt());
            JsonNode first = report(mcp.answer(7));
            assertEquals("time", first.at("/error/limit").asText(), "the first one went on: " + first);
            mcp.send(run(7, "return 'reused'"));
            JsonNode reused = report(mcp.answer(7));
            assertEquals("[\"reused\"]", String.valueOf(reused.get("results")), "an answered id may be reused: " + reused);
        }
    }

    @Test
    void cancellingTheRunningCallEndsItsRunAndItIsNotAnswered() throws Exception {
        try (RawMcp mcp = RawMcp.initialized("--timeout", "60000", "--gas", ENDLESS)) {
            mcp.send(run(1, "while true do end"));
            mcp.send(run(2, "return 2"));
            Thread.sleep(500); // most likely running by now; if not, the cancel stops it before its start
            long start = System.nanoTime();
            mcp.send(cancel(1));
            JsonNode next = mcp.next(Duration.ofSeconds(40));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(2, next.get("id").asInt(), "no answer for the cancelled call, as the MCP spec asks: " + next);
            assertEquals("[2]", report(next).get("results").toString());
            assertTrue(ms < 40_000, "the cancel ended call 1, long before its 60 s time limit: " + ms + " ms");
            mcp.send(cancel(1)); // finished: ignored
            mcp.send(cancel("never-sent"));
            mcp.send(cancel("init")); // initialize is never cancelled
            mcp.send(run(3, "return 3"));
            assertEquals("[3]", report(mcp.answer(3)).get("results").toString(), "a stale cancel stops no later call");
        }
    }

    @Test
    void cancellingAQueuedCallDropsItUnrun() throws Exception {
        try (RawMcp mcp = RawMcp.initialized("--timeout", "1500", "--gas", ENDLESS)) {
            mcp.send(run(1, "while true do end"));
            mcp.send(run(2, "ran = true"));
            mcp.send(cancel(2));
            mcp.send(run(3, "return ran"));
            assertEquals("time", report(mcp.answer(1)).at("/error/limit").asText());
            JsonNode third = mcp.next();
            assertEquals(3, third.get("id").asInt(), "call 2 was never answered: " + third);
            assertEquals("[null]", report(third).get("results").toString(), "call 2 never ran");
        }
    }

    @Test
    void aLongCallSendsProgressWhenAskedAndOnlyThen() throws Exception {
        try (RawMcp mcp = RawMcp.initialized("--timeout", "1200", "--progress-ms", "200", "--gas", ENDLESS)) {
            mcp.send(runWithProgress(1, "while true do end", "tok-1"));
            List<JsonNode> progress = new ArrayList<>();
            JsonNode m;
            while (!(m = mcp.next()).has("id")) {
                assertEquals("notifications/progress", m.get("method").asText(), m.toString());
                progress.add(m.get("params"));
            }
            assertEquals(1, m.get("id").asInt());
            assertEquals("time", report(m).at("/error/limit").asText());
            assertTrue(progress.size() >= 2, "a 1.2 s call at 200 ms: " + progress);
            double last = -1;
            for (JsonNode p : progress) {
                assertEquals("tok-1", p.get("progressToken").asText());
                assertTrue(p.get("progress").asDouble() > last, "progress increases: " + progress);
                last = p.get("progress").asDouble();
                assertEquals(1200, p.get("total").asInt(), p.toString());
                assertTrue(p.get("message").asText().contains("time limit"), p.toString());
            }
            mcp.send(runWithProgress(2, "while true do end", 42));
            m = mcp.next();
            assertEquals(42, m.at("/params/progressToken").asInt(), "an integer token is echoed as one: " + m);
            while (!mcp.next().has("id")) { /* to the answer */ }
            mcp.send(run(3, "while true do end"));
            assertEquals(3, mcp.next().get("id").asInt(), "no token, no progress");
        }
    }

    @Test
    void theSessionGasBudgetCoversResetsAndEveryResultTellsWhatIsLeft() throws Exception {
        long session = 5_000_000;
        try (RawMcp mcp = RawMcp.initialized("--session-gas", "" + session, "--gas", "2000000")) {
            mcp.send(run(1, "while true do end"));
            JsonNode first = report(mcp.answer(1));
            assertEquals("gas", first.at("/error/limit").asText());
            assertTrue(first.at("/error/message").asText().contains("this call's gas"), first.toString());
            long left = first.at("/usage/gasLeft").asLong();
            assertEquals(session - first.at("/usage/gas").asLong(), left, first.toString());

            mcp.send(tool(2, "lua_reset"));
            JsonNode resetAnswer = mcp.answer(2);
            assertFalse(resetAnswer.at("/result/isError").asBoolean(), resetAnswer.toString());
            JsonNode reset = report(resetAnswer);
            assertEquals(LuaMcpServer.RESET_GAS, reset.at("/usage/gas").asLong(), "the reset's own cost: " + reset);
            assertEquals(left - LuaMcpServer.RESET_GAS, reset.at("/usage/gasLeft").asLong(), "a reset gives nothing back");
            assertEquals(reset, resetAnswer.at("/result/structuredContent"));
            left = reset.at("/usage/gasLeft").asLong();

            mcp.send(tool(3, "lua_docs"));
            String docs = mcp.answer(3).at("/result/content/0/text").asText();
            assertTrue(docs.contains(left + " gas left of " + session + " for this session"), docs);

            for (int id = 4; left > 0; id += 2) { // spend the rest, resetting in between
                mcp.send(run(id, "while true do end"));
                JsonNode r = report(mcp.answer(id));
                assertEquals("gas", r.at("/error/limit").asText(), r.toString());
                left = r.at("/usage/gasLeft").asLong();
                if (left == 0) {
                    assertTrue(r.at("/error/message").asText().contains("the session's gas budget is spent"), r.toString());
                    break;
                }
                mcp.send(tool(id + 1, "lua_reset"));
                left = report(mcp.answer(id + 1)).at("/usage/gasLeft").asLong();
                assertTrue(id < 20, "the budget must run out");
            }
            mcp.send(tool(100, "lua_reset"));
            JsonNode spentReset = report(mcp.answer(100));
            assertEquals(true, spentReset.get("ok").asBoolean(), "a reset still answers: " + spentReset);
            assertEquals(0, spentReset.at("/usage/gas").asLong());
            assertEquals(0, spentReset.at("/usage/gasLeft").asLong());
            mcp.send(run(101, "return 1 + 1"));
            JsonNode after = report(mcp.answer(101));
            assertEquals("gas", after.at("/error/limit").asText(), "every call ends with the gas limit: " + after);
            assertEquals(0, after.at("/usage/gasLeft").asLong());
            assertTrue(after.at("/error/message").asText().contains("lua_reset included"), after.toString());
        }
    }
}
