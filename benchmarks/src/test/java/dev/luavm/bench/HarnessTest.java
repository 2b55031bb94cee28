package dev.luavm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeps the harness honest without running a benchmark: every program has an expected
 * output, every skip names a real program, and the comparison engines' adapters pass
 * {@code arg} and capture output as {@code lua5.3 script args} would.
 */
class HarnessTest {

    private static final byte[] ARGS_CHUNK = ("print(arg[0], arg[1], #arg)\n"
            + "print(string.format('%d %s', 6 * 7, 'ok'))\n").getBytes(StandardCharsets.UTF_8);
    private static final String ARGS_OUTPUT = "x.lua\t5\t1\n42 ok\n";

    @Test
    void everyProgramHasAnExpectedOutputAndEverySkipARealProgram() throws IOException {
        assumeTrue(Files.isDirectory(Programs.benchDir()), "no benchmark programs at " + Programs.benchDir()
                + " (run with -Dbench.dir=...)");
        List<String> names = Programs.names();
        for (String p : names) {
            try (InputStream in = Programs.class.getResourceAsStream("/expected/" + p + ".txt")) {
                assertTrue(in != null, "no expected/" + p + ".txt: run benchmarks/regen-expected.sh");
            }
        }
        Skips.all().forEach((pair, why) -> {
            assertTrue(names.contains(pair.split(" ")[1]), "skips.txt: no program for '" + pair + "' in " + Programs.benchDir());
            assertTrue(!why.isBlank(), pair + ": a skip needs a reason");
        });
    }

    /** The user-shaped programs are in the repository: checked even where the shared ones are absent (CI). */
    @Test
    void everyUserShapedProgramHasAnExpectedOutputAndNoSharedName() throws IOException {
        assumeTrue(Files.isDirectory(Programs.ownDir()), "no user-shaped programs at " + Programs.ownDir());
        List<String> own = Programs.ownNames();
        assertEquals(List.of("concat_builders", "json_codec", "oop_methods", "string_pack", "string_patterns", "utf8_text"), own);
        for (String p : own) {
            try (InputStream in = Programs.class.getResourceAsStream("/expected/" + p + ".txt")) {
                assertTrue(in != null, "no expected/" + p + ".txt: run benchmarks/regen-expected.sh");
            }
            assertEquals(Programs.ownDir().resolve(p + ".lua"), Programs.file(p));
            if (Files.isDirectory(Programs.benchDir())) {
                assertTrue(!Files.exists(Programs.benchDir().resolve(p + ".lua")), p + " is also a shared program");
            }
        }
    }

    @Test
    void luajRunsWithArgAndCapturedOutput() throws Exception {
        assertEquals(ARGS_OUTPUT, Engines.create(Engines.LUAJ).compile("=t", ARGS_CHUNK).run("x.lua", List.of("5")));
    }

    @Test
    void luajcRunsTwiceFromOneCompile() throws Exception {
        Engine.Program p = Engines.create(Engines.LUAJC).compile("=t", ARGS_CHUNK);
        assertEquals(ARGS_OUTPUT, p.run("x.lua", List.of("5")));
        assertEquals(ARGS_OUTPUT, p.run("x.lua", List.of("5")));
    }

    @Test
    void lunaRunsWithArgAndCapturedOutput() throws Exception {
        Engine.Program p = Engines.create(Engines.LUNA).compile("=t", ARGS_CHUNK);
        assertEquals(ARGS_OUTPUT, p.run("x.lua", List.of("5")));
        assertEquals(ARGS_OUTPUT, p.run("x.lua", List.of("5")));
    }

    @Test
    void sessionsEvaluate() throws Exception {
        for (String e : List.of(Engines.LUAJ, Engines.LUNA)) {
            try (Engine.Session s = Engines.create(e).newSession()) {
                assertEquals("1", String.valueOf(s.eval("return 1")), e);
            }
        }
    }

    @Test
    void generatedChunkIsLargeAndDeterministic() {
        byte[] a = GeneratedChunk.source();
        assertTrue(a.length > 400_000, "chunk is " + a.length + " bytes");
        assertEquals(new String(a, StandardCharsets.UTF_8), new String(GeneratedChunk.source(), StandardCharsets.UTF_8));
    }
}
