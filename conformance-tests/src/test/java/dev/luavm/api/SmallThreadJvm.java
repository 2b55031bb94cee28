package dev.luavm.api;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness of the small-stack tests that need a fresh JVM (nothing of the library loaded or
 * initialised yet): the test starts its own class's {@code main} in a child JVM with
 * {@link #run}, and that {@code main} does its work on a 128 KiB host thread with
 * {@link #printFromSmallThread}, which prints what came back (or the Throwable) for the test to read.
 */
public final class SmallThreadJvm {
    /** The host stack the tests promise to work on. */
    static final long STACK = 128 << 10;

    private SmallThreadJvm() {
    }

    /** In the child: runs {@code work} on a 128 KiB thread and prints its result, or the Throwable's class and message. */
    public static void printFromSmallThread(Callable<String> work) throws InterruptedException {
        String[] out = new String[1];
        Thread t = new Thread(null, () -> {
            try {
                out[0] = work.call();
            } catch (Throwable e) {
                out[0] = e.getClass().getName() + ": " + e.getMessage();
            }
        }, "host-128k", STACK);
        t.start();
        t.join();
        System.out.print(out[0]);
    }

    /** In the test: {@code main}'s class run in a fresh JVM on this test's class path; what it printed (it must exit 0 within 120 s). */
    public static String run(Class<?> main) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), main.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue());
        return out;
    }
}
