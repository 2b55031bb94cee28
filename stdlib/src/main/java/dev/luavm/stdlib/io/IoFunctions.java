package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.Userdata;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The functions and methods of the {@code io} bundle, after PUC's {@code liolib.c} (5.3.6).
 * Writes pay the byte rule before each piece goes out and count against the run's output
 * limit (the host environment's {@code write}); reads pay it for every byte they take in.
 */
final class IoFunctions {
    private IoFunctions() {}

    /** pieces of a long string are written (and charged) this many bytes at a time */
    static final int CHUNK = 1 << 12;

    // ---- io.*

    static int write(CallContext c) {
        return write(c, defaultFile(c, IoLibrary.IO_OUTPUT), 1);
    }

    static int read(CallContext c) {
        return read(c, defaultFile(c, IoLibrary.IO_INPUT), 1);
    }

    static int lines(CallContext c) {
        if (!c.isNoneOrNil(1)) throw c.argError(1, "no files in this sandbox");
        Userdata in = defaultFile(c, IoLibrary.IO_INPUT);
        return linesOf(c, in, 2);
    }

    static int flush(CallContext c) {
        c.host().flush();
        return c.ret(Boolean.TRUE);
    }

    static int close(CallContext c) {
        if (!c.isNoneOrNil(1)) checkFile(c, 1);
        return closeRefused(c);
    }

    static int type(CallContext c) {
        c.checkAny(1);
        return c.ret(c.arg(1) instanceof Userdata u && u.payload() instanceof LuaFile ? LuaString.of("file") : null);
    }

    static int output(CallContext c) {
        return defaultFileAccess(c, IoLibrary.IO_OUTPUT);
    }

    static int input(CallContext c) {
        return defaultFileAccess(c, IoLibrary.IO_INPUT);
    }

    /** {@code g_iofile}: with a handle, makes it the default; names are refused; returns the default. */
    private static int defaultFileAccess(CallContext c, LuaString key) {
        if (!c.isNoneOrNil(1)) {
            if (c.arg(1) instanceof LuaString) throw c.argError(1, "no files in this sandbox");
            c.registry().put(key, checkFile(c, 1));
        }
        return c.ret(c.registry().get(key));
    }

    // ---- file methods

    static int fileWrite(CallContext c) {
        return write(c, checkFile(c, 1), 2);
    }

    static int fileRead(CallContext c) {
        return read(c, checkFile(c, 1), 2);
    }

    static int fileLines(CallContext c) {
        return linesOf(c, checkFile(c, 1), 2);
    }

    static int fileFlush(CallContext c) {
        checkFile(c, 1);
        c.host().flush();
        return c.ret(Boolean.TRUE);
    }

    static int fileClose(CallContext c) {
        checkFile(c, 1);
        return closeRefused(c);
    }

    static int setvbuf(CallContext c) {
        checkFile(c, 1);
        c.checkOption(2, null, "no", "full", "line");
        c.optInteger(3, CHUNK);
        return c.ret(Boolean.TRUE);
    }

    /** The standard streams are pipes or terminals: lua5.3 gets ESPIPE there. */
    static int seek(CallContext c) {
        checkFile(c, 1);
        c.checkOption(2, "cur", "set", "cur", "end");
        c.optInteger(3, 0);
        return c.ret(null, LuaString.of("Illegal seek"), 29L);
    }

    static int tostring(CallContext c) {
        LuaFile f = (LuaFile) checkFile(c, 1).payload();
        return c.ret(LuaString.of(String.format("file (0x%08x)", f.address)));
    }

    // ---- shared

    private static int closeRefused(CallContext c) {
        return c.ret(null, LuaString.of("cannot close standard file"));
    }

    private static Userdata defaultFile(CallContext c, LuaString key) {
        return (Userdata) c.registry().get(key);
    }

    /** {@code tofile}: argument i must be a file handle ("FILE* expected, got T"). */
    static Userdata checkFile(CallContext c, int i) {
        if (c.arg(i) instanceof Userdata u && u.payload() instanceof LuaFile) return u;
        throw c.typeError(i, "FILE*");
    }

    private static int badDescriptor(CallContext c) {
        return c.ret(null, LuaString.of("Bad file descriptor"), 9L);
    }

    /** {@code g_write}: strings and numbers (integers "%d", floats "%.14g"); returns the file. */
    private static int write(CallContext c, Userdata file, int first) {
        LuaFile f = (LuaFile) file.payload();
        int n = c.nargs();
        for (int i = first; i <= n; i++) {
            Object v = c.arg(i);
            LuaString s;
            if (v instanceof Long l) s = LuaNumbers.toLuaString(l);
            else if (v instanceof Double d) s = LuaString.ofLatin1(LuaNumbers.formatG(d, 14, false));
            else s = c.checkString(i);
            if (f.kind == LuaFile.Kind.STDIN) return badDescriptor(c);
            emit(c, f, s);
        }
        return c.ret(file);
    }

    /** Writes one piece in charged chunks, so gas, time and cancel are polled between them. */
    private static void emit(CallContext c, LuaFile f, LuaString s) {
        byte[] bytes = s.bytesUnsafe();
        int len = s.length();
        for (int off = 0; off < len; off += CHUNK) {
            int k = Math.min(CHUNK, len - off);
            c.chargeBytes(k);
            if (f.kind == LuaFile.Kind.STDERR) c.host().writeError(bytes, off, k);
            else c.host().write(bytes, off, k);
        }
    }

    /** {@code g_read}: each format in turn, stopping at the first that fails (nil). */
    private static int read(CallContext c, Userdata file, int first) {
        LuaFile f = (LuaFile) file.payload();
        if (f.kind != LuaFile.Kind.STDIN || c.host().input() == null) return badDescriptor(c);
        InputReader in = new InputReader(c, c.host().input());
        int n = c.nargs();
        try {
            if (n < first) return c.ret(in.line(false));
            Object[] out = new Object[n - first + 1];
            int k = 0;
            for (int i = first; i <= n; i++) {
                Object v = readFormat(c, in, i);
                out[k++] = v;
                if (v == null) break;
            }
            return c.retArray(out, k);
        } catch (IOException e) {
            return c.ret(null, LuaString.of("Input/output error"), 5L);
        }
    }

    private static Object readFormat(CallContext c, InputReader in, int i) throws IOException {
        Object fmt = c.arg(i);
        if (fmt instanceof Long || fmt instanceof Double) {
            long count = c.checkInteger(i);
            return count == 0 ? in.testEof() : in.chars(count);
        }
        LuaString s = c.checkString(i);
        int at = s.length() > 0 && s.byteAt(0) == '*' ? 1 : 0; // 5.3 still accepts "*l"
        int ch = s.length() > at ? s.byteAt(at) : 0;
        return switch (ch) {
            case 'n' -> in.number();
            case 'l' -> in.line(false);
            case 'L' -> in.line(true);
            case 'a' -> in.all();
            default -> throw c.argError(i, "invalid format");
        };
    }

    /** {@code aux_lines}: an iterator reading the formats given after the file, nil at the end. */
    private static int linesOf(CallContext c, Userdata file, int first) {
        int n = c.nargs();
        if (n - first + 1 > 250) throw c.argError(250 + first, "too many arguments");
        Object[] formats = new Object[Math.max(0, n - first + 1) + 1];
        formats[0] = file;
        for (int i = first; i <= n; i++) formats[i - first + 1] = c.arg(i);
        Builtin next = Builtin.of("lines", k -> {
            Object[] r = k.call(READ_WITH, formats);
            if (r.length > 0 && r[0] == null && r.length > 1 && r[1] instanceof LuaString msg) {
                throw k.error(msg.toString()); // io_readline: an error, not the end
            }
            return r.length == 0 ? k.ret() : k.retArray(r, r.length);
        });
        c.memory().charge(64L + 16L * formats.length);
        return c.ret(next);
    }

    private static final Builtin READ_WITH = Builtin.of("read", IoFunctions::fileRead);

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
