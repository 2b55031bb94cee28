package dev.luavm.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Newline-delimited frames read from a byte stream (MCP's stdio framing), each bounded: a line
 * longer than the bound is read to its end and dropped, and comes back as a frame that says how
 * long it was, so the reader answers it and goes on, whatever the peer writes. A line ends at
 * {@code \n}; a {@code \r} before it is dropped. The text after the last newline, at the end of
 * the stream, is a frame too (a peer that dies mid-write leaves a truncated one).
 */
final class LineReader {
    /** One line: its bytes, or null when it held more than the bound ({@code length} then says how many). */
    record Frame(byte[] bytes, long length) {
        boolean tooLong() {
            return bytes == null;
        }
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] chunk = new byte[8192];
    private int pos;
    private int end;
    private boolean eof;

    LineReader(InputStream in, int maxBytes) {
        if (maxBytes <= 0) throw new IllegalArgumentException("the bound on a line must be positive: " + maxBytes);
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or null at the end of the stream. Blocks until a whole line (or the end) is read. */
    Frame next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        long length = 0;
        while (true) {
            if (pos == end) {
                if (eof || !fill()) {
                    return length == 0 ? null : frame(line, length);
                }
            }
            int start = pos;
            while (pos < end && chunk[pos] != '\n') pos++;
            int n = pos - start;
            if (length + n <= maxBytes) line.write(chunk, start, n);
            length += n;
            if (pos < end) { // the newline
                pos++;
                return frame(line, length);
            }
        }
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(chunk, 0, chunk.length); // 0 only from a stream that breaks the contract: read again
        } while (n == 0);
        if (n < 0) {
            eof = true;
            return false;
        }
        pos = 0;
        end = n;
        return true;
    }

    private Frame frame(ByteArrayOutputStream line, long length) {
        if (length > maxBytes) return new Frame(null, length);
        byte[] bytes = line.toByteArray();
        if (bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
            bytes = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        }
        return new Frame(bytes, bytes.length);
    }
}
