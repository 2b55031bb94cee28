package dev.luavm.snapshot;

/**
 * A bounded reader over a part of a snapshot, {@code [pos, end)}: every read checks what is
 * left first, so nothing is allocated for a size the bytes cannot hold, and a read past the end
 * is a {@link SnapshotProblem}, never an exception of the JVM's.
 */
final class ByteIn {
    final byte[] buf;
    int pos;
    final int end;

    ByteIn(byte[] buf, int pos, int end) {
        this.buf = buf;
        this.pos = pos;
        this.end = end;
    }

    static SnapshotProblem bad(String why) {
        return new SnapshotProblem("malformed snapshot: " + why);
    }

    int remaining() {
        return end - pos;
    }

    boolean atEnd() {
        return pos == end;
    }

    void expectEnd(String what) {
        if (pos != end) throw bad(what + " has " + (end - pos) + " unread bytes");
    }

    int u8() {
        if (pos >= end) throw bad("cut short");
        return buf[pos++] & 0xFF;
    }

    Tag tag(Tag.Group group) {
        int c = u8();
        Tag t = Tag.of(group, c);
        if (t == null) throw bad("byte 0x" + Integer.toHexString(c) + " where a " + group.name().toLowerCase() + " tag belongs");
        return t;
    }

    long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8();
            if (shift == 63 && (b & 0x7E) != 0) throw bad("number too large");
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw bad("number too long");
    }

    /** A varint in {@code [0, max]}. */
    long varint(long max, String what) {
        long v = varint();
        if (v < 0 || v > max) throw bad(what + " " + Long.toUnsignedString(v) + " out of range (at most " + max + ")");
        return v;
    }

    int int32(int max, String what) {
        return (int) varint(max, what);
    }

    /** A count of items each taking at least {@code minBytes} bytes: never more than what is left could hold. */
    int count(int minBytes, String what) {
        return int32(remaining() / Math.max(1, minBytes), what);
    }

    long zigzag() {
        long z = varint();
        return (z >>> 1) ^ -(z & 1);
    }

    int zigzag32(int min, int max, String what) {
        long v = zigzag();
        if (v < min || v > max) throw bad(what + " " + v + " out of range");
        return (int) v;
    }

    long i64() {
        if (end - pos < 8) throw bad("cut short");
        long v = 0;
        for (int i = 0; i < 8; i++) v = (v << 8) | (buf[pos++] & 0xFF);
        return v;
    }

    byte[] raw(int n) {
        if (n < 0 || n > end - pos) throw bad("cut short");
        byte[] b = java.util.Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return b;
    }

    /** A length-prefixed byte string of at most {@code max} bytes. */
    byte[] bytes(int max, String what) {
        int n = int32(Math.min(max, remaining()), what + " length");
        return raw(n);
    }

    /** A length-prefixed part, as a reader of its own; this reader moves past it. */
    ByteIn part(String what) {
        int n = int32(remaining(), what + " length");
        ByteIn p = new ByteIn(buf, pos, pos + n);
        pos += n;
        return p;
    }
}
