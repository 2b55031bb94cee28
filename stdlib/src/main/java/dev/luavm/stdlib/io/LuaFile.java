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

    /**
     * An open file of the file system is not carried (yet): its stream belongs to this sandbox's
     * mounts. A closed one is (scripts keep closed handles, and finalizer lists hold them until a
     * collection): it comes back closed.
     */
    @Override
    public String refusal() {
        return kind == Kind.FILE && !isClosed() ? "an open file of the file system (io.open), which a snapshot cannot carry"
                + " (close it first)" : null;
    }

    /** Which stream: a restored handle writes to (or reads from) the restored sandbox's own streams; a closed file, its number. */
    @Override
    public void persist(dev.luavm.lib.SnapshotOut out) {
        out.writeVarint(kind.ordinal());
        if (kind == Kind.FILE) out.writeLong(address);
    }

    static LuaFile restore(dev.luavm.lib.SnapshotIn in) {
        Kind k = Kind.values()[(int) in.readVarint(Kind.FILE.ordinal())];
        return k == Kind.FILE ? new LuaFile(new ClosedStream(in.readLong())) : new LuaFile(k);
    }

    /** A file closed before the snapshot: every operation finds it closed. */
    private record ClosedStream(long address) implements FileStream {
        @Override
        public int read() throws java.io.IOException {
            throw closed();
        }

        @Override
        public void unread() {
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
            throw closed();
        }

        @Override
        public void write(byte[] b, int off, int len) throws java.io.IOException {
            throw closed();
        }

        @Override
        public void writeNumber(byte[] b, int off, int len, boolean isFloat) throws java.io.IOException {
            throw closed();
        }

        @Override
        public void clearError() {
        }

        @Override
        public dev.luavm.vfs.Errno error() {
            return null;
        }

        @Override
        public long seek(int whence, long offset) throws java.io.IOException {
            throw closed();
        }

        @Override
        public void flush() throws java.io.IOException {
            throw closed();
        }

        @Override
        public void setvbuf(int mode, long size) throws java.io.IOException {
            throw closed();
        }

        @Override
        public void close() {
        }

        @Override
        public boolean isClosed() {
            return true;
        }

        private static java.io.IOException closed() {
            return new java.io.IOException("file is closed");
        }
    }
}
