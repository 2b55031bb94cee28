package dev.luavm.compiler;

import dev.luavm.meter.GasMeter;

/**
 * One compilation's account with its caller's {@link CompileMeter}: every pass of the compiler
 * pays here, before it works or allocates, under the VM's one gas rule (docs/STDLIB.md).
 *
 * <p><b>Work.</b> The source: 1 gas per 8 bytes, charged before each pass in 64 KiB chunks (so
 * the caller's gas meter polls cancel and the clock between chunks). Each token, in each of the
 * two passes that read it (the syntax check, then the parse), and each rule invocation of the
 * parse, which is where code is generated: {@value #UNIT_GAS} gas, charged {@value #BATCH} at a
 * time. Lookups whose cost grows with a table: {@link #lookup} for the constant table and the
 * string and name interning maps (key bytes times the depth of a tree bin, the worst case when
 * crafted keys collide), {@link #scan} for the linear local/upvalue search.
 *
 * <p><b>Memory.</b> The compiler keeps no tree and no token list: what it holds is a frame per
 * level of nesting, the interning maps, the lexer's buffer and the functions it is building.
 * Each is paid for where it is allocated, at the size it has on a 64-bit JVM with compressed
 * references ({@link #FRAME_BYTES} per nesting level, at its high-water mark;
 * {@link #CONSTANT_BYTES} per constant; the code and line arrays as they grow; and so on, see
 * the constants). A function's state is given back when the function is done, and its
 * prototype (the arrays at their final sizes) held instead. The source itself is the caller's
 * and is not copied. Everything held is given back by {@link #close}, when the compilation
 * ends; the syntax check's share (its name map, its lexer's buffer) as soon as it has ended
 * ({@link #mark}, {@link #releaseTo}).
 */
final class CompileAccount {
    /** Tokens or rule invocations paid for at once. */
    static final int BATCH = 64;
    /**
     * Gas per token and per rule invocation. A token costs the front end several
     * instructions' worth of CPU: at 1 gas a compile ran at 36x the median CPU per gas of
     * benchmarks/gas-fairness (the bound is 20x); at 4 it stays under 10x.
     */
    static final long UNIT_GAS = 4;
    /** Source bytes per gas charge while paying for a pass. */
    static final int BYTE_CHUNK = 64 << 10;
    /** A pass's fixed heap: the lexer, the ANTLR parser, its token stream and simulator state. */
    static final long PASS_BYTES = 16 << 10;
    /**
     * Heap per level of nesting: the compiler's frame (with its expression descriptors), the
     * ANTLR context of the rule and the tokens it refers to.
     */
    static final long FRAME_BYTES = 192;
    /** Nesting levels paid for at once. */
    static final int FRAME_BATCH = 16;
    /** A function being compiled: its state, block, lists and their first arrays. */
    static final long FUNCTION_BYTES = 640;
    /** A constant of a function: its slot and its boxed value. */
    static final long CONSTANT_BYTES = 24;
    /** A new key in the chunk's constant table (PUC's ls->h): the key, the map node, the boxed index. */
    static final long SCANNER_ENTRY_BYTES = 96;
    /** A record of a finished function: an upvalue's or a local variable's descriptor. */
    static final long RECORD_BYTES = 24;
    /** An interned string or name: the object, its array header and its map entry. */
    static final long STRING_BYTES = 96;
    /** A name's entry in the map of names to their string constants (two slots of an identity map). */
    static final long NAME_ENTRY_BYTES = 16;
    /** A local variable's debug entry and its active-variable slot. */
    static final long LOCAL_BYTES = 48;
    /** A label or a pending goto: its descriptor and its map and list entries. */
    static final long LABEL_BYTES = 80;
    /** An upvalue's descriptor and slot. */
    static final long UPVALUE_BYTES = 32;
    /** A token's copies while a string literal is read: its text, the contents, the value. */
    static final int LEXEME_COPIES = 3;

    private final CompileMeter meter;
    private long held;
    private long tokens;
    private long nodes;
    private int framesPaid;
    private long lexemePaid;

    CompileAccount(CompileMeter meter) {
        this.meter = meter;
    }

    /** Pays for one pass over {@code length} source bytes. */
    void pass(long length) {
        hold(PASS_BYTES);
        lexemePaid = 0;
        for (long left = length; left > 0; left -= BYTE_CHUNK) {
            meter.work(GasMeter.byteWork(Math.min(left, BYTE_CHUNK)));
        }
    }

    /** Called for each token before it is read. */
    void token() {
        if (tokens++ % BATCH == 0) meter.work(BATCH * UNIT_GAS);
    }

    /** Called for each rule invocation of the parse, before its code is generated. */
    void node() {
        if (nodes++ % BATCH == 0) meter.work(BATCH * UNIT_GAS);
    }

    /** The parse is {@code depth} rules deep: pays for the frames up to the high-water mark. */
    void frames(int depth) {
        if (depth > framesPaid) {
            int to = framesPaid + FRAME_BATCH;
            hold((to - framesPaid) * FRAME_BYTES);
            framesPaid = to;
        }
    }

    /**
     * The lexer's buffer grows to {@code capacity} chars: pays for it and for the copies a
     * token of that size makes when it ends.
     */
    void lexeme(int capacity) {
        long need = (1 + LEXEME_COPIES) * (long) capacity;
        if (need > lexemePaid) {
            hold(need - lexemePaid);
            lexemePaid = need;
        }
    }

    /** A new interned name or string constant of {@code length} bytes. */
    void string(int length) {
        hold(STRING_BYTES + length);
    }

    void label() {
        hold(LABEL_BYTES);
    }

    /**
     * Pays for a lookup of a key of {@code keyBytes} bytes in a hash map of {@code size} keys
     * whose key type orders its keys: at worst (every key crafted into one bin) the map's tree
     * bin compares the key {@code log2(size)} times.
     */
    void lookup(int keyBytes, int size) {
        long depth = 64 - Long.numberOfLeadingZeros(size); // ceil-ish log2(size + 1)
        if (depth > 1 || keyBytes > 8) meter.work(GasMeter.byteWork(keyBytes) * Math.max(1, depth));
    }

    /** Pays for a linear scan of {@code entries} entries (1 gas per 8, as empty slots). */
    void scan(int entries) {
        if (entries >= 8) meter.work(entries >>> 3);
    }

    /** Pays for {@code bytes} of heap about to be allocated. */
    void hold(long bytes) {
        meter.hold(bytes);
        held += bytes;
    }

    /** Gives back {@code bytes} that have become garbage. */
    void release(long bytes) {
        meter.release(bytes);
        held -= bytes;
    }

    /** Bytes held so far (for tests and calibration). */
    long held() {
        return held;
    }

    /** A point to give back to when a pass's own data becomes garbage. */
    long mark() {
        return held;
    }

    /** Gives back everything held since {@code mark}. */
    void releaseTo(long mark) {
        long h = held - mark;
        if (h > 0) {
            meter.release(h);
            held = mark;
        }
        framesPaid = 0;
        lexemePaid = 0;
    }

    /** Ends the compilation's account: gives back everything held. */
    void close() {
        long h = held;
        held = 0;
        if (h > 0) meter.release(h);
    }
}
