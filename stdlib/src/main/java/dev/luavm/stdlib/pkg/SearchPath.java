package dev.luavm.stdlib.pkg;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaString;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * {@code package.searchpath(name, path [, sep [, rep]])}: PUC's template expansion with no file
 * system behind it, so every candidate is reported missing: returns nil and
 * {@code "\n\tno file 'a'\n\tno file 'b'"}. Arguments are read as C strings (up to a '\0').
 */
final class SearchPath {
    private SearchPath() {}

    private static final int BYTES_PER_UNIT = 16;

    static int searchpath(CallContext c) {
        byte[] name = cString(c.checkString(1));
        byte[] path = cString(c.checkString(2));
        byte[] sep = cString(c.optString(3, LuaString.of(".")));
        byte[] rep = cString(c.optString(4, LuaString.of("/")));
        if (sep.length > 0) name = replace(c, name, sep, rep); // replace it by the directory separator
        ByteArrayOutputStream msg = new ByteArrayOutputStream();
        byte[] mark = {'?'};
        long checkAt = 1 << 16;
        int i = 0;
        while (true) {
            while (i < path.length && path[i] == ';') i++; // skip separators
            if (i >= path.length) break; // no more templates
            int l = i;
            while (l < path.length && path[l] != ';') l++;
            byte[] filename = replace(c, Arrays.copyOfRange(path, i, l), mark, name);
            long size = (long) msg.size() + filename.length + 12;
            c.memory().charge(filename.length + 12L);
            // the message is not yet a Lua value the memory walk sees: the whole of it must fit
            // beside what the script holds (checked as it doubles)
            if (size >= checkAt) {
                c.memory().charge(size);
                checkAt = 2 * size;
            }
            if (size > Integer.MAX_VALUE - 64) throw c.error("not enough memory");
            msg.writeBytes("\n\tno file '".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            msg.writeBytes(filename);
            msg.write('\'');
            i = l;
        }
        c.memory().charge(Sizes.STRING_HEADER);
        return c.ret(null, LuaString.wrap(msg.toByteArray()));
    }

    private static byte[] cString(LuaString s) {
        byte[] b = s.bytesUnsafe();
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) return Arrays.copyOf(b, i);
        }
        return b;
    }

    /** {@code luaL_gsub}: every occurrence of {@code p} in {@code s} replaced by {@code r}, metered. */
    static byte[] replace(CallContext c, byte[] s, byte[] p, byte[] r) {
        c.chargeGas(1 + s.length / BYTES_PER_UNIT);
        int count = 0;
        for (int i = indexOf(s, p, 0); i >= 0; i = indexOf(s, p, i + p.length)) count++;
        long size = s.length + (long) count * (r.length - p.length);
        c.chargeGas(size / BYTES_PER_UNIT);
        c.memory().charge(size);
        if (size > Integer.MAX_VALUE - 64) throw c.error("not enough memory");
        byte[] out = new byte[(int) size];
        int at = 0;
        int from = 0;
        for (int i = indexOf(s, p, 0); i >= 0; i = indexOf(s, p, from)) {
            System.arraycopy(s, from, out, at, i - from);
            at += i - from;
            System.arraycopy(r, 0, out, at, r.length);
            at += r.length;
            from = i + p.length;
        }
        System.arraycopy(s, from, out, at, s.length - from);
        return out;
    }

    private static int indexOf(byte[] s, byte[] p, int from) {
        outer:
        for (int i = from; i <= s.length - p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                if (s[i + j] != p[j]) continue outer;
            }
            return i;
        }
        return -1;
    }
}
