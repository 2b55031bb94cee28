package dev.luavm.stdlib.io;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.Persistent;
import dev.luavm.lib.SnapshotIn;
import dev.luavm.lib.SnapshotOut;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.Userdata;

import java.io.IOException;

import java.util.function.Consumer;

/**
 * The function {@code io.lines} and {@code file:lines} return ({@code aux_lines}): each call
 * reads with the formats given after the file; at the end it returns nothing and, for
 * {@code io.lines(name)}, closes the file; a read error is raised. It holds the file and the
 * formats, so it reports them to the live-heap walk, weighs what it was charged, and a snapshot
 * carries it (an iterator of a file system's file is refused with its file).
 */
final class LinesIterator extends Builtin implements Persistent {
    static final String KIND = "io.lines";

    /** the file first, then the formats */
    private final Object[] formats;
    /** {@code io.lines(name)}: the iterator closes the file it opened at the end */
    private final boolean toClose;

    LinesIterator(Object[] formats, boolean toClose) {
        super("lines");
        this.formats = formats;
        this.toClose = toClose;
    }

    /** What making one charges: the function and its slots. */
    static long bytes(int slots) {
        return 64L + 16L * slots;
    }

    @Override
    public int call(CallContext k) {
        LuaFile f = (LuaFile) ((Userdata) formats[0]).payload();
        if (f.isClosed()) throw k.error("file is already closed");
        Object[] r = k.call(IoFunctions.READ_WITH, formats);
        if (r.length > 0 && r[0] != null) return k.retArray(r, r.length);
        if (r.length > 1 && r[1] instanceof LuaString msg) throw k.error(msg.toString()); // an error, not the end
        if (toClose && !f.standard()) {
            try {
                f.stream.close();
            } catch (IOException ignored) {
                // the end of the file was reached; nothing is left to report it to
            }
        }
        return k.ret();
    }

    @Override
    public void forEachReference(Consumer<Object> visitor) {
        for (Object v : formats) visitor.accept(v);
    }

    @Override
    public long estimatedBytes() {
        return bytes(formats.length);
    }

    @Override
    public String persistKind() {
        return KIND;
    }

    @Override
    public void persist(SnapshotOut out) {
        out.writeVarint(toClose ? 1 : 0);
        out.writeVarint(formats.length);
        for (Object v : formats) out.writeValue(v);
    }

    static LinesIterator restore(SnapshotIn in) {
        boolean toClose = in.readVarint(1) == 1;
        int n = (int) in.readVarint(IoFunctions.MAX_LINE_FORMATS + 1);
        if (n < 1) throw in.malformed("a lines iterator without its file");
        in.memory().charge(bytes(n));
        Object[] formats = new Object[n];
        for (int i = 0; i < n; i++) formats[i] = in.readValue();
        if (!(formats[0] instanceof Userdata u) || !(u.payload() instanceof LuaFile)) {
            throw in.malformed("a lines iterator whose file is not a file");
        }
        return new LinesIterator(formats, toClose);
    }
}
