package dev.luavm.stdlib.io;

import dev.luavm.lib.FileStream;

/**
 * The payload of a file handle: one of the sandbox's three standard streams, or a file of its
 * file system ({@link FileStream}). The standard streams are never closed. {@code address} makes
 * {@code tostring}'s "file (0x...)" the same on every run (VM rule 7: no identity hashes).
 */
final class LuaFile {
    enum Kind { STDIN, STDOUT, STDERR, FILE }

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
}
