package dev.luavm.stdlib.pkg;

import dev.luavm.host.ModuleFiles;
import dev.luavm.lib.CallContext;
import dev.luavm.meter.Sizes;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.value.LuaString;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * {@code package.searchpath(name, path [, sep [, rep]])}: PUC's template expansion. A candidate
 * under a mount point of the sandbox's file system is found when it is a regular file there; any
 * other when it is a module file inside the host's module directories ({@link ModuleFiles});
 * with neither, every candidate is reported missing: nil and
 * {@code "\n\tno file 'a'\n\tno file 'b'"}. Arguments are read as C strings (up to a '\0').
 */
final class SearchPath {
    private SearchPath() {}

    static int searchpath(CallContext c) {
        byte[] name = cString(c, c.checkString(1));
        byte[] path = cString(c, c.checkString(2));
        byte[] sep = cString(c, c.optString(3, LuaString.of(".")));
        byte[] rep = cString(c, c.optString(4, LuaString.of("/")));
        Object found = search(c, name, path, sep, rep);
        if (found instanceof String f) return c.ret(c.newString(f));
        return c.ret(null, found);
    }

    /**
     * PUC's {@code searchpath}: the first candidate that is a readable module file (only with
     * the host's module directories, {@link ModuleFiles}) as a Java string, else the message
     * listing every candidate as a Lua string.
     */
    static Object search(CallContext c, byte[] name, byte[] path, byte[] sep, byte[] rep) {
        ModuleFiles files = c.host().moduleFiles();
        dev.luavm.lib.FileSystem fs = c.host().fileSystem();
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
            c.chargeBytes(l - i + 12L); // the template and the message line around it
            byte[] filename = replace(c, Arrays.copyOfRange(path, i, l), mark, name);
            if (fs != null && fs.covers(filename)) {
                // under a mount point: a name of the sandbox's file system, never of the host's
                if (fs.fileSize(c, filename) >= 0) return new String(filename, java.nio.charset.StandardCharsets.UTF_8);
            } else if (files != null) {
                String f = new String(filename, java.nio.charset.StandardCharsets.UTF_8);
                if (files.size(f) >= 0) return f;
            }
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
        return LuaString.wrap(msg.toByteArray());
    }

    /** The bytes up to the first '\0', as C sees the string; the scan is byte work. */
    static byte[] cString(CallContext c, LuaString s) {
        byte[] b = s.bytesUnsafe();
        c.chargeBytes(b.length);
        for (int i = 0; i < b.length; i++) {
            if (b[i] == 0) return Arrays.copyOf(b, i);
        }
        return b;
    }

    /** {@code luaL_gsub}: every occurrence of {@code p} in {@code s} replaced by {@code r}, metered. */
    static byte[] replace(CallContext c, byte[] s, byte[] p, byte[] r) {
        ByteWork compared = ByteWork.scan(c); // a naive search: every byte compared is paid
        IntList at = new IntList();
        for (int i = indexOf(compared, s, p, 0); i >= 0; i = indexOf(compared, s, p, i + p.length)) {
            c.memory().charge(Integer.BYTES);
            at.add(i);
        }
        long size = s.length + (long) at.size * (r.length - p.length);
        c.chargeBytes(size);
        c.memory().charge(size);
        if (size > Integer.MAX_VALUE - 64) throw c.error("not enough memory");
        byte[] out = new byte[(int) size];
        int to = 0;
        int from = 0;
        for (int k = 0; k < at.size; k++) {
            int i = at.values[k];
            System.arraycopy(s, from, out, to, i - from);
            to += i - from;
            System.arraycopy(r, 0, out, to, r.length);
            to += r.length;
            from = i + p.length;
        }
        System.arraycopy(s, from, out, to, s.length - from);
        return out;
    }

    private static int indexOf(ByteWork compared, byte[] s, byte[] p, int from) {
        outer:
        for (int i = from; i <= s.length - p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                compared.step();
                if (s[i + j] != p[j]) continue outer;
            }
            return i;
        }
        return -1;
    }

    /** Match positions, without boxing. */
    private static final class IntList {
        int[] values = new int[8];
        int size;

        void add(int v) {
            if (size == values.length) values = Arrays.copyOf(values, size * 2);
            values[size++] = v;
        }
    }
}
