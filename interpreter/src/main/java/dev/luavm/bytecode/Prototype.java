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
    /**
     * A chunk's main function only: the source text it was compiled from, kept so that a
     * snapshot can carry the chunk as source and recompile it on restore (never as bytecode);
     * null for nested functions and until {@link #attachChunkText} is called. Counted in
     * {@link #heapBytes()}: the sandbox holds it.
     */
    private byte[] chunkText;
    /** the main function of this function's chunk (itself for a main function), once the text is attached */
    private Prototype chunkMain;
    /** child indices from {@link #chunkMain} down to this function (empty for the main function) */
    private int[] chunkPath;
    /** SHA-256 of the compiled tree ({@link #codeDigest()}), computed on first need */
    private volatile byte[] codeDigest;

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
        return heapBytes(code.length, constants.length, protos.length, upvalues.length, localVars.length)
            + (chunkText == null ? 0 : chunkText.length);
    }

    /** {@link #heapBytes()} of a prototype of these sizes without its chunk's text (for the compiler, before it makes one). */
    public static long heapBytes(int code, int constants, int protos, int upvalues, int localVars) {
        return 64 + 6 * 16 + 8L * code + 8L * constants + 8L * protos + 32L * upvalues + 32L * localVars;
    }

    /**
     * Records the source text this main function was compiled from. Called once, by whoever
     * compiled the chunk, before the prototype is loaded anywhere (so before its bytes are
     * charged); the array must never be modified afterwards.
     *
     * @throws IllegalStateException the text was attached already
     */
    public void attachChunkText(byte[] text) {
        if (chunkText != null || chunkMain != null) throw new IllegalStateException("chunk text already attached");
        chunkText = java.util.Objects.requireNonNull(text);
        // every function of the chunk learns where it sits, so a snapshot can name it by its path
        java.util.ArrayDeque<Prototype> todo = new java.util.ArrayDeque<>();
        chunkMain = this;
        chunkPath = new int[0];
        todo.push(this);
        while (!todo.isEmpty()) {
            Prototype p = todo.pop();
            for (int i = 0; i < p.protos.length; i++) {
                Prototype c = p.protos[i];
                c.chunkMain = this;
                c.chunkPath = java.util.Arrays.copyOf(p.chunkPath, p.chunkPath.length + 1);
                c.chunkPath[p.chunkPath.length] = i;
                todo.push(c);
            }
        }
    }

    /** The main function of this function's chunk, or null when its chunk kept no text. */
    public Prototype chunkMain() {
        return chunkMain;
    }

    /** Child indices from {@link #chunkMain()} to this function (a copy); null when its chunk kept no text. */
    public int[] chunkPath() {
        return chunkPath == null ? null : chunkPath.clone();
    }

    /**
     * SHA-256 over this function's compiled tree: every function's parameters, registers, code,
     * line information, constants, upvalue descriptions and local names, in preorder. Two
     * compilations of the same text by the same compiler give the same digest; a snapshot
     * compares it to tell whether a paused frame's pc still means the same instruction.
     */
    public byte[] codeDigest() {
        byte[] d = codeDigest;
        if (d == null) codeDigest = d = digestTree();
        return d.clone();
    }

    private byte[] digestTree() {
        java.security.MessageDigest md;
        try {
            md = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64);
        java.util.ArrayDeque<Prototype> todo = new java.util.ArrayDeque<>();
        todo.push(this);
        while (!todo.isEmpty()) {
            Prototype p = todo.pop();
            b.clear();
            b.putInt(p.lineDefined).putInt(p.lastLineDefined).putInt(p.numParams).put((byte) (p.isVararg ? 1 : 0))
                    .putInt(p.maxStackSize).putInt(p.code.length).putInt(p.constants.length).putInt(p.protos.length)
                    .putInt(p.upvalues.length).putInt(p.localVars.length);
            md.update(b.array(), 0, b.position());
            digestInts(md, p.code);
            digestInts(md, p.lineInfo);
            for (Object k : p.constants) {
                if (k == null) {
                    md.update((byte) 0);
                } else if (k instanceof Boolean bo) {
                    md.update((byte) (bo ? 2 : 1));
                } else if (k instanceof Long l) {
                    md.update((byte) 3);
                    digestLong(md, l);
                } else if (k instanceof Double dv) {
                    md.update((byte) 4);
                    digestLong(md, Double.doubleToRawLongBits(dv));
                } else {
                    byte[] s = ((LuaString) k).bytesUnsafe();
                    md.update((byte) 5);
                    digestLong(md, s.length);
                    md.update(s);
                }
            }
            for (UpvalueDesc u : p.upvalues) {
                digestText(md, u.name());
                md.update((byte) (u.inStack() ? 1 : 0));
                digestLong(md, u.index());
            }
            for (LocalVar v : p.localVars) {
                digestText(md, v.name());
                digestLong(md, ((long) v.startPc() << 32) | (v.endPc() & 0xFFFFFFFFL));
            }
            for (int i = p.protos.length - 1; i >= 0; i--) todo.push(p.protos[i]);
        }
        return md.digest();
    }

    private static void digestInts(java.security.MessageDigest md, int[] v) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * Math.min(v.length, 1024));
        for (int i = 0; i < v.length; ) {
            b.clear();
            int n = Math.min(v.length - i, 1024);
            for (int j = 0; j < n; j++) b.putInt(v[i + j]);
            md.update(b.array(), 0, b.position());
            i += n;
        }
    }

    private static void digestLong(java.security.MessageDigest md, long v) {
        for (int s = 56; s >= 0; s -= 8) md.update((byte) (v >>> s));
    }

    private static void digestText(java.security.MessageDigest md, String s) {
        byte[] b = s == null ? new byte[0] : s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        digestLong(md, b.length);
        md.update(b);
    }

    /** The source text of this main function (see {@link #attachChunkText}), or null. Never modify it. */
    public byte[] chunkText() {
        return chunkText;
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
