package dev.luavm.vm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.lib.CallContext;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code load (chunk [, chunkname [, mode [, env]]])}, as lbaselib.c's {@code luaB_load}, for
 * source text only: binary chunks are refused (a sandbox runs no foreign bytecode).
 *
 * <p>What it holds outside the Lua heap is charged to the sandbox while it holds it: each reader
 * piece as it arrives (memory, and byte work as gas), the joined source, and the compiler's own
 * heap and work ({@link MeteredCompile}); all of it is released when load returns, leaving only
 * the new function as Lua data. So a reader that produces pieces forever ends on the memory or
 * gas limit, and a long compile polls cancel and the clock through the gas meter.
 *
 * <p>Errors while reading or compiling, {@code not enough memory} included, are returned as
 * {@code nil, message}, as lua5.3 does; gas, time and cancellation end the run.
 */
public final class Load {
    private Load() {}

    private static final LuaString DEFAULT_NAME = LuaString.of("=(load)");
    private static final LuaString DEFAULT_MODE = LuaString.of("bt");
    private static final LuaString NOT_A_STRING = LuaString.of("reader function must return a string");
    /** Held per reader piece on top of its bytes: the piece's slot and header. */
    private static final long PIECE_OVERHEAD = Sizes.REF + 16;

    static int call(CallContext c) {
        Ctx x = (Ctx) c;
        Object chunk = c.arg(1);
        MemoryMeter memory = c.memory();
        long[] held = {0};
        try {
            LuaString name;
            byte[] source;
            String mode;
            if (chunk instanceof LuaString s) {
                name = c.optString(2, s);
                mode = c.optString(3, DEFAULT_MODE).toString();
                String refused = refusal(s.bytesUnsafe(), name, mode);
                if (refused != null) return c.ret(null, LuaString.of(refused));
                source = s.bytesUnsafe();
            } else if (chunk instanceof LuaFunction reader) {
                name = c.optString(2, DEFAULT_NAME);
                mode = c.optString(3, DEFAULT_MODE).toString();
                List<LuaString> pieces = new ArrayList<>();
                long total = 0;
                try {
                    for (;;) {
                        Object piece = c.call1(reader);
                        if (piece == null) break;
                        LuaString ps;
                        if (piece instanceof LuaString str) ps = str;
                        else if (piece instanceof Long || piece instanceof Double) ps = Meta.toStr(piece); // lua_tolstring
                        else return c.ret(null, withWhere(x, NOT_A_STRING));
                        if (ps.length() == 0) break;
                        hold(memory, held, ps.length() + PIECE_OVERHEAD);
                        c.chargeBytes(ps.length());
                        if (pieces.isEmpty()) {
                            // PUC checks the mode on the first byte, before reading on
                            String refused = refusal(ps.bytesUnsafe(), name, mode);
                            if (refused != null) return c.ret(null, LuaString.of(refused));
                        }
                        pieces.add(ps);
                        total += ps.length();
                        if (total > Integer.MAX_VALUE - 8) throw LuaError.of("not enough memory");
                    }
                    hold(memory, held, total);
                } catch (LuaError e) {
                    return c.ret(null, e.value());
                }
                source = join(pieces, (int) total);
                if (total == 0 && mode.indexOf('t') < 0) {
                    return c.ret(null, LuaString.of("attempt to load a text chunk (mode is '" + mode + "')"));
                }
            } else {
                throw c.typeError(1, "string");
            }
            Prototype p;
            try {
                p = LuaCompiler.compile(source, name.toLatin1(), new MeteredCompile(x.st.gas, memory));
                // the text stays with the function (a snapshot recompiles it): a string's bytes are
                // immutable, a reader's joined pieces are this call's own
                p.attachChunkText(source);
            } catch (LuaError e) {
                return c.ret(null, e.value());
            }
            memory.charge(codeBytes(p)); // from here on Lua data, seen by the walk
            Object env = c.nargs() >= 4 ? c.arg(4) : x.st.globals;
            return c.ret(x.st.bind(p, env));
        } finally {
            if (held[0] > 0) memory.release(held[0]);
        }
    }

    /** The heap of a compiled chunk: every function's arrays and the chunk name (shared by all). */
    public static long codeBytes(Prototype main) {
        long total = Sizes.string(main.source.length());
        List<Prototype> todo = new ArrayList<>();
        todo.add(main);
        while (!todo.isEmpty()) {
            Prototype p = todo.remove(todo.size() - 1);
            total += p.heapBytes();
            // string constants too: once the compiler's hold is released they are heap like any string
            for (Object k : p.constants) if (k instanceof LuaString s) total += Sizes.string(s.length());
            for (Prototype child : p.protos) todo.add(child);
        }
        return total;
    }

    private static void hold(MemoryMeter memory, long[] held, long bytes) {
        memory.hold(bytes);
        held[0] += bytes;
    }

    /**
     * Why a chunk starting with {@code first} may not be loaded in {@code mode}, or null. As
     * lua5.3's {@code checkmode}; a binary chunk in a mode that allows it is refused in the
     * words of lundump.c's errors ({@code chunkname: why precompiled chunk}).
     */
    private static String refusal(byte[] first, LuaString name, String mode) {
        boolean binary = first.length > 0 && first[0] == 27;
        if (binary) {
            if (mode.indexOf('b') < 0) return "attempt to load a binary chunk (mode is '" + mode + "')";
            return binaryName(name) + ": unsupported precompiled chunk";
        }
        if (mode.indexOf('t') < 0) return "attempt to load a text chunk (mode is '" + mode + "')";
        return null;
    }

    /** The chunk name lundump.c shows. */
    private static String binaryName(LuaString name) {
        String n = name.toLatin1();
        if (n.startsWith("@") || n.startsWith("=")) return n.substring(1);
        if (n.startsWith("\u001b")) return "binary string";
        return n;
    }

    private static LuaString withWhere(Ctx x, LuaString msg) {
        return LuaString.of(DebugInfo.where(x.st.current, 1) + msg);
    }

    private static byte[] join(List<LuaString> pieces, int total) {
        byte[] out = new byte[total];
        int at = 0;
        for (LuaString p : pieces) {
            System.arraycopy(p.bytesUnsafe(), 0, out, at, p.length());
            at += p.length();
        }
        return out;
    }
}
