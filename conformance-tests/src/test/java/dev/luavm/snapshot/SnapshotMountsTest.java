package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.vfs.FileChange;
import dev.luavm.vfs.Vfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file system in a snapshot (the {@code vfs} extension section): memory mounts' files and
 * overlays' pending changes travel with it, host directories are re-granted by path, the counters
 * a script can observe (file handles' addresses, {@code os.tmpname}'s names, the files quota, a
 * read-write mount's growth) continue, and a restoring host that grants less is refused with an
 * error naming what is missing.
 */
class SnapshotMountsTest {
    @TempDir
    Path dir;

    static Capabilities caps(Vfs vfs) {
        return Capabilities.standard().toBuilder().bundle("io").filesystem(vfs).build();
    }

    static Sandbox restore(byte[] snap, Vfs vfs) {
        return LuaVM.create().sandbox().capabilities(caps(vfs)).restoreFrom(snap).build();
    }

    @Test
    void aMemoryMountsFilesAndTheCountersContinue() throws Exception {
        Vfs vfs = Vfs.create().mountMemory("/tmp", 1 << 20);
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).build();
        sb.eval("local f = io.open('/tmp/bin', 'wb') f:write('a\\0b\\255', string.rep('z', 10000)) f:close()"
                + " io.open('/tmp/empty', 'w'):close() n1 = os.tmpname()");
        byte[] snap = sb.snapshot();
        String next = "local f = io.open('/tmp/bin', 'rb') local s = f:read('a') local t = tostring(f) f:close()"
                + " return #s .. ' ' .. s:sub(1, 4):byte(1, -1) .. s:sub(2, 4) .. ' ' .. t .. ' ' .. os.tmpname()"
                + " .. ' ' .. tostring(io.open('/tmp/empty'):read('a'))";
        Sandbox back = restore(snap, vfs);
        String restored = new String((byte[]) back.eval(next), StandardCharsets.ISO_8859_1);
        String original = new String((byte[]) sb.eval(next), StandardCharsets.ISO_8859_1);
        assertEquals(original, restored, "the restored sandbox goes on as the original");
        assertTrue(restored.startsWith("10004 97\0b\u00ff file (0x"), restored);
        assertArrayEquals(sb.files().read("/tmp/bin"), back.files().read("/tmp/bin"));
    }

    @Test
    void anOverlaysPendingChangesTravelUntilTheNextRunAndCanBeCommitted() throws Exception {
        Path lower = Files.createDirectories(dir.resolve("lower"));
        Files.writeString(lower.resolve("keep.txt"), "kept");
        Files.writeString(lower.resolve("gone.txt"), "to be removed");
        Files.createDirectories(lower.resolve("sub"));
        Vfs vfs = Vfs.create().mountOverlay("/work", lower, 1 << 20);
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).build();
        sb.eval("io.open('/work/sub/new.txt', 'w'):write('new'):close() assert(os.remove('/work/gone.txt'))"
                + " io.open('/work/keep.txt', 'a'):write('+more'):close()");
        byte[] snap = sb.snapshot();
        Sandbox back = restore(snap, vfs);
        assertEquals(sb.files().changes("/work"), back.files().changes("/work"));
        assertEquals(List.of("gone.txt", "keep.txt", "sub/new.txt"),
                back.files().changes("/work").stream().map(FileChange::path).toList());
        assertEquals("kept+more", new String(back.files().read("/work/keep.txt"), StandardCharsets.UTF_8));
        assertNull(back.files().read("/work/gone.txt"));
        back.files().commit("/work");
        assertEquals("new", Files.readString(lower.resolve("sub/new.txt")));
        assertEquals("kept+more", Files.readString(lower.resolve("keep.txt")));
        assertTrue(Files.notExists(lower.resolve("gone.txt")));
    }

    @Test
    void aReadWriteMountsGrowthCountsAgainstItsQuotaAfterRestore() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Vfs vfs = Vfs.create().mountReadWrite("/out", out, 100);
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).build();
        sb.eval("io.open('/out/a', 'w'):write(string.rep('x', 80)):close()");
        Sandbox back = restore(sb.snapshot(), vfs);
        assertEquals("nil No space left on device 28", back.eval(
                "local f = io.open('/out/b', 'w') local ok, m, e = f:write(string.rep('y', 4096)) f:close()"
                        + " return tostring(ok) .. ' ' .. m .. ' ' .. e"));
    }

    @Test
    void aPausedRunResumesWithItsFiles() {
        LuaVM pausing = LuaVM.builder().policy(r -> r.name().equals("approve") ? HostCallPolicy.Decision.suspend("later")
                : HostCallPolicy.Decision.allow()).build();
        Vfs vfs = Vfs.create().mountMemory("/tmp", 1 << 20).mountOverlay("/work", dir, 1 << 20);
        Capabilities c = Capabilities.standard().toBuilder().bundle("io").declare("approve", "asks").unsafe()
                .grant(call -> true).filesystem(vfs).build();
        Sandbox sb = pausing.sandbox().capabilities(c).build();
        dev.luavm.LuaSuspendedException paused = assertThrows(dev.luavm.LuaSuspendedException.class, () -> sb.eval(
                "io.open('/tmp/m', 'w'):write('memory'):close() io.open('/work/o', 'w'):write('overlay'):close()"
                        + " approve() return io.open('/tmp/m'):read('a') .. ' ' .. io.open('/work/o'):read('a')"));
        Sandbox back = LuaVM.create().sandbox().capabilities(c).resumeFrom(paused.snapshot(), true).build();
        assertEquals("memory overlay", back.resumedResults().first());
    }

    @Test
    void aRestoringHostThatGrantsLessIsRefusedByName() {
        Vfs vfs = Vfs.create().mountMemory("/tmp", 1 << 20).mountMemory("/scratch", 1 << 20);
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).build();
        sb.eval("io.open('/scratch/a', 'w'):write(string.rep('x', 5000)):close()");
        byte[] snap = sb.snapshot();

        LuaSnapshotException missing = assertThrows(LuaSnapshotException.class,
                () -> restore(snap, Vfs.create().mountMemory("/tmp", 1 << 20)));
        assertTrue(missing.getMessage().contains("'/scratch'"), missing.getMessage());

        LuaSnapshotException mode = assertThrows(LuaSnapshotException.class,
                () -> restore(snap, Vfs.create().mountMemory("/tmp", 1 << 20).mountReadOnly("/scratch", dir)));
        assertTrue(mode.getMessage().contains("'/scratch' as memory"), mode.getMessage());

        LuaSnapshotException quota = assertThrows(LuaSnapshotException.class,
                () -> restore(snap, Vfs.create().mountMemory("/tmp", 1 << 20).mountMemory("/scratch", 4000)));
        assertTrue(quota.getMessage().contains("quota"), quota.getMessage());

        // without a file system the io library has no files either: the first thing missing is named
        LuaSnapshotException none = assertThrows(LuaSnapshotException.class, () -> LuaVM.create().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundle("io").build()).restoreFrom(snap).build());
        assertTrue(none.getMessage().contains("which the capabilities do not grant"), none.getMessage());
    }

    @Test
    void filesLargerThanTheNewMemoryLimitAreTheMemoryLimit() {
        Vfs vfs = Vfs.create().mountMemory("/tmp", 64 << 20);
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).limits(Limits.defaults().withMemory(64 << 20)).build();
        sb.eval("local f = io.open('/tmp/big', 'w') f:write(string.rep('x', 4 << 20)) f:close()");
        byte[] snap = sb.snapshot();
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> LuaVM.create().sandbox().capabilities(caps(vfs))
                .limits(Limits.defaults().withMemory(2 << 20)).restoreFrom(snap).build());
        assertEquals(LuaLimitException.Limit.MEMORY, e.limit());
    }
    /**
     * Damage aimed at the {@code vfs} section (re-sealed, as a hostile snapshot would be): every
     * copy restores to a working sandbox, or is refused with {@link LuaSnapshotException}, or is
     * over a limit; never another exception.
     */
    @Test
    void damagedFileSectionsAreRefusedOrRestored() {
        Vfs vfs = Vfs.create().mountMemory("/tmp", 1 << 20).mountOverlay("/work", dir, 1 << 20);
        Limits limits = Limits.defaults().withMemory(16L << 20).withGas(5_000_000).withTimeout(java.time.Duration.ofSeconds(5));
        Sandbox sb = LuaVM.create().sandbox().capabilities(caps(vfs)).limits(limits).build();
        sb.eval("io.open('/tmp/a', 'w'):write('alpha'):close() io.open('/tmp/b', 'w'):write(string.rep('b', 300)):close()"
                + " io.open('/work/c', 'w'):write('gamma'):close() os.tmpname()");
        byte[] good = sb.snapshot();
        int section = lastIndexOf(good, "vfs".getBytes(StandardCharsets.US_ASCII));
        assertTrue(section > 0);
        int restored = 0;
        int refused = 0;
        for (int seed = 0; seed < 500; seed++) {
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
            byte[] bad = good.clone();
            for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                int at = section + rnd.nextInt(bad.length - 4 - section);
                if (rnd.nextBoolean()) bad[at] ^= (byte) (1 << rnd.nextInt(8));
                else bad[at] = (byte) rnd.nextInt(256);
            }
            try {
                Sandbox back = LuaVM.create().sandbox().capabilities(caps(vfs)).limits(limits)
                        .restoreFrom(CorruptedSnapshotTest.reseal(bad)).build();
                back.eval("for _, n in ipairs{'/tmp/a', '/tmp/b', '/work/c'} do local f = io.open(n) if f then f:read('a') f:close() end end"
                        + " io.open('/tmp/new', 'w'):write('x'):close() os.tmpname()");
                restored++;
            } catch (LuaSnapshotException e) {
                assertNull(e.getCause(), "seed " + seed + ": " + e.getMessage());
                refused++;
            } catch (LuaLimitException e) {
                refused++;
            }
        }
        assertEquals(500, restored + refused);
        assertTrue(refused > 50, "damage to the structure is refused (file contents may change freely): " + refused);
    }

    private static int lastIndexOf(byte[] in, byte[] what) {
        for (int i = in.length - what.length; i >= 0; i--) {
            if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) return i;
        }
        return -1;
    }
}
