package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.FileStream;
import dev.luavm.lib.FileSystem;
import dev.luavm.lib.Finalizers;
import dev.luavm.meter.Collector;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Userdata;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The functions and methods of the {@code io} bundle, after PUC's {@code liolib.c} (5.3.6).
 * Writes pay the byte rule before each piece goes out; those to the standard streams count
 * against the run's output limit (the host environment's {@code write}). Reads pay it for every
 * byte they take in. Files of the sandbox's file system ({@link FileSystem}) fail as lua5.3's
 * do on Linux: {@code nil, message, errno}.
 */
final class IoFunctions {
    private IoFunctions() {}

    /** pieces of a long string are written (and charged) this many bytes at a time */
    static final int CHUNK = 1 << 12;
    /** {@code LUAL_BUFFERSIZE}: setvbuf's default size */
    private static final long BUFFER_SIZE = 8192;
    /** {@code MAXARGLINE} */
    static final int MAX_LINE_FORMATS = 250;
    private static final long USERDATA_BYTES = 64;

    // ---- io.*

    static int write(CallContext c) {
        return write(c, defaultFile(c, IoLibrary.IO_OUTPUT, "output"), 1);
    }

    static int read(CallContext c) {
        return read(c, defaultFile(c, IoLibrary.IO_INPUT, "input"), 1);
    }

    /** {@code io.open(filename [, mode])} */
    static int open(CallContext c) {
        LuaString name = c.checkString(1);
        LuaString mode = c.optString(2, LuaString.of("r"));
        if (!validMode(mode)) throw c.argError(2, "invalid mode");
        c.chargeBytes(name.length());
        try {
            return c.ret(openFile(c, name, mode.toString()));
        } catch (VfsException e) {
            return fileResult(c, e, name);
        }
    }

    /** {@code l_checkmode}: {@code [rwa]%+?b*} */
    static boolean validMode(LuaString mode) {
        int n = mode.length();
        if (n == 0 || "rwa".indexOf(mode.byteAt(0)) < 0) return false;
        int i = 1;
        if (i < n && mode.byteAt(i) == '+') i++;
        for (; i < n; i++) if (mode.byteAt(i) != 'b') return false;
        return true;
    }

    /** Opens a file as a handle; when the handles run out, collects unreachable ones (their __gc closes them) and tries again. */
    private static Userdata openFile(CallContext c, LuaString name, String mode) throws VfsException {
        FileSystem fs = c.host().fileSystem();
        FileStream s;
        try {
            s = fs.open(c, name, mode);
        } catch (VfsException e) {
            if (e.errno() != Errno.EMFILE) throw e;
            c.memory().collect();
            Finalizers.runPending(c);
            s = fs.open(c, name, mode);
        }
        return handle(c, s);
    }

