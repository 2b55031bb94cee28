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

    CompiledChunk(String name, Prototype main, String sourceSha256) {
        this.name = name;
        this.main = main;
        this.sourceSha256 = sourceSha256;
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
