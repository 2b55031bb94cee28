package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import java.io.IOException;
import java.util.Arrays;

/**
 * {@code io.read}'s formats over a {@link ByteSource} ({@code read_line}, {@code read_all},
 * {@code read_chars}, {@code read_number}, {@code test_eof} of {@code liolib.c}), with the
 * one-byte look-ahead {@code ungetc} gives PUC. Every byte taken in pays the byte rule, and the
 * memory meter is charged before the buffer grows, in chunks, so a flood of input (or a huge
 * file) ends on a limit, never in the host.
 */
final class InputReader {
    /** {@code L_MAXLENNUM}: the longest numeral read_number accepts */
    private static final int MAX_NUMERAL = 200;
    /** {@code LUAL_BUFFERSIZE}: read_all's fread size */
    private static final int BUFFER_SIZE = 8192;
    /** a huge read_chars is read in pieces this large (whole blocks, so glibc's choices stay the same) */
    private static final int PIECE = 1 << 16;

    private final CallContext c;
    private final ByteSource in;
    /** {@code l_getn}'s buffer overflowed: more than {@code L_MAXLENNUM} bytes of numeral, so not a number */
    private boolean tooLong;
    private byte[] buf = new byte[64];
    private int len;
    private long charged = 64;

    InputReader(CallContext c, ByteSource in) {
        this.c = c;
        this.in = in;
    }

    /** {@code read_line}: nil at end of file with nothing read. */
    LuaString line(boolean keepNewline) throws IOException {
        int b;
        boolean any = false;
        while ((b = in.read()) >= 0) {
            any = true;
            if (b == '\n') {
                if (keepNewline) add(b);
                break;
            }
            add(b);
        }
        return any ? result() : null;
    }

    /** {@code read_all}: the rest of the input, "" at end of file, read as PUC reads it ({@code fread}s of {@code LUAL_BUFFERSIZE} until one comes short). */
    LuaString all() throws IOException {
        byte[] chunk = new byte[BUFFER_SIZE];
        int n;
        do {
            n = Math.max(in.read(chunk, 0, chunk.length), 0);
            addAll(chunk, n);
        } while (n == chunk.length);
        return result();
    }

    /** {@code read_chars}: up to {@code count} bytes, nil at end of file (PUC's one {@code fread}, here in pieces). */
    LuaString chars(long count) throws IOException {
        byte[] chunk = new byte[(int) Math.min(count, PIECE)];
        long left = count;
        while (left > 0) {
            int want = (int) Math.min(left, chunk.length);
            int n = Math.max(in.read(chunk, 0, want), 0);
            addAll(chunk, n);
            left -= n;
            if (n < want) break;
        }
        return len > 0 ? result() : null;
    }

    /** {@code test_eof}: "" unless at end of file. */
    LuaString testEof() throws IOException {
        int b = in.read();
        if (b < 0) return null;
        in.unread();
        return LuaString.EMPTY;
    }

    /** {@code read_number}: a numeral as {@code l_getn} scans it, or nil (the byte after it stays unread). */
    Object number() throws IOException {
        int ch;
        do {
            c.chargeGas(1);
            ch = in.read();
        } while (ch == ' ' || (ch >= '\t' && ch <= '\r'));
        if (ch >= 0) in.unread();
        boolean hex = false;
        int count = 0;
        test2("-+");
        if (test2("0")) {
            if (test2("xX")) hex = true;
            else count = 1; // count the initial '0' as a digit
        }
        count += digits(hex);
        if (test2(".")) count += digits(hex);
        if (count > 0 && test2(hex ? "pP" : "eE")) {
            test2("-+");
            digits(false);
        }
        Object n = tooLong ? null : LuaNumbers.parse(buf, 0, len);
        len = 0;
        tooLong = false;
        return n;
    }

    private boolean test2(String set) throws IOException {
        int ch = in.read();
        if (ch >= 0 && set.indexOf(ch) >= 0 && nextc(ch)) return true;
        if (ch >= 0) in.unread();
        return false;
    }

    /** {@code nextc}: takes the byte unless the buffer is full, which spoils the numeral (PUC's {@code buff[0] = '\0'}). */
    private boolean nextc(int ch) {
        if (len >= MAX_NUMERAL) {
            tooLong = true;
            return false;
        }
        add(ch);
        return true;
    }

    private int digits(boolean hex) throws IOException {
        int count = 0;
        while (true) {
            int ch = in.read();
            boolean digit = ch >= '0' && ch <= '9'
                    || hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'));
            if (!digit || !nextc(ch)) {
                if (ch >= 0) in.unread();
                return count;
            }
            count++;
        }
    }

    /** Appends a byte; memory and gas are charged before the buffer grows. */
    private void add(int b) {
        if (len == buf.length) grow(len + 1L);
        buf[len++] = (byte) b;
    }

    /** Appends {@code n} bytes of {@code b}, charged as {@link #add} charges. */
    private void addAll(byte[] b, int n) {
        if (len + (long) n > buf.length) grow(len + (long) n);
        System.arraycopy(b, 0, buf, len, n);
        len += n;
    }

    private void grow(long needed) {
        long size = buf.length;
        while (size < needed) size *= 2;
        if (size > Integer.MAX_VALUE - 64) throw c.error("not enough memory");
        c.memory().charge(size - charged);
        c.chargeBytes(size - charged);
        charged = size;
        buf = Arrays.copyOf(buf, (int) size);
    }

    private LuaString result() {
        c.chargeBytes(len);
        c.memory().charge(Sizes.string(len));
        LuaString s = LuaString.wrap(Arrays.copyOf(buf, len));
        len = 0;
        return s;
    }
}
