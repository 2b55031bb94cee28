package dev.luavm.mcp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.luavm.mcp.McpTestSupport.upstreamSpec;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Upstream servers are child processes of the MCP server: they end when it ends, however it ends
 * (end of input, SIGTERM, SIGKILL), including an upstream that ignores both the end of its input
 * and SIGTERM, when the server ends by itself or by SIGTERM.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a write blocked on a server that stopped reading fails, not hangs
class UpstreamProcessesTest {

    /** The server, initialized, with one upstream; and that upstream's process. */
    private static RawMcp serverWithUpstream(String... fakeUpstreamArgs) throws Exception {
        RawMcp mcp = RawMcp.initialized("--upstream", upstreamSpec(fakeUpstreamArgs));
        return mcp;
    }

    private static List<ProcessHandle> upstreams(RawMcp mcp) {
        List<ProcessHandle> kids = mcp.children();
        assertFalse(kids.isEmpty(), "the upstream runs under the server");
        assertTrue(kids.stream().allMatch(ProcessHandle::isAlive));
        return kids;
    }

    private static void assertAllEnd(List<ProcessHandle> processes, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        for (ProcessHandle h : processes) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            try {
                h.onExit().get(left, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                fail("process " + h.pid() + " (" + h.info().commandLine().orElse("?") + ") still runs after " + within);
            }
        }
    }

    @Test
    void upstreamsEndWhenTheServerEndsAtEndOfInput() throws Exception {
        try (RawMcp mcp = serverWithUpstream()) {
            List<ProcessHandle> kids = upstreams(mcp);
            mcp.closeStdin();
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, mcp.process.exitValue());
            assertAllEnd(kids, Duration.ofSeconds(10));
        }
    }

    @Test
    void anUpstreamIgnoringItsInputAndSigtermIsKilledWhenTheServerEnds() throws Exception {
        try (RawMcp mcp = serverWithUpstream("--stubborn")) {
            List<ProcessHandle> kids = upstreams(mcp);
            mcp.closeStdin();
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertAllEnd(kids, Duration.ofSeconds(10));
        }
    }

    @Test
    void upstreamsEndWhenTheServerGetsSigterm() throws Exception {
        try (RawMcp mcp = serverWithUpstream()) {
            List<ProcessHandle> kids = upstreams(mcp);
            mcp.process.destroy(); // SIGTERM
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertAllEnd(kids, Duration.ofSeconds(10));
        }
    }

    @Test
    void anUpstreamIgnoringSigtermIsKilledWhenTheServerGetsSigterm() throws Exception {
        try (RawMcp mcp = serverWithUpstream("--stubborn")) {
            List<ProcessHandle> kids = upstreams(mcp);
            mcp.process.destroy();
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertAllEnd(kids, Duration.ofSeconds(10));
        }
    }

    @Test
    void upstreamsEndWhenTheServerIsKilledOutright() throws Exception {
        try (RawMcp mcp = serverWithUpstream()) {
            List<ProcessHandle> kids = upstreams(mcp);
            mcp.process.destroyForcibly(); // SIGKILL: nothing of the server runs; the upstream reads the end of its stdin
            assertTrue(mcp.process.waitFor(30, TimeUnit.SECONDS));
            assertAllEnd(kids, Duration.ofSeconds(10));
        }
    }
}
