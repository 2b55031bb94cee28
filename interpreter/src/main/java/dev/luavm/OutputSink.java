package dev.luavm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Where a sandbox's {@code print} output goes: bytes exactly as Lua produced them. Chosen per
 * sandbox ({@link Sandbox.Builder#output}); the default keeps the latest run's output in memory,
 * readable with {@link Sandbox#output()}. The output limit is enforced before the sink sees
 * anything, so a sink never receives more than {@link Limits#outputBytes()} per run.
 */
@FunctionalInterface
public interface OutputSink {
    /**
     * Takes {@code length} bytes of output from {@code bytes} at {@code offset}; called on the
     * sandbox's thread, and must not keep the array.
     */
    void write(byte[] bytes, int offset, int length);

    /** Passes on what the sink holds back ({@code io.flush}); by default there is nothing to do. */
    default void flush() {
    }

    /** Throws the output away. */
    static OutputSink discard() {
        return (b, off, len) -> { };
    }

    /**
     * Writes to a stream, flushing after each write so interleaving with the host's own output
     * stays in order. An I/O failure ends the run as an error.
     */
    static OutputSink of(OutputStream out) {
        return (b, off, len) -> {
            try {
                out.write(b, off, len);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
