package dev.luavm.snapshot;

import java.util.Arrays;

/**
 * The bytes of a snapshot being written: a growable buffer with the format's primitive
 * encodings (varints, zigzag, fixed-width big-endian), refusing to grow past a bound.
 */
final class ByteOut {
    private byte[] buf;
    private int n;
    private final long max;

    ByteOut(int initial, long max) {
        this.buf = new byte[Math.max(16, initial)];
        this.max = max;
    }

    int size() {
        return n;
    }

    /** Empties the buffer (its capacity is kept for the next part). */
    void reset() {
        n = 0;
    }

    private void room(int more) {
        long need = (long) n + more;
        if (need > max) throw new SnapshotProblem("the snapshot would be larger than " + max + " bytes");
        if (need > buf.length) buf = Arrays.copyOf(buf, (int) Math.min(Math.max(need, (long) buf.length * 2), Integer.MAX_VALUE - 8));
    }

    void u8(int b) {
        room(1);
        buf[n++] = (byte) b;
    }

    void tag(Tag t) {
        u8(t.code);
    }

    void varint(long v) {
        if (v < 0) throw new IllegalArgumentException("negative varint " + v);
        room(10);
        while ((v & ~0x7FL) != 0) {
            buf[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[n++] = (byte) v;
    }

    /** A signed number, zigzag-encoded so small negatives stay short. */
    void zigzag(long v) {
        long z = (v << 1) ^ (v >> 63);
        room(10);
        while ((z & ~0x7FL) != 0) {
            buf[n++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        buf[n++] = (byte) z;
    }

    void i64(long v) {
        room(8);
        for (int s = 56; s >= 0; s -= 8) buf[n++] = (byte) (v >>> s);
    }

    void u32(int v) {
        room(4);
        for (int s = 24; s >= 0; s -= 8) buf[n++] = (byte) (v >>> s);
    }

    void raw(byte[] b, int off, int len) {
        room(len);
        System.arraycopy(b, off, buf, n, len);
        n += len;
    }

    /** A length, then the bytes. */
    void bytes(byte[] b) {
        varint(b.length);
        raw(b, 0, b.length);
    }

    /** Appends {@code body} as a length-prefixed part. */
    void part(ByteOut body) {
        varint(body.n);
        raw(body.buf, 0, body.n);
    }

    byte[] array() {
        return buf;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, n);
    }
}
