package dev.luavm.cli;

import dev.luavm.vfs.Vfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI's working directory in the script's file system ({@link Mounts#workingDirectory}):
 * where its own working directory is in the mounts, so a mount of {@code .} makes relative
 * names the host's {@code ./NAME}, as under lua5.3.
 */
class MountsWorkingDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void theMountOfTheHostsDirectoryOrOneAboveIt() throws IOException {
        Path app = Files.createDirectories(tmp.resolve("repo/app/sub"));
        Vfs vfs = Vfs.create().mountReadWrite("/work", tmp.resolve("repo"), Vfs.UNLIMITED);
        assertEquals("/work", Mounts.workingDirectory(vfs, tmp.resolve("repo")));
        assertEquals("/work/app/sub", Mounts.workingDirectory(vfs, app));
        assertEquals("/app/sub", Mounts.workingDirectory(Vfs.create().mountReadOnly("/", tmp.resolve("repo")), app));
        // outside every mount, memory mounts hold no host directory: none
        assertNull(Mounts.workingDirectory(vfs, tmp));
        assertNull(Mounts.workingDirectory(Vfs.create().mountMemory("/tmp", 1024), tmp));
        assertNull(Mounts.workingDirectory(vfs, tmp.resolve("missing")));
    }

    @Test
    void theInnermostHostDirectoryServesUnlessANestedMountShadowsIt() throws IOException {
        Path inner = Files.createDirectories(tmp.resolve("repo/app"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Vfs both = Vfs.create().mountReadOnly("/all", tmp).mountReadWrite("/app", inner, Vfs.UNLIMITED);
        assertEquals("/app", Mounts.workingDirectory(both, inner));
        assertEquals("/all/other", Mounts.workingDirectory(both, other));
        // /all/repo/app would be served by the nested mount /all/repo (another directory): not there
        Vfs shadowed = Vfs.create().mountReadOnly("/all", tmp).mountReadOnly("/all/repo", other);
        assertNull(Mounts.workingDirectory(shadowed, inner));
    }

    @Test
    void linksOnEitherSideAreSeenThrough() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real/d"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("real"));
        assertEquals("/w/d", Mounts.workingDirectory(Vfs.create().mountReadOnly("/w", link), real));
        assertEquals("/w/d", Mounts.workingDirectory(Vfs.create().mountReadOnly("/w", tmp.resolve("real")), link.resolve("d")));
    }

    @Test
    void parseSetsItFromTheProcesssWorkingDirectory() {
        assertEquals("/w", Mounts.parse(List.of("/w=.:ro")).workingDirectory());
        assertEquals("/", Mounts.parse(List.of("/tmp=mem")).workingDirectory());
        assertTrue(Mounts.parse(List.of("/w=.:ro")).grantLines().contains("working directory /w"));
        assertFalse(Mounts.parse(List.of("/tmp=mem")).grantLines().stream().anyMatch(l -> l.startsWith("working")));
    }

    @Test
    void relativeNamesInAScriptReachTheHostsWorkingDirectory() throws IOException {
        // the test runs in the cli module's directory: its pom.xml is ./pom.xml; an overlay keeps the writes in memory
        String pom = Files.readString(Path.of("pom.xml"));
        Path script = tmp.resolve("rel.lua");
        Files.writeString(script, """
                local f = assert(io.open('file.txt', 'w')) f:write('one\\ntwo\\n') f:close()
                local n = 0 for l in io.lines('./file.txt') do n = n + 1 end
                assert(os.rename('file.txt', 'moved.txt'))
                print(n, io.open('moved.txt'):read('a') == 'one\\ntwo\\n', io.open('file.txt'), os.remove('moved.txt'))
                print(#io.open('pom.xml'):read('a'), io.open('src/../pom.xml') ~= nil)
                print(io.open('../../../../../../../../../etc/passwd'))
                """);
        MainTest.Outcome o = MainTest.luavm("", false, "--mount", "/w=.:overlay", script.toString());
        assertEquals("", o.err());
        assertEquals("2\ttrue\tnil\ttrue\n"
                + pom.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + "\ttrue\n"
                + "nil\t../../../../../../../../../etc/passwd: No such file or directory\t2\n", o.out());
        assertFalse(Files.exists(Path.of("file.txt")) || Files.exists(Path.of("moved.txt")));
    }
}
