package dev.luavm.vfs;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.conformance.TestTier;
import dev.luavm.host.HostCallPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The VFS through the Java API: mounts, modes, runs, the host's side, the gateway's events. */
class VfsSandboxTest {
    @TempDir
    Path dir;

    static Sandbox sandbox(Vfs vfs) {
        return sandbox(vfs, Limits.defaults().withGas(50_000_000), null);
    }

    static Sandbox sandbox(Vfs vfs, Limits limits, HostCallPolicy policy) {
        Sandbox.Builder b = TestTier.vm().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io", "package").filesystem(vfs).build())
                .limits(limits);
        if (policy != null) b.policy(policy);
        return b.build();
    }

    @Test
    void namesExistOnlyWithAFileSystem() {
        try (Sandbox sb = TestTier.vm().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io").build()).build()) {
            assertEquals("nil nil nil nil", sb.eval("return tostring(io.open) .. ' ' .. tostring(os.remove) .. ' '"
                    + " .. tostring(os.rename) .. ' ' .. tostring(os.tmpname)"));
        }
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/tmp", 1 << 20))) {
            assertEquals("function function function function function", sb.eval("return type(io.open) .. ' ' .. type(os.remove)"
                    + " .. ' ' .. type(os.rename) .. ' ' .. type(os.tmpname) .. ' ' .. type(io.tmpfile)"));
        }
    }

    @Test
    void readOnlyMountReadsAndRefusesWrites() throws IOException {
        Files.writeString(dir.resolve("a.txt"), "line1\nline2\n");
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/data", dir))) {
            assertEquals("line1|line2", sb.eval("local t = {} for l in io.lines('/data/a.txt') do t[#t+1] = l end return table.concat(t, '|')"));
            assertEquals("nil /data/a.txt: Read-only file system 30",
                    sb.eval("local f, m, e = io.open('/data/a.txt', 'a') return tostring(f) .. ' ' .. m .. ' ' .. e"));
            assertEquals("nil /data/a.txt: Read-only file system 30",
                    sb.eval("local f, m, e = os.remove('/data/a.txt') return tostring(f) .. ' ' .. m .. ' ' .. e"));
            assertEquals("nil Read-only file system 30",
                    sb.eval("local f, m, e = os.rename('/data/a.txt', '/data/b.txt') return tostring(f) .. ' ' .. m .. ' ' .. e"));
        }
        assertEquals("line1\nline2\n", Files.readString(dir.resolve("a.txt")));
    }

    @Test
    void outsideEveryMountNothingExists() throws IOException {
        Files.writeString(dir.resolve("secret.txt"), "SECRET");
        Path data = Files.createDirectories(dir.resolve("data"));
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20))) {
            for (String name : List.of("/data/../secret.txt", "../secret.txt", dir.resolve("secret.txt").toString(),
                    "/", "/data/../../../../etc/passwd", "secret.txt", "/etc/passwd")) {
                Object r = sb.eval("probe", "local f, m, e = io.open(..., 'r') return tostring(f) .. '|' .. m .. '|' .. e", name);
                assertEquals("nil|" + name + ": No such file or directory|2", r, name);
                r = sb.eval("probe", "local f, m, e = io.open(..., 'w') return tostring(f) .. '|' .. m .. '|' .. e", name);
                assertTrue(((String) r).startsWith("nil|"), name + ": " + r);
            }
        }
        assertEquals(List.of(), list(data));
    }

    @Test
    void memoryMountKeepsFilesBetweenRunsAndCountsMemory() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/tmp", 1 << 20))) {
            long before = sb.usage().memoryBytes();
            sb.eval("local f = io.open('/tmp/x', 'w') f:write(string.rep('x', 100000)) f:close()");
            assertEquals(100000L, ((Number) sb.eval("local f = io.open('/tmp/x') local n = #f:read('a') f:close() return n")).longValue());
            assertTrue(sb.usage().memoryBytes() >= before + 100000, "memory " + sb.usage().memoryBytes());
            byte[] got = sb.files().read("/tmp/x");
            assertEquals(100000, got.length);
            sb.files().write("/tmp/in.txt", "from the host".getBytes(StandardCharsets.UTF_8));
            assertEquals("from the host", sb.eval("local f = io.open('/tmp/in.txt') return f:read('a')"));
            sb.eval("os.remove('/tmp/x')");
            assertNull(sb.files().read("/tmp/x"));
        }
    }

    @Test
    void memoryQuotaIsNoSpaceLeftOnDevice() {
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/tmp", 10_000))) {
            assertEquals("nil No space left on device 28", sb.eval("""
                    local f = io.open('/tmp/x', 'w')
                    f:setvbuf('no')
                    local ok, m, e = f:write(string.rep('x', 10001))
                    return tostring(ok) .. ' ' .. m .. ' ' .. e"""));
            // buffered: the breach shows at the flush
            assertEquals("true nil No space left on device 28", sb.eval("""
                    local f = io.open('/tmp/y', 'w')
                    local w = f:write(string.rep('y', 3000)) ~= nil
                    local ok, m, e = f:close()
                    f = io.open('/tmp/z', 'w')
                    f:write(string.rep('z', 8000))
                    ok, m, e = f:write(string.rep('z', 5000))
                    return tostring(w) .. ' ' .. tostring(ok) .. ' ' .. m .. ' ' .. e"""));
        }
    }

    @Test
    void readWriteQuotaCountsNetGrowth() throws IOException {
        Files.writeString(dir.resolve("old.txt"), "x".repeat(5000));
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/out", dir, 4096))) {
            assertEquals("nil No space left on device 28", sb.eval("""
                    local f = io.open('/out/a', 'w') f:setvbuf('no')
                    local ok, m, e = f:write(string.rep('a', 4097)) f:close()
                    return tostring(ok) .. ' ' .. m .. ' ' .. e"""));
            // removing a file gives its room back, a file that was there before too (5000 bytes)
            assertEquals(true, sb.eval("""
                    assert(os.remove('/out/a'))
                    assert(os.remove('/out/old.txt'))
                    local f = io.open('/out/b', 'w') f:setvbuf('no')
                    local ok = f:write(string.rep('b', 9000)) f:close()
                    return ok ~= nil"""));
        }
        assertEquals(9000, Files.size(dir.resolve("b")));
    }

    @Test
    void overlayChangesAreDiscardedAtTheNextRunUnlessCommitted() throws IOException {
        Files.writeString(dir.resolve("keep.txt"), "original");
        try (Sandbox sb = sandbox(Vfs.create().mountOverlay("/w", dir, 1 << 20))) {
            assertEquals("original+changed", sb.eval("local f = io.open('/w/keep.txt', 'a') f:write('+changed') f:close()"
                    + " return io.open('/w/keep.txt'):read('a')"));
            assertEquals("original", Files.readString(dir.resolve("keep.txt")));
            sb.eval("assert(os.remove('/w/keep.txt')) local f = io.open('/w/new.txt', 'w') f:write('new') f:close()");
            assertEquals(List.of(new FileChange("keep.txt", FileChange.Kind.REMOVED, 0),
                    new FileChange("new.txt", FileChange.Kind.WRITTEN, 3)), sb.files().changes("/w"));
            // the next run starts without them
            assertEquals("original nil", sb.eval("local f = io.open('/w/keep.txt') return f:read('a') .. ' ' .. tostring(io.open('/w/new.txt'))"));
            sb.eval("local f = io.open('/w/new.txt', 'w') f:write('committed') f:close() os.remove('/w/keep.txt')");
            sb.files().commit("/w");
        }
        assertEquals("committed", Files.readString(dir.resolve("new.txt")));
        assertFalse(Files.exists(dir.resolve("keep.txt")));
    }

    @Test
    void handlesAreClosedWhenTheRunEnds() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/out", dir, 1 << 20))) {
            sb.eval("f = io.open('/out/a.txt', 'w') f:write('pending')");
            assertEquals("pending", Files.readString(dir.resolve("a.txt")), "flushed at the run's end");
            assertEquals("closed file|attempt to use a closed file",
                    sb.eval("return io.type(f) .. '|' .. select(2, pcall(f.write, f, 'x'))"));
        }
    }

    @Test
    void writesAreGatewayEventsPoliciesCanDeny() throws IOException {
        MemoryAuditSink audit = new MemoryAuditSink();
        HostCallPolicy noRemove = req -> req.name().equals("fs.remove") ? HostCallPolicy.Decision.deny("no removals")
                : HostCallPolicy.Decision.allow("ok");
        Files.writeString(dir.resolve("x"), "x");
        try (Sandbox sb = TestTier.vm().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io")
                        .filesystem(Vfs.create().mountReadWrite("/out", dir, 1 << 20)).build())
                .policy(noRemove).audit(audit).build()) {
            assertEquals("nil /out/x: Permission denied 13", sb.eval("""
                    local f = assert(io.open('/out/y', 'w')) f:close()
                    assert(os.rename('/out/y', '/out/z'))
                    local ok, m, e = os.remove('/out/x')
                    return tostring(ok) .. ' ' .. m .. ' ' .. e"""));
        }
        assertTrue(Files.exists(dir.resolve("x")));
        assertTrue(Files.exists(dir.resolve("z")));
        List<String> calls = audit.events().stream().filter(e -> e instanceof HostCallEvent)
                .map(e -> ((HostCallEvent) e).function() + " " + ((HostCallEvent) e).verdict() + " " + ((HostCallEvent) e).args())
                .toList();
        assertEquals(3, calls.size(), calls.toString());
        assertTrue(calls.get(0).startsWith("fs.write ALLOWED"), calls.toString());
        assertTrue(calls.get(0).contains("/out/y"), calls.toString());
        assertTrue(calls.get(1).startsWith("fs.rename ALLOWED"), calls.toString());
        assertTrue(calls.get(2).startsWith("fs.remove DENIED"), calls.toString());
    }

    @Test
    void aSlowBackendEndsAtTheDeadline() {
        VfsBackend slow = new VfsBackend() {
            @Override
            public Stat stat(VfsPath path) throws IOException {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
                }
                return null;
            }

            @Override
            public Handle open(VfsPath path, OpenOptions options) throws IOException {
                throw new VfsException(Errno.ENOENT);
            }

            @Override
            public void remove(VfsPath path) throws IOException {
                throw new VfsException(Errno.ENOENT);
            }

            @Override
            public void rename(VfsPath from, VfsPath to) throws IOException {
                throw new VfsException(Errno.ENOENT);
            }

            @Override
            public List<String> list(VfsPath path) {
                return List.of();
            }
        };
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/db", slow),
                Limits.defaults().withTimeout(java.time.Duration.ofMillis(300)), null)) {
            long t0 = System.nanoTime();
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("return pcall(io.open, '/db/x')"));
            assertEquals(LuaLimitException.Limit.TIME, e.limit());
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L);
        }
    }

    @Test
    void requireReadsModulesUnderAMountPoint() throws IOException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("greet.lua"), "return { hi = function() return 'hi from the vfs' end }");
        try (Sandbox sb = sandbox(Vfs.create().mountReadOnly("/lib", lib))) {
            assertEquals("hi from the vfs", sb.eval("package.path = '/lib/?.lua' return require('greet').hi()"));
            assertEquals("/lib/greet.lua", sb.eval("return package.searchpath('greet', '/lib/?.lua')"));
        }
    }

    @Test
    void aModuleReadFromTheFileSystemIsNoModuleOfTheHosts() {
        Capabilities caps = Capabilities.standard().toBuilder().bundle("io", "package")
                .grantToModule("billing", "ledger_write", "Write one ledger line", call -> "written")
                .filesystem(Vfs.create().mountMemory("/tmp", 1 << 20)).build();
        try (Sandbox sb = TestTier.vm().sandbox().capabilities(caps).build()) {
            Object r = sb.eval("""
                    local f = io.open('/tmp/billing.lua', 'w')
                    f:write("return { pay = function() return ledger_write('x') end }")
                    f:close()
                    package.path = '/tmp/?.lua'
                    return select(2, pcall(require('billing').pay))""");
            assertTrue(String.valueOf(r).contains("permission denied: ledger_write (granted to module 'billing')"), String.valueOf(r));
        }
    }

    @Test
    void tmpnameCreatesAnEmptyFileInTmp() {
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/tmp", 1 << 20))) {
            assertEquals(true, sb.eval("local n = os.tmpname() return n:match('^/tmp/lua_%w%w%w%w%w%w$') ~= nil and io.open(n):read('a') == ''"));
            assertEquals("x", sb.eval("local f = io.tmpfile() f:write('x') f:seek('set') return f:read('a')"));
        }
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/scratch", 1 << 20))) {
            assertEquals("unable to generate a unique filename", sb.eval("return select(2, pcall(os.tmpname))"));
        }
    }

    @Test
    void mountPointsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("tmp", 1));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("/tmp/", 1));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("/a/../b", 1));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("/a\0b", 1));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("/tmp", 1).mountMemory("/tmp", 2));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountMemory("/tmp", -1));
        assertThrows(IllegalArgumentException.class, () -> Vfs.create().mountReadOnly("/d", dir.resolve("absent")));
        assertEquals(List.of("/tmp memory, quota 8 MiB", "/data read-only", "at most 64 open files, 10000 files created"),
                Vfs.create().mountMemory("/tmp", 8 << 20).mountReadOnly("/data", dir).describe());
    }

    @Test
    void docsListTheMounts() {
        Vfs vfs = Vfs.create().mountReadOnly("/data", dir).mountMemory("/tmp", 8 << 20);
        Capabilities caps = Capabilities.standard().toBuilder().bundle("io", "docs").filesystem(vfs).build();
        String md = dev.luavm.docs.HostDocs.markdown(caps);
        assertTrue(md.contains("## Files"), md);
        assertTrue(md.contains("- /data: read-only\n"), md);
        assertTrue(md.contains("- /tmp: memory (this sandbox's own, kept between runs), quota 8 MiB\n"), md);
        assertFalse(md.contains(dir.toString()), "the host directory stays private");
        try (Sandbox sb = TestTier.vm().sandbox().capabilities(caps).build()) {
            assertEquals("/data read-only nil|/tmp memory 8388608|64", sb.eval("""
                    local t = {}
                    for _, m in ipairs(docs.filesystem.mounts) do t[#t+1] = m.path .. ' ' .. m.mode .. ' ' .. tostring(m.quota) end
                    return table.concat(t, '|') .. '|' .. docs.filesystem.max_open_files"""));
            sb.eval("docs('filesystem') docs()");
            assertTrue(sb.output().contains("filesystem: files as in Lua 5.3 on Linux"), sb.output());
            assertTrue(sb.output().contains("Files: /data /tmp"), sb.output());
        }
    }

    static List<String> list(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void assertBytes(byte[] expected, byte[] got) {
        assertArrayEquals(expected, got);
    }
}
