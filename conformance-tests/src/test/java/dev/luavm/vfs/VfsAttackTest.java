package dev.luavm.vfs;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.Sandbox;
import dev.luavm.conformance.TestTier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The VFS under attack: every way out of a mount (lexical {@code ..}, symbolic links in and out,
 * absolute host names, NUL bytes, over-long names, shadowed mounts, a directory swapped for a
 * link while a script opens files through it), quota games, handle exhaustion, huge reads, and
 * sandboxes sharing one mount. Each attack's outcome is asserted as lua5.3's failure form, and
 * the host's files outside the mounts are checked untouched.
 */
@Timeout(120)
class VfsAttackTest {
    @TempDir
    Path tmp;
    Path outside;
    Path data;

    @BeforeEach
    void tree() throws IOException {
        outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "SECRET");
        data = Files.createDirectories(tmp.resolve("data"));
        Files.writeString(data.resolve("inside.txt"), "inside");
        Files.createDirectories(data.resolve("sub"));
    }

    private Sandbox sandbox(Vfs vfs) {
        return sandbox(vfs, Limits.defaults().withGas(200_000_000));
    }

    private Sandbox sandbox(Vfs vfs, Limits limits) {
        return TestTier.vm().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io").filesystem(vfs).build())
                .limits(limits).build();
    }

    /** {@code io.open(name, mode)} as "ok" or "nil|message|errno". */
    private static String open(Sandbox sb, String name, String mode) {
        return (String) sb.eval("probe", """
                local f, m, e = io.open(...)
                if f then local s = io.type(f) f:close() return s end
                return 'nil|' .. m .. '|' .. e""", name, mode);
    }

    private void assertOutsideUntouched() throws IOException {
        assertEquals(List.of("secret.txt"), VfsSandboxTest.list(outside));
        assertEquals("SECRET", Files.readString(outside.resolve("secret.txt")));
    }

    @Test
    void dotDotNeverLeavesTheMounts() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20))) {
            for (String name : List.of("/data/../outside/secret.txt", "/data/sub/../../outside/secret.txt",
                    "../outside/secret.txt", "/data/./../../../../../outside/secret.txt", "data/../../outside/secret.txt",
                    "/data/../data/../outside/secret.txt")) {
                for (String mode : List.of("r", "w", "a", "r+")) {
                    assertEquals("nil|" + name + ": No such file or directory|2", open(sb, name, mode), name + " " + mode);
                }
                assertEquals("nil|" + name + ": No such file or directory|2",
                        sb.eval("probe", "local ok, m, e = os.remove(...) return tostring(ok) .. '|' .. m .. '|' .. e", name));
            }
            // inside, .. is lexical and stays inside
            assertEquals("file", open(sb, "/data/sub/../inside.txt", "r"));
            assertEquals("file", open(sb, "data/./sub/.././inside.txt", "r"));
        }
        assertOutsideUntouched();
    }

    @Test
    void symbolicLinksLeadingOutAreAbsent() throws IOException {
        Files.createSymbolicLink(data.resolve("abs"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(data.resolve("rel"), Path.of("../outside/secret.txt"));
        Files.createSymbolicLink(data.resolve("dirlink"), outside);
        Files.createSymbolicLink(data.resolve("dangling"), outside.resolve("created-by-script.txt"));
        Files.createSymbolicLink(data.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(data.resolve("loop2"), Path.of("loop1"));
        Files.createSymbolicLink(data.resolve("good"), Path.of("sub/../inside.txt"));
        Files.createSymbolicLink(data.resolve("goodabs"), data.resolve("inside.txt"));
        Files.createSymbolicLink(data.resolve("sub/up"), Path.of(".."));
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20))) {
            for (String name : List.of("/data/abs", "/data/rel", "/data/dirlink/secret.txt", "/data/dangling",
                    "/data/sub/up/../outside/secret.txt")) {
                for (String mode : List.of("r", "w", "a", "r+", "w+")) {
                    assertEquals("nil|" + name + ": No such file or directory|2", open(sb, name, mode), name + " " + mode);
                }
            }
            assertEquals("nil|/data/loop1: Too many levels of symbolic links|40", open(sb, "/data/loop1", "r"));
            // links that stay inside work as the kernel's do
            assertEquals("inside|inside|inside", sb.eval("""
                    return io.open('/data/good'):read('a') .. '|' .. io.open('/data/goodabs'):read('a')
                        .. '|' .. io.open('/data/sub/up/inside.txt'):read('a')"""));
            // removing or renaming a link acts on the link itself, never on what it points at
            assertEquals(true, sb.eval("return os.remove('/data/abs') and os.rename('/data/rel', '/data/rel2')"));
            assertTrue(Files.isSymbolicLink(data.resolve("rel2")));
        }
        assertOutsideUntouched();
    }

    @Test
    void absoluteHostNamesNulAndLongNames() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20))) {
            String host = data.resolve("inside.txt").toString();
            assertEquals("nil|" + host + ": No such file or directory|2", open(sb, host, "r"));
            assertEquals("nil|/data/inside.txt: Invalid argument|22", open(sb, "/data/inside.txt\0/../../x", "r"));
            assertEquals("nil|/data/x: Invalid argument|22", open(sb, "/data/x\0y", "w"));
            String n256 = "/data/" + "n".repeat(256);
            assertEquals("nil|" + n256 + ": File name too long|36", open(sb, n256, "w"));
            assertEquals("nil|/data/" + "n".repeat(255) + ": No such file or directory|2", open(sb, "/data/" + "n".repeat(255), "r"));
            String deep = "/data/" + "a/".repeat(2100);
            assertEquals("nil|" + deep + ": File name too long|36", open(sb, deep, "r"));
            assertEquals(true, sb.eval("local f, m, e = io.open('/data/\\xff')"
                    + " return f == nil and m == '/data/\\xff: Invalid or incomplete multibyte or wide character' and e == 84"));
            // messages never show the host's directory
            Object msgs = sb.eval("""
                    local t = {}
                    for _, n in ipairs({'/data/nope', '/data/sub', '/nowhere', '/data/inside.txt/x'}) do
                      t[#t+1] = select(2, io.open(n, 'w')) or 'opened'
                    end
                    return table.concat(t, ';')""");
            assertFalse(((String) msgs).contains(tmp.toString()), (String) msgs);
        }
        assertEquals(List.of("inside.txt", "nope", "sub"), VfsSandboxTest.list(data)); // "/data/nope" was opened to write
    }

    @Test
    void aNestedMountShadowsTheDirectoryBelowIt() throws IOException {
        Files.writeString(data.resolve("sub/hidden.txt"), "hidden");
        Vfs vfs = Vfs.create().mountReadWrite("/data", data, 1 << 20).mountMemory("/data/sub", 1 << 20);
        try (Sandbox sb = sandbox(vfs)) {
            assertEquals("nil|/data/sub/hidden.txt: No such file or directory|2", open(sb, "/data/sub/hidden.txt", "r"));
            assertEquals("file", open(sb, "/data/sub/new.txt", "w"));
            assertEquals("nil Invalid cross-device link 18", sb.eval("local ok, m, e = os.rename('/data/inside.txt', '/data/sub/x')"
                    + " return tostring(ok) .. ' ' .. m .. ' ' .. e"));
            assertEquals("nil /data/sub: Device or resource busy 16", sb.eval("local ok, m, e = os.remove('/data/sub')"
                    + " return tostring(ok) .. ' ' .. m .. ' ' .. e"));
            assertEquals("nil Device or resource busy 16", sb.eval("local ok, m, e = os.rename('/data/sub', '/data/sub2')"
                    + " return tostring(ok) .. ' ' .. m .. ' ' .. e"));
        }
        assertEquals(List.of("hidden.txt"), VfsSandboxTest.list(data.resolve("sub")));
    }

    @Test
    void aDirectorySwappedForALinkDuringOpensNeverLeaks() throws Exception {
        Path real = Files.createDirectories(data.resolve("box"));
        Files.writeString(real.resolve("secret.txt"), "inside-box");
        Path parked = tmp.resolve("parked");
        Path link = tmp.resolve("link-to-outside");
        Files.createSymbolicLink(link, outside);
        AtomicBoolean stop = new AtomicBoolean();
        Thread swapper = new Thread(() -> {
            try {
                while (!stop.get()) {
                    Files.move(real, parked, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, real, StandardCopyOption.ATOMIC_MOVE); // /data/box -> outside
                    Thread.onSpinWait();
                    Files.move(real, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(parked, real, StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        swapper.start();
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/data", data))) {
            Object r = sb.eval("""
                    local seen = {}
                    for i = 1, 20000 do
                      local f = io.open('/data/box/secret.txt')
                      if f then local s = f:read('a') seen[s] = true f:close() end
                    end
                    local t = {} for k in pairs(seen) do t[#t+1] = k end table.sort(t) return table.concat(t, ',')""");
            assertFalse(((String) r).contains("SECRET"), (String) r);
        } finally {
            stop.set(true);
            swapper.join();
        }
        assertOutsideUntouched();
    }

    @Test
    void quotaGames() throws IOException {
        Path lower = Files.createDirectories(tmp.resolve("lower"));
        Files.writeString(lower.resolve("big.txt"), "b".repeat(5000));
        Vfs vfs = Vfs.create().mountReadWrite("/out", data, 100_000).mountMemory("/tmp", 50_000)
                .mountOverlay("/ov", lower, 1_000).withMaxFiles(30);
        try (Sandbox sb = sandbox(vfs)) {
            // a sparse write far past the end still needs the room
            assertEquals("nil No space left on device 28", sb.eval("""
                    local f = io.open('/out/sparse', 'w') f:seek('set', 1e9)
                    local ok, m, e = f:write('x') if ok then ok, m, e = f:close() else f:close() end
                    return tostring(ok) .. ' ' .. m .. ' ' .. e"""));
            assertEquals("nil No space left on device 28", sb.eval("""
                    local f = io.open('/tmp/sparse', 'w') f:seek('set', 1e9)
                    f:write('x') local ok, m, e = f:flush() f:close()
                    return tostring(ok) .. ' ' .. m .. ' ' .. e"""));
            // truncating gives room back; rewriting the same file does not leak quota
            assertEquals(true, sb.eval("""
                    for i = 1, 50 do
                      local f = assert(io.open('/tmp/again', 'w'))
                      assert(f:write(string.rep('r', 40000)))
                      assert(f:close())
                    end
                    return true"""));
            // the files quota: 30 created and kept, over all mounts (sparse x2, again: 3 so far)
            assertEquals("27 /tmp/f28: No space left on device 28", sb.eval("""
                    local n = 0
                    for i = 1, 40 do
                      local f, m, e = io.open('/tmp/f' .. i, 'w')
                      if not f then return n .. ' ' .. m .. ' ' .. e end
                      f:close() n = n + 1
                    end"""));
            assertEquals(true, sb.eval("assert(os.remove('/tmp/f1')) return io.open('/tmp/f1', 'w') ~= nil"));
            // an overlay copies a file in to change it: that needs the room too
            assertEquals("nil|/ov/big.txt: No space left on device|28", open(sb, "/ov/big.txt", "a"));
            assertEquals("file", open(sb, "/ov/big.txt", "w"));
        }
        assertOutsideUntouched();
    }

    /**
     * One write far larger than the room left, on each kind of writable mount: {@code nil, "No
     * space left on device", 28}, nothing of it written (a write is checked whole before the
     * backend sees it), the quota as it was, the handle usable; and many small buffered writes
     * fail at the flush that needed the room, with the blocks that fitted in the file.
     */
    @Test
    void hugeWritesPastTheQuota() throws IOException {
        Path lower = Files.createDirectories(tmp.resolve("lower"));
        Vfs vfs = Vfs.create().mountReadWrite("/out", data, 10_000).mountMemory("/tmp", 10_000)
                .mountOverlay("/ov", lower, 10_000);
        try (Sandbox sb = sandbox(vfs)) {
            for (String dir : new String[] {"/out", "/tmp", "/ov"}) {
                assertEquals("nil No space left on device 28|true|1000|true", sb.eval("huge", """
                        local name = ... .. '/huge'
                        local f = assert(io.open(name, 'w'))
                        local ok, m, e = f:write(string.rep('x', 4 << 20))
                        local r = tostring(ok) .. ' ' .. m .. ' ' .. e
                        local again = f:write(string.rep('y', 1000)) ~= nil
                        local closed = f:close()
                        return r .. '|' .. tostring(again) .. '|' .. #io.open(name):read('a') .. '|' .. tostring(closed)""", dir),
                        dir);
                assertEquals("122 No space left on device 28 8192", sb.eval("drip", """
                        local name = ... .. '/drip'
                        local f, n = assert(io.open(name, 'w')), 0
                        while true do
                          local ok, m, e = f:write(string.rep('z', 100))
                          if not ok then f:close() return n .. ' ' .. m .. ' ' .. e .. ' ' .. #io.open(name):read('a') end
                          n = n + 1
                        end""", dir), dir);
                // removing gives the room back (an overlay's changes go anyway when the next run starts)
                if (!dir.equals("/ov")) {
                    assertEquals(true, sb.eval("x", "local d = ... assert(os.remove(d .. '/huge')) assert(os.remove(d .. '/drip')) return true", dir));
                }
            }
        }
        assertOutsideUntouched();
    }

    @Test
    void aMemoryMountCannotTakeMoreThanTheMemoryLimit() {
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/tmp", Vfs.UNLIMITED),
                Limits.defaults().withMemory(8 << 20).withGas(500_000_000))) {
            assertEquals("nil No space left on device 28", sb.eval("""
                    local f = io.open('/tmp/fill', 'w')
                    local chunk = string.rep('m', 1 << 16)
                    for i = 1, 1000 do
                      local ok, m, e = f:write(chunk)
                      if not ok then f:close() return tostring(ok) .. ' ' .. m .. ' ' .. e end
                    end
                    return 'wrote it all'"""));
            // the sandbox goes on: removing the file gives the memory back
            assertEquals(true, sb.eval("return os.remove('/tmp/fill') and io.open('/tmp/x', 'w'):write(string.rep('y', 1 << 20)) ~= nil"));
        }
    }

    @Test
    void handleExhaustionIsTooManyOpenFiles() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/data", data).withMaxOpenFiles(16))) {
            assertEquals("16 /data/inside.txt: Too many open files 24 true", sb.eval("""
                    held = {}
                    for i = 1, 100 do
                      local f, m, e = io.open('/data/inside.txt')
                      if not f then
                        local n = #held
                        held[1]:close()
                        return n .. ' ' .. m .. ' ' .. e .. ' ' .. tostring(io.open('/data/inside.txt') ~= nil)
                      end
                      held[#held + 1] = f
                    end"""));
            // the run ended: every handle is closed, the next run has them all
            assertEquals("closed file", sb.eval("return io.type(held[2])"));
            assertEquals(true, sb.eval("for i = 1, 16 do held[i] = assert(io.open('/data/inside.txt')) end return true"));
        }
    }

    @Test
    void hugeReadsEndOnTheMemoryLimit() throws IOException {
        Files.write(data.resolve("huge.bin"), new byte[24 << 20]);
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/data", data),
                Limits.defaults().withMemory(8 << 20).withGas(500_000_000))) {
            LuaException e = assertThrows(LuaException.class, () -> sb.eval("return #io.open('/data/huge.bin'):read('a')"));
            assertTrue(e instanceof LuaLimitException l && l.limit() == LuaLimitException.Limit.MEMORY
                    || e instanceof LuaScriptException s && s.getMessage().contains("not enough memory"), e.toString());
            assertEquals(6L, sb.eval("return #io.open('/data/inside.txt'):read(1 << 40)"));
            // reading it in pieces is fine, and pays gas for every byte
            long before = sb.usage().gas();
            assertEquals((long) (24 << 20), sb.eval("""
                    local f, n = io.open('/data/huge.bin'), 0
                    while true do local b = f:read(1 << 16) if not b then break end n = n + #b end
                    return n"""));
            assertTrue(sb.usage().gas() >= (24 << 20) / 8, "gas " + sb.usage().gas());
            assertTrue(before >= 0);
        }
    }

    @Test
    void sandboxesSharingOneMount() throws Exception {
        Vfs vfs = Vfs.create().mountReadWrite("/shared", data, 1 << 20);
        int n = 6;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                done.add(pool.submit(() -> {
                    try (Sandbox sb = sandbox(vfs)) {
                        return sb.eval("probe", """
                                local id = ...
                                for i = 1, 200 do
                                  local log = assert(io.open('/shared/log.txt', 'a'))
                                  log:write('sandbox ', id, ' line ', i, '\\n')
                                  log:close()
                                  local mine = '/shared/s' .. id .. '.txt'
                                  local f = assert(io.open(mine .. '.tmp', 'w'))
                                  f:write(id, ':', i)
                                  f:close()
                                  assert(os.rename(mine .. '.tmp', mine))
                                end
                                return io.open('/shared/s' .. id .. '.txt'):read('a')""", (long) id);
                    }
                }));
            }
            for (int i = 0; i < n; i++) assertEquals(i + ":200", done.get(i).get(60, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        List<String> lines = Files.readAllLines(data.resolve("log.txt"));
        assertEquals(n * 200, lines.size());
        for (String l : lines) assertTrue(l.matches("sandbox \\d line \\d+"), l);
    }
}
