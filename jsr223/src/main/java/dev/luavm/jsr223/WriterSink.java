package dev.luavm.jsr223;

import dev.luavm.OutputSink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A sandbox's output, decoded from UTF-8 onto the writer of the context running now
 * ({@code ScriptContext.getWriter()}). A character split between two writes is kept until the
 * rest arrives; bytes that are not UTF-8 become U+FFFD.
 */
final class WriterSink implements OutputSink {
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    /** the start of a character not complete yet (at most 3 bytes) */
    private byte[] partial = new byte[0];
    private Writer target;

    /** Where the next run's output goes. */
    void target(Writer w) {
        this.target = w;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        if (target == null) return;
        byte[] in = bytes;
        int off = offset;
        int len = length;
        if (partial.length > 0) {
            in = new byte[partial.length + length];
            System.arraycopy(partial, 0, in, 0, partial.length);
            System.arraycopy(bytes, offset, in, partial.length, length);
            off = 0;
            len = in.length;
        }
        ByteBuffer src = ByteBuffer.wrap(in, off, len);
        CharBuffer out = CharBuffer.allocate(len);
        decoder.decode(src, out, false);
        partial = new byte[src.remaining()];
        src.get(partial);
        emit(out);
    }

    /** Ends the run's output: an incomplete character is replaced, and the writer flushed. */
    void finish() {
        if (target == null) return;
        CharBuffer out = CharBuffer.allocate(partial.length + 1);
        decoder.decode(ByteBuffer.wrap(partial), out, true);
        decoder.flush(out);
        decoder.reset();
        partial = new byte[0];
        emit(out);
        try {
            target.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void emit(CharBuffer out) {
        if (out.position() == 0) return;
        try {
            target.write(out.array(), 0, out.position());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
