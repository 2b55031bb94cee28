package dev.luavm.stdlib.io;

import dev.luavm.lib.FileStream;

import java.io.IOException;
import java.io.InputStream;

/**
 * What {@link InputReader} reads from: a byte at a time with C's one-byte {@code ungetc}, or a
 * block at a time. Two kinds: the host's input stream (whose buffer gives the look-ahead) and a
 * file of the sandbox's file system.
 */
interface ByteSource {
    /** The next byte, or -1 at the end. */
    int read() throws IOException;

    /** Puts back the byte {@link #read()} just returned. */
    void unread() throws IOException;

    /** {@code fread}: up to {@code len} bytes, fewer only at the end (0 or -1 there). */
    int read(byte[] b, int off, int len) throws IOException;

    /** The host's input: a buffered stream, marked before each byte so it can be put back. */
    static ByteSource of(InputStream in) {
        return new ByteSource() {
            @Override
            public int read() throws IOException {
                in.mark(1);
                return in.read();
            }

            @Override
            public void unread() throws IOException {
                in.reset();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = in.readNBytes(b, off, len);
                return n == 0 && len > 0 ? -1 : n;
            }
        };
    }

    /** A file of the sandbox's file system. */
    static ByteSource of(FileStream f) {
        return new ByteSource() {
            @Override
            public int read() throws IOException {
                return f.read();
            }

            @Override
            public void unread() {
                f.unread();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return f.read(b, off, len);
            }
        };
    }
}
