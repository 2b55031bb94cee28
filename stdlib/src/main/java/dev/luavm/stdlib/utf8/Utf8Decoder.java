package dev.luavm.stdlib.utf8;

/** {@code utf8_decode} and friends from {@code lutf8lib.c}, over byte arrays. */
final class Utf8Decoder {
    private Utf8Decoder() {}

    static final int MAXUNICODE = 0x10FFFF;
    /** smallest value of an n-continuation-byte sequence minus one (rejects overlong forms) */
    private static final int[] LIMITS = {0xFF, 0x7F, 0x7FF, 0xFFFF};

    /** byte {@code i} of {@code s}, or 0 past the end (PUC strings end with a '\0') */
    static int byteAt(byte[] s, long i) {
        return i < s.length ? s[(int) i] & 0xFF : 0;
    }

    static boolean isContinuation(byte[] s, long i) {
        return (byteAt(s, i) & 0xC0) == 0x80;
    }

    /**
     * Decodes the sequence at {@code i}: returns {@code (code << 32) | next}, where {@code next}
     * is the index after the sequence, or -1 for an invalid sequence.
     */
    static long decode(byte[] s, int i) {
        int c = byteAt(s, i);
        int res;
        int count = 0; // number of continuation bytes
        if (c < 0x80) { // ascii?
            res = c;
        } else {
            res = 0;
            for (; (c & 0x40) != 0; c <<= 1) { // still have continuation bytes?
                int cc = byteAt(s, i + ++count);
                if ((cc & 0xC0) != 0x80) return -1; // not a continuation byte
                res = (res << 6) | (cc & 0x3F); // add lower 6 bits from continuation byte
            }
            res |= (c & 0x7F) << (count * 5); // add first byte
            if (count > 3 || Integer.compareUnsigned(res, MAXUNICODE) > 0 || res <= LIMITS[count]) return -1;
        }
        return ((long) res << 32) | (i + count + 1);
    }

    static int code(long decoded) {
        return (int) (decoded >>> 32);
    }

    static int next(long decoded) {
        return (int) decoded;
    }

    /** {@code u_posrelat}: a relative string position, negative means back from the end. */
    static long posrelat(long pos, long len) {
        if (pos >= 0) return pos;
        if (Long.compareUnsigned(-pos, len) > 0) return 0;
        return len + pos + 1;
    }

    /** Appends the UTF-8 encoding of {@code x} (at most {@code 0x10FFFF}) to {@code out} at {@code at}; returns the new end. */
    static int encode(int x, byte[] out, int at) {
        if (x < 0x80) {
            out[at++] = (byte) x;
        } else if (x < 0x800) {
            out[at++] = (byte) (0xC0 | (x >> 6));
            out[at++] = (byte) (0x80 | (x & 0x3F));
        } else if (x < 0x10000) {
            out[at++] = (byte) (0xE0 | (x >> 12));
            out[at++] = (byte) (0x80 | ((x >> 6) & 0x3F));
            out[at++] = (byte) (0x80 | (x & 0x3F));
        } else {
            out[at++] = (byte) (0xF0 | (x >> 18));
            out[at++] = (byte) (0x80 | ((x >> 12) & 0x3F));
            out[at++] = (byte) (0x80 | ((x >> 6) & 0x3F));
            out[at++] = (byte) (0x80 | (x & 0x3F));
        }
        return at;
    }
}
