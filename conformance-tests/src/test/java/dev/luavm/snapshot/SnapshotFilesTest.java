package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.vfs.Vfs;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * File handles across a snapshot: the standard streams are re-bound to the restoring host's, a
 * file of the file system comes back closed (a run's end closes every file, and closed handles
 * linger in variables and finalizer lists), and a run paused while it holds an open file cannot
 * be snapshotted.
 */
class SnapshotFilesTest {
    static Capabilities caps() {
        return Capabilities.standard().toBuilder().bundle("io").grant("approve", "asks", call -> true)
                .filesystem(Vfs.create().mountMemory("/tmp", 1 << 20)).build();
    }

    @Test
    void handlesComeBackClosedOrRebound() {
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps()).build();
        sb.eval("f = io.open('/tmp/a', 'w') f:write('x') g = io.open('/tmp/a') out = io.stdout it = io.lines('/tmp/a')");
        byte[] snap = sb.snapshot();
        java.io.ByteArrayOutputStream newOut = new java.io.ByteArrayOutputStream();
        Sandbox back = LuaVM.create().sandbox().capabilities(caps()).output(newOut).restoreFrom(snap).build();
        assertEquals("closed file\tclosed file\tfile", back.eval("return io.type(f) .. '\\t' .. io.type(g) .. '\\t' .. io.type(out)"));
        back.eval("out:write('to the new host') print(pcall(it))");
        assertTrue(newOut.toString().startsWith("to the new host"), newOut.toString());
        assertTrue(newOut.toString().contains("false"), newOut.toString());
    }

    @Test
    void aPausedRunHoldingAnOpenFileIsRefused() {
        LuaVM pausing = LuaVM.builder().policy(r -> r.name().equals("approve") ? HostCallPolicy.Decision.suspend("later")
                : HostCallPolicy.Decision.allow()).build();
        Capabilities caps = Capabilities.standard().toBuilder().bundle("io").declare("approve", "asks").unsafe()
                .grant(call -> true).filesystem(Vfs.create().mountMemory("/tmp", 1 << 20)).build();
        Sandbox sb = pausing.sandbox().capabilities(caps).build();
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                () -> sb.eval("local f = io.open('/tmp/b', 'w') approve() f:close()"));
        assertTrue(e.getMessage().contains("an open file"), e.getMessage());
        assertEquals(2L, sb.eval("return 1 + 1"), "the sandbox goes on");
    }
}
