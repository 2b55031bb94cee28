package dev.luavm.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sleep 6 | luavm --timeout 1s -e 'print(io.read())'}: a read of the process's standard
 * input that nothing answers ends with the time limit (exit 3), in about the timeout, not when the
 * input ends. The child's stdin is a pipe this test holds open and never writes, as {@code sleep}
 * holds it in the shell command; the child is killed if it overstays. Runs in the
 * integration-test phase, with the shaded jar.
 */
class StdinTimeoutIT {
    @Test
    void aReadOfSilentStdinEndsWithTheTimeLimit() throws Exception {
        String built = System.getProperty("luavm.jar"); // set by the integration-test execution only
        Assumptions.assumeTrue(built != null, "runs in the integration-test phase, once the jar is built");
        Path jar = Path.of(built).toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), jar.toString());
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString(), "--timeout", "1s", "-e", "print(io.read())")).start();
        try {
            long t0 = System.nanoTime();
            boolean ended = p.waitFor(60, TimeUnit.SECONDS); // stdin stays open all along
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ended, "luavm waited for its input instead of its time limit");
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            System.out.println("[T25] luavm --timeout 1s reading a silent stdin: exit " + p.exitValue() + " after " + ms
                    + " ms (JVM start-up included)");
            assertEquals(3, p.exitValue(), err);
            assertTrue(err.contains("time limit"), err);
            assertEquals("", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            p.getOutputStream().close();
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
