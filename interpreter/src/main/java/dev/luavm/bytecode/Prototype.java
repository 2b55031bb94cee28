package dev.luavm.bytecode;

import dev.luavm.value.LuaString;

/**
 * A compiled Lua function: the immutable result of compilation, shared by every closure made
 * from it and by every sandbox that runs the chunk (so nothing in it may change after the
 * compiler hands it over, except the closure cache, which PUC also keeps per prototype).
 *
 * <p>Constants are {@code Long}, {@code Double}, {@link LuaString}, {@code Boolean} or
 * {@code null}. Line info holds one source line per instruction.
 */
public final class Prototype {
    /** Chunk name as given to load ("@file.lua", "=stdin", or the source text). */
    public final LuaString source;
    public final int lineDefined;
    public final int lastLineDefined;
    public final int numParams;
    public final boolean isVararg;
    /** registers needed by this function */
    public final int maxStackSize;
    public final int[] code;
    /**
     * The same array as {@link #code}, reached through a second field on purpose: the dispatch
     * loop fetches the opcode from {@code code} and each case re-reads its operands from here.
     * To the JIT the two are unrelated loads, so operand decoding stays inside its case instead
     * of being shared by all cases, hoisted above the switch and spilled (see
     * benchmarks/PROFILE.md).
     */
    public final int[] operands;
    public final Object[] constants;
    public final Prototype[] protos;
    public final UpvalueDesc[] upvalues;
    /** source line of each instruction */
    public final int[] lineInfo;
    /** local variable debug info, for error messages naming locals */
    public final LocalVar[] localVars;

    public Prototype(LuaString source, int lineDefined, int lastLineDefined, int numParams, boolean isVararg,
                     int maxStackSize, int[] code, Object[] constants, Prototype[] protos,
                     UpvalueDesc[] upvalues, int[] lineInfo, LocalVar[] localVars) {
        this.source = source;
        this.lineDefined = lineDefined;
        this.lastLineDefined = lastLineDefined;
        this.numParams = numParams;
        this.isVararg = isVararg;
        this.maxStackSize = maxStackSize;
        this.code = code;
        this.operands = code;
        this.constants = constants;
        this.protos = protos;
        this.upvalues = upvalues;
        this.lineInfo = lineInfo;
        this.localVars = localVars;
    }

    /**
     * Bytes of this function's own arrays (code, lines, slots for constants, nested functions,
     * upvalues and locals), for the memory walk; the constants, nested functions and the source
     * name are objects of their own.
     */
    public long heapBytes() {
        return heapBytes(code.length, constants.length, protos.length, upvalues.length, localVars.length);
    }

    /** {@link #heapBytes()} of a prototype of these sizes (for the compiler, before it makes one). */
    public static long heapBytes(int code, int constants, int protos, int upvalues, int localVars) {
        return 64 + 6 * 16 + 8L * code + 8L * constants + 8L * protos + 32L * upvalues + 32L * localVars;
    }

    /** Line of the instruction at {@code pc}, or -1 when unknown. */
    public int lineAt(int pc) {
        return pc >= 0 && pc < lineInfo.length ? lineInfo[pc] : -1;
    }

    /**
     * Name of the {@code n}-th (1-based) local variable active at {@code pc}, or null, as PUC's
     * {@code luaF_getlocalname}.
     */
    public String localName(int n, int pc) {
        for (LocalVar v : localVars) {
            if (v.startPc > pc) break;
            if (pc < v.endPc) {
                n--;
                if (n == 0) return v.name;
            }
        }
        return null;
    }

    /** How a closure finds an upvalue: in the enclosing function's registers or its upvalues. */
    public record UpvalueDesc(String name, boolean inStack, int index) {}

    /** A local variable's name and the pc range [startPc, endPc) in which it is active. */
    public record LocalVar(String name, int startPc, int endPc) {}
}
