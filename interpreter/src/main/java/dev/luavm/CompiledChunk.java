package dev.luavm;

import dev.luavm.bytecode.Prototype;

/**
 * A chunk compiled once and runnable in any number of sandboxes, on any threads at once
 * ({@link Sandbox#run}): compiled code is immutable, and everything a run changes (closures,
 * tables, the closure cache) belongs to the sandbox running it.
 */
public final class CompiledChunk {
    private final String name;
    private final Prototype main;
    /** the source (hashed when an audit log asks: hashing at start-up cost the CLI; kept for recordings) */
    private final byte[] source;
    private volatile String sourceSha256;
    /** the name as given to load ("@script.lua", "=input"), for recordings */
    private final String loadName;

    CompiledChunk(String name, Prototype main, String loadName, byte[] source) {
        this.name = name;
        this.main = main;
        this.loadName = loadName;
        this.source = source;
    }

    /** The chunk name as load saw it ({@code "@script.lua"}, {@code "=input"}): what a replay compiles under. */
    String loadName() {
        return loadName;
    }

    /** The source (not copied: callers must not change it); for recordings. */
    byte[] source() {
        return source;
    }

    /** Hex SHA-256 of the source the chunk was compiled from (for audit logs). */
    public String sourceSha256() {
        String h = sourceSha256;
        if (h == null) {
            synchronized (this) {
                if (sourceSha256 == null) {
                    sourceSha256 = dev.luavm.audit.Digests.sha256(source);
                }
                h = sourceSha256;
            }
        }
        return h;
    }

    /** The chunk name as used in messages ("invoice.lua", "input"). */
    public String name() {
        return name;
    }

    /** The main function, for the runtime. */
    Prototype prototype() {
        return main;
    }

    /**
     * A {@code luac -l}-style listing of the chunk's bytecode; {@code full} adds constants,
     * locals and upvalues ({@code luac -l -l}).
     */
    public String listing(boolean full) {
        return dev.luavm.bytecode.Disassembler.listing(main, full);
    }

    @Override
    public String toString() {
        return "CompiledChunk[" + name + "]";
    }
}
