package dev.luavm.stdlib.io;

/**
 * The payload of a file handle: one of the sandbox's three standard streams. There are no
 * other files, so none can be opened or closed. {@code address} makes {@code tostring}'s
 * "file (0x...)" the same on every run (VM rule 7: no identity hashes).
 */
final class LuaFile {
    enum Kind { STDIN, STDOUT, STDERR }

    final Kind kind;
    final long address;

    LuaFile(Kind kind) {
        this.kind = kind;
        this.address = 0x55550000L + 0x100L * (kind.ordinal() + 1);
    }
}
