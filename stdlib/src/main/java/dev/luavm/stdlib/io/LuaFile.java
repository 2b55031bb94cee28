package dev.luavm.stdlib.io;

import dev.luavm.lib.FileStream;

/**
 * The payload of a file handle: one of the sandbox's three standard streams, or a file of its
 * file system ({@link FileStream}). The standard streams are never closed. {@code address} makes
 * {@code tostring}'s "file (0x...)" the same on every run (VM rule 7: no identity hashes).
 */
final class LuaFile implements dev.luavm.lib.Persistent {
    enum Kind { STDIN, STDOUT, STDERR, FILE }

    /** the kind a snapshot names a file handle by */
    static final String KIND = "io.file";

    final Kind kind;
    /** the file, for {@link Kind#FILE}; else null */
    final FileStream stream;
    final long address;

    LuaFile(Kind kind) {
        this.kind = kind;
        this.stream = null;
        this.address = 0x55550000L + 0x100L * (kind.ordinal() + 1);
    }

    LuaFile(FileStream stream) {
        this.kind = Kind.FILE;
        this.stream = stream;
        this.address = stream.address();
    }

    boolean isClosed() {
        return stream != null && stream.isClosed();
    }

    boolean standard() {
        return kind != Kind.FILE;
    }

    @Override
    public String persistKind() {
        return KIND;
    }

    /** A file of the file system is not carried (yet): its stream belongs to this sandbox's mounts. */
    @Override
    public String refusal() {
        return kind == Kind.FILE ? "a file handle of the file system (io.open), which a snapshot cannot carry" : null;
    }

    /** Which stream: a restored handle writes to (or reads from) the restored sandbox's own streams. */
    @Override
    public void persist(dev.luavm.lib.SnapshotOut out) {
        out.writeVarint(kind.ordinal());
    }

    static LuaFile restore(dev.luavm.lib.SnapshotIn in) {
        return new LuaFile(Kind.values()[(int) in.readVarint(Kind.STDERR.ordinal())]);
    }
}
