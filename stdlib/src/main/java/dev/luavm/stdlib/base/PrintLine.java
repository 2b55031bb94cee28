package dev.luavm.stdlib.base;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaString;

/**
 * The line {@code print} writes, passed on piece by piece as 5.3's {@code print} does with
 * {@code lua_writestring}: the output limit (enforced by the host environment's
 * {@code write}) sees each piece as it comes, so no line larger than the output budget is ever
 * assembled (threat T19). Short pieces are gathered in a small fixed buffer so an ordinary line
 * still reaches the sink in one write; a long piece goes straight from its string's bytes in
 * chunks of {@link #CHUNK}, each charged (1 gas per 8 bytes) before it is written, so gas,
 * time and cancellation are polled between the chunks.
 */
final class PrintLine {
    /** the gathering buffer, and the largest piece written in one go */
    static final int CHUNK = 1 << 12;

    private final CallContext c;
    private final byte[] buf = new byte[CHUNK];
    private int len;

    PrintLine(CallContext c) {
        this.c = c;
    }

    void add(byte b) {
        if (len == CHUNK) flush();
        buf[len++] = b;
    }

    void add(LuaString s) {
        int n = s.length();
        if (n <= CHUNK - len) {
            c.chargeBytes(n);
            System.arraycopy(s.bytesUnsafe(), 0, buf, len, n);
            len += n;
            return;
        }
        flush();
        byte[] bytes = s.bytesUnsafe();
        for (int off = 0; off < n; off += CHUNK) {
            int k = Math.min(CHUNK, n - off);
            c.chargeBytes(k);
            c.host().write(bytes, off, k);
        }
    }

    /** Passes on what is gathered (before anything that may run Lua code, and at the end). */
    void flush() {
        if (len > 0) {
            int n = len;
            len = 0;
            c.host().write(buf, 0, n);
        }
    }
}
