package dev.luavm.compiler;

import dev.luavm.meter.GasMeter;

/**
 * One compilation's account with its caller's {@link CompileMeter}: every pass of the compiler
 * pays here, before it works, under the VM's one gas rule (docs/STDLIB.md):
 * <ul>
 *   <li>the source: byte work, 1 gas per 8 bytes, charged before lexing in 64 KiB chunks (so
 *       the caller's gas meter polls cancel and the clock between chunks), and the copies the
 *       front end makes of it held as memory: 5 bytes per source byte, for the Latin-1 text,
 *       the lexer's buffer (up to twice a token while it grows), the token text and a string
 *       literal's value, which all coexist while a huge literal is lexed;</li>
 *   <li>each token (lexer and syntax check) and each parse-tree node (ANTLR parse):
 *       {@value #UNIT_GAS} gas, plus the heap the compiler keeps for it, charged
 *       {@value #BATCH} at a time before the batch is made; code generation, {@value #UNIT_GAS}
 *       gas per statement, expression and suffix;</li>
 *   <li>lookups whose cost grows with a table: {@link #lookup} for the constant table, the
 *       string and name interning maps (key bytes times the depth of a tree bin, the worst case
 *       when crafted keys collide), {@link #scan} for the linear local/upvalue search.</li>
 * </ul>
 * Everything held is given back by {@link #close}, when the compilation ends.
 *
 * <p>{@link #TOKEN_BYTES} and {@link #NODE_BYTES} were calibrated against the peak retained
 * heap of a compile (sampled after full GCs, 64-bit HotSpot with compressed oops) on dense
 * shapes: {@code x = 1} lines, {@code {1,1,...}} and {@code {'s1','s2',...}} constructors, call
 * statements, field chains, {@code or} chains, function statements. The estimate is 1.27x to
 * 1.8x what was measured (about 490 bytes per source byte for {@code x = 1} lines); recalibrate
 * when the grammar or the tree changes.
 */
final class CompileAccount {
    /** Tokens or nodes paid for at once. */
    static final int BATCH = 64;
    /**
     * Gas per token, parse-tree node and code-generation step. A token costs the front end
     * (lexer, ANTLR's parse, the tree) several instructions' worth of CPU: at 1 gas a compile
     * ran at 36x the median CPU per gas of benchmarks/gas-fairness (the bound is 20x); at 4 it
     * stays under 10x.
     */
    static final long UNIT_GAS = 4;
    /** Source bytes per gas charge while paying for the lexer. */
    static final int BYTE_CHUNK = 64 << 10;
    /** Bytes held per source byte (see the class comment). */
    static final long SOURCE_COPIES = 5;
    /** Heap per token: the token, its text, its parse-tree leaf and its slot in lists. */
    static final long TOKEN_BYTES = 160;
    /** Heap per parse-tree rule node and the code generated for it. */
    static final long NODE_BYTES = 128;

    private final CompileMeter meter;
    private long held;
    private long tokens;
    private long nodes;
    private long steps;

    CompileAccount(CompileMeter meter) {
        this.meter = meter;
    }

    /** Pays for lexing {@code length} source bytes and for the copies made of them. */
    void source(long length) {
        hold(SOURCE_COPIES * length + 64);
        for (long left = length; left > 0; left -= BYTE_CHUNK) {
            meter.work(GasMeter.byteWork(Math.min(left, BYTE_CHUNK)));
        }
    }

    /** Called for each token before it is read. */
    void token() {
        if (tokens++ % BATCH == 0) {
            meter.work(BATCH * UNIT_GAS);
            hold(BATCH * TOKEN_BYTES);
        }
    }

    /** Called for each parse-tree rule node as it is made. */
    void node() {
        if (nodes++ % BATCH == 0) {
            meter.work(BATCH * UNIT_GAS);
            hold(BATCH * NODE_BYTES);
        }
    }

    /**
     * Called by code generation for each statement, expression and suffix it compiles:
     * {@value #UNIT_GAS} gas, charged {@value #BATCH} at a time, so that generating code for a
     * big tree (after the parse has paid for its nodes) still polls cancel and the clock.
     */
    void step() {
        if (steps++ % BATCH == 0) meter.work(BATCH * UNIT_GAS);
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

    private void hold(long bytes) {
        meter.hold(bytes);
        held += bytes;
    }

    /** Bytes held so far (for tests and calibration). */
    long held() {
        return held;
    }

    /** Ends the compilation's account: gives back everything held. */
    void close() {
        long h = held;
        held = 0;
        if (h > 0) meter.release(h);
    }
}
