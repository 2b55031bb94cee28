package dev.luavm.mcp;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes newline-delimited JSON messages to a stream, one whole line at a time whatever thread
 * writes (answers, progress notifications and our own protocol errors share one stream), flushed
 * at once. Once a write fails (the peer closed its end) the writer is broken: later writes are
 * dropped, and {@link #write} says so.
 */
final class FrameWriter {
    private final OutputStream out;
    private boolean broken;

    FrameWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Writes {@code json} (one JSON value, serialized without newlines, as Jackson writes it
     * compactly) and a newline; false when the stream is broken.
     */
    synchronized boolean write(byte[] json) {
        if (broken) return false;
        try {
            out.write(json);
            out.write('\n');
            out.flush();
            return true;
        } catch (IOException e) {
            broken = true;
            return false;
        }
    }

    synchronized boolean broken() {
        return broken;
    }

    /** Closes the stream (the peer reads its end); later writes are dropped. */
    synchronized void close() {
        broken = true;
        try {
            out.close();
        } catch (IOException ignored) {
            // closed already: nothing to tell anyone
        }
    }
}
