package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds one result string whose length is not known in advance ({@code gsub}, {@code format},
 * {@code pack}). Every growth of the buffer is charged before it happens: memory for the new
 * array and gas for the bytes it makes room for, so a builtin that produces output pays per
 * output byte (VM rules 1 and 2). Results of known length skip the buffer and use
 * {@link #allocate}.
 */
final class ByteBuilder {
    /** The longest string this runtime builds (Java arrays stop a little short of 2^31). */
    static final int MAX_LENGTH = Integer.MAX_VALUE - 16;

    private final CallContext c;
    private byte[] buf;
    private int len;

    ByteBuilder(CallContext c, int expected) {
        this.c = c;
        int cap = Math.max(16, Math.min(expected, 1 << 16));
        charge(cap);
        this.buf = new byte[cap];
    }

    /** Gas for moving {@code n} bytes (the byte rule, {@link CallContext#gasForBytes}). */
    static long gasForBytes(long n) {
        return CallContext.gasForBytes(n);
    }

    /**
     * Charges gas and memory for a result string of exactly {@code n} bytes, then allocates
     * its array (to be wrapped by {@link LuaString#wrap}).
     */
    static byte[] allocate(CallContext c, long n) {
        c.chargeGas(gasForBytes(n));
        c.memory().charge(Sizes.string(n));
        if (n > MAX_LENGTH) throw new LuaError(LuaString.of("not enough memory"));
        return new byte[(int) n];
    }

    /**
     * Charges memory (not gas) for a result string of exactly {@code n} bytes and allocates its
     * array: for callers that pay the gas chunk by chunk as they fill it.
     */
    static byte[] allocateUncharged(CallContext c, long n) {
        c.memory().charge(Sizes.string(n));
        if (n > MAX_LENGTH) throw new LuaError(LuaString.of("not enough memory"));
        return new byte[(int) n];
    }

    /** A copy of {@code bytes[from, to)} as a Lua string, charged first. */
    static LuaString substring(CallContext c, byte[] bytes, int from, int to) {
        byte[] r = allocate(c, to - from);
        System.arraycopy(bytes, from, r, 0, to - from);
        return LuaString.wrap(r);
    }

    private void charge(long bytes) {
        c.chargeGas(gasForBytes(bytes));
        c.memory().charge(bytes);
    }

    /** Makes room for {@code extra} more bytes. */
    void reserve(long extra) {
        long needed = len + extra;
        if (needed <= buf.length) return;
        if (needed > MAX_LENGTH) {
            c.memory().charge(needed); // fails under any realistic cap
            throw new LuaError(LuaString.of("not enough memory"));
        }
        long cap = Math.max(needed, Math.min((long) buf.length * 2, MAX_LENGTH));
        charge(cap);
        buf = Arrays.copyOf(buf, (int) cap);
    }

    int length() {
        return len;
    }

    void append(int b) {
        if (len == buf.length) reserve(1);
        buf[len++] = (byte) b;
    }

    void append(byte[] src, int from, int to) {
        int n = to - from;
        reserve(n);
        System.arraycopy(src, from, buf, len, n);
        len += n;
    }

    void append(LuaString s) {
        append(s.bytesUnsafe(), 0, s.length());
    }

    /** Appends text made only of chars below 128 (formatted numbers, escapes). */
    void appendAscii(String s) {
        append(s.getBytes(StandardCharsets.ISO_8859_1), 0, s.length());
    }

    /** Appends {@code count} copies of byte {@code b}. */
    void fill(int b, long count) {
        if (count <= 0) return;
        reserve(count);
        Arrays.fill(buf, len, len + (int) count, (byte) b);
        len += (int) count;
    }

    /** The result, charged as a string before it is copied out of the buffer. */
    LuaString toLuaString() {
        if (len == 0) return LuaString.EMPTY;
        c.memory().charge(Sizes.string(len));
        return LuaString.wrap(Arrays.copyOf(buf, len));
    }
}
