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
    private final String sourceSha256;
    /** the name as given to load ("@script.lua", "=input") and the source, for recordings */
    private final String loadName;
    private final byte[] source;

    CompiledChunk(String name, Prototype main, String sourceSha256, String loadName, byte[] source) {
        this.name = name;
        this.main = main;
        this.sourceSha256 = sourceSha256;
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
        return sourceSha256;
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
