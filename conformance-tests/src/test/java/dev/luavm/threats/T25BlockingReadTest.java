package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.replay.Replayer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T25 A blocking read of the sandbox's input ({@code io.read}, {@code io.lines} on the stream the
 * host gave, {@code Sandbox.Builder.input}) that the source never answers ends with the run's
 * time limit or cancel, and nothing the source sends later is lost: the next read gets it.
 */
class T25BlockingReadTest {
    private static final Capabilities IO = Capabilities.standard().toBuilder().bundle("io").build();
    private static final Limits SHORT = Limits.defaults().withTimeout(Duration.ofMillis(300));

    private static long timeToLimit(Sandbox sb, String script, Limit expected) {
        long t0 = System.nanoTime();
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(script));
        assertEquals(expected, e.limit());
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void aReadOfASilentPipeEndsWithTheTimeLimitAndNothingIsLost() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            PipedOutputStream writer = new PipedOutputStream();
            PipedInputStream pipe = new PipedInputStream(writer);
            try (Sandbox sb = VM.sandbox().capabilities(IO).limits(SHORT).input(pipe).build()) {
                for (String read : List.of("return io.read()", "return io.read('n')", "return io.read(5)",
                        "return io.read('a')", "for l in io.lines() do return l end", "return io.stdin:read('L')",
                        "local ok, e = pcall(io.read) return ok")) {
                    long ms = timeToLimit(sb, read, Limit.TIME);
                    System.out.println("[T25] " + read + " on a silent pipe, 300 ms timeout: " + ms + " ms");
                    assertTrue(ms < 5_000, read + ": " + ms + " ms");
                }
                writer.write("first line\nsecond line\n".getBytes(StandardCharsets.UTF_8));
                writer.flush();
                assertEquals("first line", sb.eval("return io.read()"), "what came after the timeouts is all there");
                assertEquals("second line", sb.eval("return io.read()"));
                writer.close();
                assertEquals(null, sb.eval("return io.read()"));
            }
        });
    }

    @Test
    void cancelEndsABlockingRead() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            PipedInputStream pipe = new PipedInputStream(new PipedOutputStream());
            try (Sandbox sb = VM.sandbox().capabilities(IO).limits(Limits.defaults().withTimeout(Duration.ofSeconds(60)))
                    .input(pipe).build()) {
                Thread canceller = new Thread(() -> {
                    T25HostCallDeadlineTest.sleepThroughInterrupts(200);
                    sb.cancel();
                });
                canceller.start();
                long ms = timeToLimit(sb, "return io.read()", Limit.CANCELLED);
                canceller.join();
                System.out.println("[T25] cancel 200 ms into a blocking read: " + ms + " ms");
                assertTrue(ms < 5_000, ms + " ms");
            }
        });
    }

    /** A stream that ignores interrupts and answers nothing for a long time, as System.in does. */
    private static final class Stubborn extends InputStream {
        @Override
        public int read() {
            T25HostCallDeadlineTest.sleepThroughInterrupts(60_000);
            return -1;
        }

        @Override
        public int available() {
            return 0;
        }
    }

    @Test
    void aStreamThatIgnoresInterruptsCannotHoldTheRun() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (Sandbox sb = VM.sandbox().capabilities(IO).limits(SHORT).input(new Stubborn()).build()) {
                long ms = timeToLimit(sb, "return io.read()", Limit.TIME);
                assertTrue(ms < 5_000, ms + " ms");
                assertEquals(1L, sb.eval("return 1"), "the sandbox goes on while the read is pending");
                timeToLimit(sb, "return io.read()", Limit.TIME); // the same pending read, waited for again
            }
        });
    }

    @Test
    void inputThatIsThereIsReadWithoutWaitingAndRecordedForReplay() throws IOException {
        MemoryAuditSink log = new MemoryAuditSink();
        try (Sandbox sb = VM.sandbox().capabilities(IO).limits(SHORT).audit(log).record(true)
                .input(new java.io.ByteArrayInputStream("7 8\nrest\n".getBytes(StandardCharsets.UTF_8))).build()) {
            assertEquals(List.of(7L, 8L, "", "rest"), sb.evalAll("input", "return io.read('n', 'n', 'l', 'l')"));
        }
        dev.luavm.replay.ReplayResult r = Replayer.replay(dev.luavm.LuaVM.create(), dev.luavm.replay.Recording.of(log.events()));
        assertTrue(r.identical(), r.toString());
    }
}
