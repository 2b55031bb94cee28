package dev.luavm.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shaded {@code luavm.jar} alone is a JSR-223 provider: a child JVM with nothing else on its
 * class path finds the engine by name through {@code ScriptEngineManager}. Runs in the
 * {@code integration-test} phase (after {@code package} made the jar; see cli/pom.xml), as a
 * single-file Java program so that no class of the test is on the child's class path.
 */
class Jsr223JarIT {
    private static final String PROBE = """
            import javax.script.*;

            public class Probe {
                public static void main(String[] args) throws Exception {
                    ScriptEngineManager m = new ScriptEngineManager();
                    System.out.println(m.getEngineByName("lua").eval("return 6*7"));
                    ScriptEngine e = m.getEngineByName("luavm");
                    e.put("who", "jar");
                    System.out.println(e.eval("return 'hello ' .. who .. ' ' .. tostring(io)"));
                }
            }
            """;

    @Test
    void theCliJarAloneAnswersGetEngineByNameLua() throws Exception {
        String built = System.getProperty("luavm.jar"); // set by the integration-test execution only
        Assumptions.assumeTrue(built != null, "runs in the integration-test phase, once the jar is built");
        Path jar = Path.of(built).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), "the shaded jar is built in the package phase: " + jar);
        Path dir = Files.createTempDirectory("jsr223-probe");
        Path probe = dir.resolve("Probe.java");
        Files.writeString(probe, PROBE);
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(javaBin.toString(), "-cp", jar.toString(), probe.toString()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "probe did not finish");
        assertEquals(0, p.exitValue(), out);
        assertEquals("42\nhello jar nil\n", out.replace("\r", ""));
        deleteQuietly(probe, dir);
    }

    private static void deleteQuietly(Path... paths) {
        for (Path path : paths) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // a temp file left behind is harmless
            }
        }
    }
}
