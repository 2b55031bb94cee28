package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.docs.HostDocs;

/**
 * What {@code lua_docs} answers: {@link HostDocs#markdown(Capabilities)} (libraries and host
 * functions, an upstream tool's input schema among them), then what only the MCP session knows:
 * how {@code lua_run} behaves and the session's limits.
 */
final class SandboxDocs {
    private SandboxDocs() {}

    static String markdown(Capabilities caps, Limits limits, long gasLeft) {
        return HostDocs.markdown(caps) + "\n## This session\n\n"
                + "Globals persist between `lua_run` calls; `lua_reset` starts afresh. An expression's value is "
                + "returned (`lua_run{source = \"1 + 1\"}` gives `results: [2]`); `print` output is captured.\n\n"
                + "Limits: " + limits.timeout().toMillis() + " ms, " + limits.outputBytes() + " bytes of output"
                + (limits.runGas() == Long.MAX_VALUE ? "" : " and " + limits.runGas() + " gas")
                + " per call; " + limits.memoryBytes() + " bytes of memory held. " + gasLine(limits, gasLeft)
                + " Calls run one at a time, in the order they arrive.\n";
    }

    /** The session budget in one sentence, in every {@code lua_docs} answer. */
    static String gasLine(Limits limits, long gasLeft) {
        return gasLeft + " gas left of " + limits.gas() + " for this session (all its calls, `lua_reset` included: "
                + "a reset gives none back and costs " + LuaMcpServer.RESET_GAS + ").";
    }
}
