package dev.luavm.cli;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Generated file scripts ({@link VfsScriptGenerator}) under lua5.3 on a real directory and under
 * {@code luavm --mount}, compared as {@link VfsDifferentialTest} compares the written ones:
 * output, errors, exit status and the files left. Seeds 1 to {@code -Dvfs.difftest.seeds}
 * (default 30), {@code -Dvfs.difftest.ops} operations each (default 100); a failing seed's
 * script is kept in {@code target/vfs-difftest/}.
 */
@Timeout(600)
class VfsRandomDifferentialTest {
    @TempDir
    Path dir;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, Long.getLong("vfs.difftest.seeds", 30));
    }

    static void setUp(Path root) throws IOException {
        Files.writeString(root.resolve("a.txt"), "first\nsecond\n");
        Files.writeString(Files.createDirectories(root.resolve("sub")).resolve("d.txt"), "7 8 9\n");
        Files.createDirectories(root.resolve("empty"));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aGeneratedScriptMatchesLua53(long seed) throws Exception {
        String source = VfsScriptGenerator.script(seed, Integer.getInteger("vfs.difftest.ops", 100));
        Path script = dir.resolve("gen" + seed + ".lua");
        Files.writeString(script, source);
        Path ref = Files.createDirectories(dir.resolve("ref"));
        Path ours = Files.createDirectories(dir.resolve("ours"));
        setUp(ref);
        setUp(ours);
        VfsDifferentialTest.Ran lua = VfsDifferentialTest.lua53(ref, script.toString());
        assumeTrue(lua != null, "lua5.3 is not installed");
        MainTest.Outcome o = MainTest.luavm("", false, "--mount", "/=" + ours + ":rw", "--mount", "/tmp=mem:8m", script.toString());
        String where = "seed " + seed + " (the script: target/vfs-difftest/gen" + seed + ".lua)";
        boolean same = VfsDifferentialTest.normalise(lua.out()).equals(VfsDifferentialTest.normalise(o.out()))
                && VfsDifferentialTest.normalise(lua.err()).equals(VfsDifferentialTest.normalise(o.err()))
                && lua.status() == o.status() && VfsDifferentialTest.tree(ref).equals(VfsDifferentialTest.tree(ours));
        if (!same) Files.writeString(Files.createDirectories(Path.of("target", "vfs-difftest")).resolve("gen" + seed + ".lua"), source);
        assertEquals(VfsDifferentialTest.normalise(lua.out()), VfsDifferentialTest.normalise(o.out()), where);
        assertEquals(VfsDifferentialTest.normalise(lua.err()), VfsDifferentialTest.normalise(o.err()), where);
        assertEquals(lua.status(), o.status(), where);
        assertEquals(VfsDifferentialTest.tree(ref), VfsDifferentialTest.tree(ours), where);
    }
}
