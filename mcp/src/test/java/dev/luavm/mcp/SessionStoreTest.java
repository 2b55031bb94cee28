package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A session kept in a state directory: what it saves, what a new session restores, what it refuses. */
class SessionStoreTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
    private final Limits limits = Limits.defaults().withGas(50_000_000).withRunGas(10_000_000);

    private LuaSession session(SessionStore store) {
        return new LuaSession(LuaVM.create(), Capabilities.standard(), limits, "t", LuaMcpServer.RESET_GAS, store, log);
    }

    private static Object results(Map<String, Object> report) {
        return report.get("results");
    }

    @Test
    void aNewSessionGoesOnWhereTheLastCallLeftIt() throws Exception {
        long left;
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            s.run("counter = 40; gen = coroutine.wrap(function() for i = 1, 9 do coroutine.yield(i) end end); gen()");
            assertEquals(List.of(41L), results(s.run("counter = counter + 1 return counter")));
            left = s.gasLeft();
        }
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            assertEquals(left, s.gasLeft(), "the spent gas is kept");
            assertEquals(List.of(42L, 2L), results(s.run("return counter + 1, gen()")));
            Map<String, Object> reset = s.reset();
            assertEquals(true, reset.get("ok"));
        }
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            assertEquals(List.of(true), results(s.run("return counter == nil")), "lua_reset discarded the stored sandbox");
            assertTrue(s.gasLeft() < left, "a reset gives no gas back");
        }
    }

    @Test
    void oneServerPerDirectory() throws Exception {
        try (SessionStore store = SessionStore.open(dir)) {
            IOException e = assertThrows(IOException.class, () -> SessionStore.open(dir));
            assertTrue(e.getMessage().contains("another luavm mcp server"), e.getMessage());
        }
        SessionStore.open(dir).close(); // free again
    }

    @Test
    void anUnreadableStateIsSetAsideAndTheSessionStartsAfresh() throws Exception {
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            s.run("x = 1");
        }
        Path file = dir.resolve(SessionStore.FILE);
        byte[] b = Files.readAllBytes(file);
        b[b.length / 2] ^= 0x40;
        Files.write(file, b);
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            assertEquals(List.of(true), results(s.run("return x == nil")));
        }
        assertTrue(Files.exists(dir.resolve(SessionStore.FILE + ".bad")), "kept for a human to look at");
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("was set aside"), logBytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aStateThatCannotBeSavedIsSaidSoAndThePreviousOneStays() throws Exception {
        Capabilities caps = Capabilities.standard().toBuilder().grant("handle", "a host object", call -> new Object()).build();
        try (SessionStore store = SessionStore.open(dir);
             LuaSession s = new LuaSession(LuaVM.create(), caps, limits, "t", LuaMcpServer.RESET_GAS, store, log)) {
            s.run("y = 7");
            Map<String, Object> r = s.run("h = handle()");
            assertTrue(String.valueOf(r.get("state")).startsWith("not saved: cannot snapshot global 'h'"), r.toString());
            assertNull(s.run("h = nil").get("state"));
        }
        try (SessionStore store = SessionStore.open(dir);
             LuaSession s = new LuaSession(LuaVM.create(), caps, limits, "t", LuaMcpServer.RESET_GAS, store, log)) {
            assertEquals(List.of(7L), results(s.run("return y")));
        }
        assertFalse(Files.exists(dir.resolve(SessionStore.FILE + ".bad")));
        // a server started without the grant the state needs sets it aside, naming the grant
        try (SessionStore store = SessionStore.open(dir); LuaSession s = session(store)) {
            assertEquals(List.of(true), results(s.run("return y == nil")));
        }
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("host function 'handle'"),
                logBytes.toString(StandardCharsets.UTF_8));
    }
}
