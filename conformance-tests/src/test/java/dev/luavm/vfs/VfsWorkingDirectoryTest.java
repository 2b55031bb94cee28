package dev.luavm.vfs;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.Sandbox;
import dev.luavm.conformance.TestTier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The VFS's working directory ({@link Vfs#withWorkingDirectory}): relative names start there for
 * io, os and require, and under attack ({@code ../} chains, absolute and host names, links out of
 * the mount, the empty name, NUL, over-long names, a working directory that is not mounted or is
 * missing) they fail as lua5.3's do on Linux and never reach a host file outside the mounts.
 */
@Timeout(120)
class VfsWorkingDirectoryTest {
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
        Files.writeString(Files.createDirectories(data.resolve("sub")).resolve("deep.txt"), "deep");
    }

    private static Sandbox sandbox(Vfs vfs) {
        return TestTier.vm().sandbox()
                .capabilities(Capabilities.standard().toBuilder().bundles(List.of("io", "package")).filesystem(vfs).build())
                .limits(Limits.defaults().withGas(200_000_000)).build();
    }

    /** {@code io.open(name, mode)} as "ok" or "nil|message|errno". */
    private static String open(Sandbox sb, String name, String mode) {
        return (String) sb.eval("probe", """
                local f, m, e = io.open(...)
                if f then f:close() return 'ok' end
                return 'nil|' .. m .. '|' .. e""", name, mode);
    }

    private void assertOutsideUntouched() throws IOException {
        assertEquals(List.of("secret.txt"), VfsSandboxTest.list(outside));
        assertEquals("SECRET", Files.readString(outside.resolve("secret.txt")));
    }

    @Test
    void relativeNamesStartAtTheWorkingDirectory() throws IOException {
        Vfs vfs = Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data/sub");
        try (Sandbox sb = sandbox(vfs)) {
            assertEquals("deep|deep|inside|inside", sb.eval("""
                    return io.open('deep.txt'):read('a') .. '|' .. io.open('./deep.txt'):read('a') .. '|'
                        .. io.open('../inside.txt'):read('a') .. '|' .. io.open('/data/inside.txt'):read('a')"""));
            assertEquals("2|true|nil|true", sb.eval("""
                    local f = assert(io.open('new.txt', 'w')) f:write('a\\nb\\n') f:close()
                    local n = 0 for _ in io.lines('new.txt') do n = n + 1 end
                    local renamed = os.rename('new.txt', '../moved.txt')
                    return n .. '|' .. tostring(renamed) .. '|' .. tostring(io.open('new.txt')) .. '|'
                        .. tostring(os.remove('/data/moved.txt'))"""));
            assertFalse(Files.exists(data.resolve("moved.txt")));
            // require's ./?.lua is the working directory's
            Files.writeString(data.resolve("sub/mod.lua"), "return {v = 7}");
            assertEquals(7L, sb.eval("package.path = './?.lua' return require('mod').v"));
            assertEquals("/data/sub", vfs.workingDirectory());
        }
        assertOutsideUntouched();
    }

    @Test
    void dotDotChainsNeverLeaveTheMounts() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data/sub"))) {
            for (String name : List.of("../../outside/secret.txt", "../../../../../../outside/secret.txt",
                    "../sub/../../outside/secret.txt", "./../.././../outside/secret.txt", "../" .repeat(1000) + "outside/secret.txt",
                    "../../data/../outside/secret.txt", "../../" + outside.toString().substring(1) + "/secret.txt")) {
                for (String mode : List.of("r", "w", "a", "r+")) {
                    assertEquals("nil|" + name + ": No such file or directory|2", open(sb, name, mode), name + " " + mode);
                }
                assertEquals("nil|" + name + ": No such file or directory|2",
                        sb.eval("probe", "local ok, m, e = os.remove(...) return tostring(ok) .. '|' .. m .. '|' .. e", name));
            }
            // renaming a file out of the mounts cannot happen either
            assertEquals("nil|No such file or directory|2", sb.eval("""
                    local ok, m, e = os.rename('deep.txt', '../../x.txt') return tostring(ok) .. '|' .. m .. '|' .. e"""));
            assertEquals("deep", Files.readString(data.resolve("sub/deep.txt")));
        }
        assertOutsideUntouched();
        assertFalse(Files.exists(tmp.resolve("x.txt")));
    }

    @Test
    void absoluteAndHostNamesIgnoreTheWorkingDirectory() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data"))) {
            String host = outside.resolve("secret.txt").toString();
            assertEquals("nil|" + host + ": No such file or directory|2", open(sb, host, "r"));
            assertEquals("nil|" + host + ": No such file or directory|2", open(sb, host, "w"));
            assertEquals("ok", open(sb, "/data/inside.txt", "r"));
            assertEquals("nil|/inside.txt: No such file or directory|2", open(sb, "/inside.txt", "r"));
        }
        assertOutsideUntouched();
    }

    @Test
    void linksOutOfTheMountAreAbsentByRelativeNames() throws IOException {
        Files.createSymbolicLink(data.resolve("sub/abs"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(data.resolve("sub/rel"), Path.of("../../outside/secret.txt"));
        Files.createSymbolicLink(data.resolve("sub/dirlink"), outside);
        Files.createSymbolicLink(data.resolve("sub/good"), Path.of("../inside.txt"));
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data/sub"))) {
            for (String name : List.of("abs", "rel", "dirlink/secret.txt", "dirlink/new.txt", "./rel")) {
                for (String mode : List.of("r", "w", "a", "r+", "w+")) {
                    assertEquals("nil|" + name + ": No such file or directory|2", open(sb, name, mode), name + " " + mode);
                }
            }
            assertEquals("inside", sb.eval("return io.open('good'):read('a')"));
        }
        assertOutsideUntouched();
    }

    @Test
    void emptyNulAndOverLongNames() throws IOException {
        try (Sandbox sb = sandbox(Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data"))) {
            assertEquals("nil|: No such file or directory|2", open(sb, "", "r"));
            assertEquals("nil|: No such file or directory|2", open(sb, "", "w"));
            assertEquals("nil|inside.txt: Invalid argument|22", open(sb, "inside.txt\0/../../outside/secret.txt", "r"));
            assertEquals("nil|x: Invalid argument|22", open(sb, "x\0y", "w"));
            String n256 = "n".repeat(256);
            assertEquals("nil|" + n256 + ": File name too long|36", open(sb, n256, "w"));
            assertEquals("nil|" + "n".repeat(255) + ": No such file or directory|2", open(sb, "n".repeat(255), "r"));
            String deep = "a/".repeat(2100);
            assertEquals("nil|" + deep + ": File name too long|36", open(sb, deep, "r"));
        }
        assertEquals(List.of("inside.txt", "sub"), VfsSandboxTest.list(data));
        assertOutsideUntouched();
    }

    @Test
    void aWorkingDirectoryThatIsNotMountedIsRefused() {
        Vfs vfs = Vfs.create().mountReadWrite("/data", data, 1 << 20).mountMemory("/a/b", 1024);
        for (String bad : List.of("/nowhere", "/dat", "/data2", "/a/c", "data", "", "/data/", "/data/../x", "/data/./sub",
                "/data//sub", "/data/x\0y", "/" + "n".repeat(256), "/data" + "/d".repeat(2100))) {
            assertThrows(IllegalArgumentException.class, () -> vfs.withWorkingDirectory(bad), bad);
        }
        assertThrows(NullPointerException.class, () -> vfs.withWorkingDirectory(null));
        IllegalArgumentException first = assertThrows(IllegalArgumentException.class,
                () -> Vfs.create().withWorkingDirectory("/data"));
        assertTrue(first.getMessage().contains("mount first"), first.getMessage());
        // the root, a mount point, below one, above one
        for (String good : List.of("/", "/data", "/data/sub", "/data/missing", "/a", "/a/b", "/a/b/c")) {
            assertEquals(good, vfs.withWorkingDirectory(good).workingDirectory());
        }
        // it survives later mounts and quotas
        assertEquals("/data/sub", vfs.withWorkingDirectory("/data/sub").mountMemory("/tmp", 1).withMaxFiles(3).workingDirectory());
    }

    @Test
    void aMissingWorkingDirectoryMakesRelativeNamesMissing() throws IOException {
        Vfs vfs = Vfs.create().mountReadWrite("/data", data, 1 << 20).withWorkingDirectory("/data/gone");
        try (Sandbox sb = sandbox(vfs)) {
            assertEquals("nil|x.txt: No such file or directory|2", open(sb, "x.txt", "w"));
            assertEquals("nil|../inside.txt: No such file or directory|2", open(sb, "../inside.txt", "r"));
            assertEquals("ok", open(sb, "/data/inside.txt", "r"));
        }
        assertEquals(List.of("inside.txt", "sub"), VfsSandboxTest.list(data));
    }

    @Test
    void aWorkingDirectoryAboveTheMountsAndInMemory() {
        Vfs vfs = Vfs.create().mountMemory("/a/b", 1 << 16).withWorkingDirectory("/a");
        try (Sandbox sb = sandbox(vfs)) {
            assertEquals("hi", sb.eval("assert(io.open('b/f', 'w')):write('hi'):close() return io.open('/a/b/f'):read('a')"));
            assertEquals("nil|f: No such file or directory|2", open(sb, "f", "w"));
        }
        try (Sandbox sb = sandbox(Vfs.create().mountMemory("/m", 1 << 16).withWorkingDirectory("/m"))) {
            assertEquals("hi", sb.eval("assert(io.open('f', 'w')):write('hi'):close() return io.open('/m/f'):read('a')"));
        }
    }

    @Test
    void theGrantsAndTheDocsNameIt() {
        Vfs vfs = Vfs.create().mountReadOnly("/data", data);
        Capabilities plain = Capabilities.standard().toBuilder().filesystem(vfs).build();
        Capabilities moved = Capabilities.standard().toBuilder().filesystem(vfs.withWorkingDirectory("/data")).build();
        assertFalse(plain.describe().stream().anyMatch(l -> l.contains("working directory")), plain.describe().toString());
        assertTrue(moved.describe().contains("filesystem working directory /data"), moved.describe().toString());
        assertTrue(vfs.withWorkingDirectory("/data").describe().contains("working directory /data"));
    }
}
