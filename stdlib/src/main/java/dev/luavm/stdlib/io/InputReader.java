package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * {@code io.read}'s formats over the host's input ({@code read_line}, {@code read_all},
 * {@code read_chars}, {@code read_number}, {@code test_eof} of {@code liolib.c}). The stream
 * is the sandbox's one buffered stream, which supports the one-byte look-ahead {@code ungetc}
 * gives PUC. Every byte taken in pays the byte rule, and the memory meter is charged before
 * the buffer grows, in chunks, so a flood of input ends on a limit, never in the host.
 */
final class InputReader {
    /** {@code L_MAXLENNUM}: the longest numeral read_number accepts */
    private static final int MAX_NUMERAL = 200;

    private final CallContext c;
    private final InputStream in;
    private byte[] buf = new byte[64];
    private int len;
    private long charged = 64;

    InputReader(CallContext c, InputStream in) {
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

    /** {@code read_all}: the rest of the input, "" at end of file. */
    LuaString all() throws IOException {
        byte[] chunk = new byte[IoFunctions.CHUNK];
        int n;
        while ((n = in.readNBytes(chunk, 0, chunk.length)) > 0) {
            for (int i = 0; i < n; i++) add(chunk[i]);
            if (n < chunk.length) break;
        }
        return result();
    }

    /** {@code read_chars}: up to {@code count} bytes, nil at end of file. */
    LuaString chars(long count) throws IOException {
        long left = count;
        int b = 0;
        while (left > 0 && (b = in.read()) >= 0) {
            add(b);
            left--;
        }
        return len > 0 ? result() : null;
    }

    /** {@code test_eof}: "" unless at end of file. */
    LuaString testEof() throws IOException {
        in.mark(1);
        int b = in.read();
        in.reset();
        return b < 0 ? null : LuaString.EMPTY;
    }

    /** {@code read_number}: a numeral as {@code l_getn} scans it, or nil (the byte after it stays unread). */
    Object number() throws IOException {
        int ch;
        do {
            c.chargeGas(1);
            in.mark(1);
            ch = in.read();
        } while (ch == ' ' || (ch >= '\t' && ch <= '\r'));
        in.reset();
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
        if (len > MAX_NUMERAL) return null;
        Object n = LuaNumbers.parse(buf, 0, len);
        len = 0;
        return n;
    }

    private boolean test2(String set) throws IOException {
        in.mark(1);
        int ch = in.read();
        if (ch >= 0 && set.indexOf(ch) >= 0 && len <= MAX_NUMERAL) {
            add(ch);
            return true;
        }
        in.reset();
        return false;
    }

    private int digits(boolean hex) throws IOException {
        int count = 0;
        while (true) {
            in.mark(1);
            int ch = in.read();
            boolean digit = ch >= '0' && ch <= '9'
                    || hex && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F'));
            if (!digit || len > MAX_NUMERAL) {
                in.reset();
                return count;
            }
            add(ch);
            count++;
        }
    }

    /** Appends a byte; memory and gas are charged before the buffer grows. */
    private void add(int b) {
        if (len == buf.length) {
            long size = (long) buf.length * 2;
            if (size > Integer.MAX_VALUE - 64) throw c.error("not enough memory");
            c.memory().charge(size - charged);
            c.chargeBytes(size - charged);
            charged = size;
            buf = Arrays.copyOf(buf, (int) size);
        }
        buf[len++] = (byte) b;
    }

    private LuaString result() {
        c.chargeBytes(len);
        c.memory().charge(Sizes.string(len));
        LuaString s = LuaString.wrap(Arrays.copyOf(buf, len));
        len = 0;
        return s;
    }
}