    /** A handle for a stream, registered with the collector so that its __gc closes it. */
    static Userdata handle(CallContext c, FileStream s) {
        try {
            c.memory().charge(USERDATA_BYTES);
        } catch (RuntimeException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // the handle never reached the script
            }
            throw e;
        }
        LuaTable mt = (LuaTable) c.registry().get(IoLibrary.FILE_MT);
        Userdata u = new Userdata(new LuaFile(s), mt);
        Collector gc = c.memory().collector();
        if (gc != null) gc.register(u, mt);
        return u;
    }

    /** {@code opencheckfile}: the file, or the error {@code cannot open file 'name' (reason)}. */
    private static Userdata openChecked(CallContext c, LuaString name, String mode) {
        c.chargeBytes(name.length());
        try {
            return openFile(c, name, mode);
        } catch (VfsException e) {
            throw c.error("cannot open file '" + cName(name) + "' (" + e.errno().message + ")");
        }
    }

    static int lines(CallContext c) {
        if (c.isNoneOrNil(1)) {
            if (!(c.registry().get(IoLibrary.IO_INPUT) instanceof Userdata in)) throw c.error("standard input file is closed");
            tofile(c, in);
            return linesOf(c, in, 2, false);
        }
        LuaString name = c.checkString(1);
        if (c.host().fileSystem() == null) throw c.argError(1, "no files in this sandbox");
        return linesOf(c, openChecked(c, name, "r"), 2, true);
    }

    static int flush(CallContext c) {
        return flush(c, defaultFile(c, IoLibrary.IO_OUTPUT, "output"));
    }

    static int close(CallContext c) {
        if (c.nargs() == 0) return close(c, (Userdata) c.registry().get(IoLibrary.IO_OUTPUT));
        return close(c, checkFile(c, 1));
    }

    static int type(CallContext c) {
        c.checkAny(1);
        if (!(c.arg(1) instanceof Userdata u && u.payload() instanceof LuaFile f)) return c.ret((Object) null);
        return c.ret(LuaString.of(f.isClosed() ? "closed file" : "file"));
    }

    static int output(CallContext c) {
        return defaultFileAccess(c, IoLibrary.IO_OUTPUT, "w");
    }

    static int input(CallContext c) {
        return defaultFileAccess(c, IoLibrary.IO_INPUT, "r");
    }

    /** {@code io.tmpfile()}: a file in the {@code /tmp} mount, open "w+", already removed. */
    static int tmpfile(CallContext c) {
        try {
            return c.ret(handle(c, c.host().fileSystem().tmpfile(c)));
        } catch (VfsException e) {
            return fileResult(c, e, null);
        }
    }

    /** {@code g_iofile}: with a handle or a name, makes it the default; returns the default. */
    private static int defaultFileAccess(CallContext c, LuaString key, String mode) {
        if (!c.isNoneOrNil(1)) {
            if (c.arg(1) instanceof LuaString || c.arg(1) instanceof Long || c.arg(1) instanceof Double) {
                if (c.host().fileSystem() == null) throw c.argError(1, "no files in this sandbox");
                c.registry().put(key, openChecked(c, c.checkString(1), mode));
            } else {
                Userdata u = checkFile(c, 1);
                tofile(c, u);
                c.registry().put(key, u);
            }
        }
        return c.ret(c.registry().get(key));
    }

    // ---- file methods

    static int fileWrite(CallContext c) {
        Userdata u = checkFile(c, 1);
        tofile(c, u);
        return write(c, u, 2);
    }

    static int fileRead(CallContext c) {
        Userdata u = checkFile(c, 1);
        tofile(c, u);
        return read(c, u, 2);
    }

    static int fileLines(CallContext c) {
        Userdata u = checkFile(c, 1);
        tofile(c, u);
        return linesOf(c, u, 2, false);
    }

    static int fileFlush(CallContext c) {
        return flush(c, checkFile(c, 1));
    }

    static int fileClose(CallContext c) {
        return close(c, checkFile(c, 1));
    }

    static int setvbuf(CallContext c) {
        LuaFile f = tofile(c, checkFile(c, 1));
        int mode = c.checkOption(2, null, "no", "full", "line");
        c.optInteger(3, BUFFER_SIZE);
        if (f.standard()) return c.ret(Boolean.TRUE);
        try {
            f.stream.setvbuf(mode, BUFFER_SIZE);
            return c.ret(Boolean.TRUE);
        } catch (IOException e) {
            return fileResult(c, e, null);
        }
    }

    /** {@code f_seek}; the standard streams are pipes or terminals: lua5.3 gets ESPIPE there. */
    static int seek(CallContext c) {
        LuaFile f = tofile(c, checkFile(c, 1));
        int whence = c.checkOption(2, "cur", "set", "cur", "end");
        long offset = c.optInteger(3, 0);
        if (f.standard()) return c.ret(null, LuaString.of(Errno.ESPIPE.message), (long) Errno.ESPIPE.code);
        try {
            return c.ret(f.stream.seek(whence, offset));
        } catch (IOException e) {
            return fileResult(c, e, null);
        }
    }

    static int tostring(CallContext c) {
        LuaFile f = (LuaFile) checkFile(c, 1).payload();
        if (f.isClosed()) return c.ret(LuaString.of("file (closed)"));
        return c.ret(LuaString.of(String.format("file (0x%08x)", f.address)));
    }

    /** {@code io_gc}: a file of the file system still open is closed (a failure is ignored). */
    static int gc(CallContext c) {
        if (c.arg(1) instanceof Userdata u && u.payload() instanceof LuaFile f && !f.standard() && !f.isClosed()) {
            try {
                f.stream.close();
            } catch (IOException ignored) {
                // as PUC: a finalizer has no one to tell
            }
        }
        return c.ret();
    }

    // ---- shared

    /** {@code aux_close}: the standard files refuse; a file's flush failure is its result. */
    private static int close(CallContext c, Userdata u) {
        LuaFile f = tofile(c, u);
        if (f.standard()) return c.ret(null, LuaString.of("cannot close standard file"));
        try {
            f.stream.close();
            return c.ret(Boolean.TRUE);
        } catch (IOException e) {
            return fileResult(c, e, null);
        }
    }

    private static int flush(CallContext c, Userdata u) {
        LuaFile f = tofile(c, u);
        if (f.standard()) {
            c.host().flush();
            return c.ret(Boolean.TRUE);
        }
        try {
            f.stream.flush();
            return c.ret(Boolean.TRUE);
        } catch (IOException e) {
            return fileResult(c, e, null);
        }
    }

    /** {@code getiofile}: the default input or output, which must be open. */
    private static Userdata defaultFile(CallContext c, LuaString key, String which) {
        Object v = c.registry().get(key);
        if (!(v instanceof Userdata u) || ((LuaFile) u.payload()).isClosed()) {
            throw c.error("standard " + which + " file is closed");
        }
        return u;
    }

    /** {@code tofile}: an open handle, else "attempt to use a closed file". */
    private static LuaFile tofile(CallContext c, Userdata u) {
        LuaFile f = (LuaFile) u.payload();
        if (f.isClosed()) throw c.error("attempt to use a closed file");
        return f;
    }

    /** {@code luaL_checkudata(L, i, "FILE*")}: argument i must be a file handle ("FILE* expected, got T"). */
    static Userdata checkFile(CallContext c, int i) {
        if (c.arg(i) instanceof Userdata u && u.payload() instanceof LuaFile) return u;
        throw c.typeError(i, "FILE*");
    }

    private static int badDescriptor(CallContext c) {
        return c.ret(null, LuaString.of(Errno.EBADF.message), (long) Errno.EBADF.code);
    }

    /** {@code luaL_fileresult} for a failure: nil, "name: reason" (or the reason alone), errno. */
    static int fileResult(CallContext c, IOException e, LuaString name) {
        Errno errno = e instanceof VfsException v ? v.errno() : Errno.EIO;
        String reason = errno.message;
        LuaString msg;
        if (name == null) {
            msg = LuaString.of(reason);
        } else {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            byte[] n = name.bytesUnsafe();
            int len = 0;
            while (len < name.length() && n[len] != 0) len++; // as C's %s prints it
            b.write(n, 0, len);
            b.writeBytes((": " + reason).getBytes(StandardCharsets.US_ASCII));
            msg = c.newString(b.toByteArray());
        }
        return c.ret(null, msg, (long) errno.code);
    }

    /** A name as C's {@code %s} shows it (up to a NUL), for messages. */
    private static String cName(LuaString name) {
        byte[] n = name.bytesUnsafe();
        int len = 0;
        while (len < name.length() && n[len] != 0) len++;
        return new String(n, 0, len, StandardCharsets.ISO_8859_1);
    }

    /** {@code g_write}: strings and numbers (integers "%d", floats "%.14g"); returns the file. */
    private static int write(CallContext c, Userdata file, int first) {
        LuaFile f = (LuaFile) file.payload();
        int n = c.nargs();
        IOException failure = null;
        for (int i = first; i <= n; i++) {
            Object v = c.arg(i);
            LuaString s;
            if (v instanceof Long l) s = LuaNumbers.toLuaString(l);
            else if (v instanceof Double d) s = LuaString.ofLatin1(LuaNumbers.formatG(d, 14, false));
            else s = c.checkString(i);
            if (f.kind == LuaFile.Kind.STDIN) return badDescriptor(c);
            if (failure != null) continue; // as C: the arguments are still checked, nothing more is written
            try {
                if (f.kind == LuaFile.Kind.FILE && !(v instanceof LuaString)) {
                    c.chargeBytes(s.length());
                    f.stream.writeNumber(s.bytesUnsafe(), 0, s.length(), v instanceof Double); // fprintf, not fwrite
                } else {
                    emit(c, f, s);
                }
            } catch (IOException e) {
                failure = e;
            }
        }
        return failure != null ? fileResult(c, failure, null) : c.ret(file);
    }

    /**
     * Writes one piece: to a standard stream in charged chunks, so gas, time and cancel are
     * polled between them; to a file in one {@code fwrite}, as PUC's (glibc's buffering depends
     * on the size of each call), paid first.
     */
    private static void emit(CallContext c, LuaFile f, LuaString s) throws IOException {
        byte[] bytes = s.bytesUnsafe();
        int len = s.length();
        if (f.kind == LuaFile.Kind.FILE) {
            for (int off = 0; off < len; off += CHUNK) c.chargeBytes(Math.min(CHUNK, len - off));
            f.stream.write(bytes, 0, len);
            return;
        }
        for (int off = 0; off < len; off += CHUNK) {
            int k = Math.min(CHUNK, len - off);
            c.chargeBytes(k);
            switch (f.kind) {
                case STDERR -> c.host().writeError(bytes, off, k);
                case STDOUT -> c.host().write(bytes, off, k);
                default -> f.stream.write(bytes, off, k);
            }
        }
    }

    /** {@code g_read}: each format in turn, stopping at the first that fails (nil). */
    private static int read(CallContext c, Userdata file, int first) {
        LuaFile f = (LuaFile) file.payload();
        ByteSource source;
        if (f.kind == LuaFile.Kind.FILE) {
            f.stream.clearError(); // g_read's clearerr
            source = ByteSource.of(f.stream);
        }
        else if (f.kind != LuaFile.Kind.STDIN || c.host().input() == null) return badDescriptor(c);
        else source = ByteSource.of(c.host().input());
        InputReader in = new InputReader(c, source);
        int n = c.nargs();
        try {
            if (n < first) {
                LuaString line = in.line(false);
                if (f.kind == LuaFile.Kind.FILE && f.stream.error() != null) return fileResult(c, new VfsException(f.stream.error()), null);
                return c.ret(line);
            }
            Object[] out = new Object[n - first + 1];
            int k = 0;
            for (int i = first; i <= n; i++) {
                Object v = readFormat(c, in, i);
                out[k++] = v;
                if (v == null) break;
            }
            // g_read asks ferror after all the formats: a failure on the way is the result
            if (f.kind == LuaFile.Kind.FILE && f.stream.error() != null) return fileResult(c, new VfsException(f.stream.error()), null);
            return c.retArray(out, k);
        } catch (IOException e) {
            return fileResult(c, e, null);
        }
    }

    private static Object readFormat(CallContext c, InputReader in, int i) throws IOException {
        Object fmt = c.arg(i);
        if (fmt instanceof Long || fmt instanceof Double) {
            long count = c.checkInteger(i);
            if (count == 0) return in.testEof();
            return in.chars(count < 0 ? Long.MAX_VALUE : count); // C's size_t: a negative count is huge
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

    /**
     * {@code aux_lines}: an iterator reading the formats given after the file; at the end it
     * returns nothing and, for {@code io.lines(name)}, closes the file; a read error is raised.
     */
    private static int linesOf(CallContext c, Userdata file, int first, boolean toClose) {
        int n = c.nargs();
        if (n - first + 1 > MAX_LINE_FORMATS) throw c.argError(MAX_LINE_FORMATS + first, "too many arguments");
        Object[] formats = new Object[Math.max(0, n - first + 1) + 1];
        formats[0] = file;
        for (int i = first; i <= n; i++) formats[i - first + 1] = c.arg(i);
        c.memory().charge(LinesIterator.bytes(formats.length));
        return c.ret(new LinesIterator(formats, toClose));
    }

    /** g_read on the iterator's file, which it already checked is open. */
    static final Builtin READ_WITH = new Builtin("read") { @Override public int call(CallContext k) { return read(k, (Userdata) k.arg(1), 2); } };

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
