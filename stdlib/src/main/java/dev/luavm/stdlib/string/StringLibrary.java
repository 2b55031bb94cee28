package dev.luavm.stdlib.string;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The {@code string} capability bundle: installs a fresh {@code string} table in the sandbox's
 * globals and a per-sandbox string metatable {@code {__index = string}}, so
 * {@code ("x"):rep(3)} works and one sandbox's changes to either table are invisible to others
 * (threat T11). There is no {@code string.dump} (threat T10).
 *
 * <p>The functions themselves are shared, stateless {@link Builtin}s. This class holds the
 * simple ones ({@code len sub upper lower rep reverse byte char}); the others live with their
 * machinery: {@link PatternFunctions} ({@code find match gmatch gsub} over a
 * {@link PatternMatcher}), {@link StringFormat} ({@code format}, numbers by {@link Printf}) and
 * {@link StringPack} ({@code pack unpack packsize}). Every function charges gas in proportion to
 * the bytes it handles and charges memory for its result before allocating it
 * ({@link ByteBuilder}); behaviour and messages are Lua 5.3.6's {@code lstrlib.c}.
 */
public final class StringLibrary implements Library {
    /** PUC's MAXSIZE in 5.3: results longer than INT_MAX are "too large". */
    static final long MAXSIZE = Integer.MAX_VALUE;

    static final Builtin LEN = new Builtin("string.len") { @Override public int call(CallContext c) { return c.ret((long) c.checkString(1).length()); } };
    static final Builtin SUB = new Builtin("string.sub") { @Override public int call(CallContext c) { return StringLibrary.sub(c); } };
    static final Builtin UPPER = new Builtin("string.upper") { @Override public int call(CallContext c) { return mapBytes(c, true); } };
    static final Builtin LOWER = new Builtin("string.lower") { @Override public int call(CallContext c) { return mapBytes(c, false); } };
    static final Builtin REP = new Builtin("string.rep") { @Override public int call(CallContext c) { return StringLibrary.rep(c); } };
    static final Builtin REVERSE = new Builtin("string.reverse") { @Override public int call(CallContext c) { return StringLibrary.reverse(c); } };
    static final Builtin BYTE = new Builtin("string.byte") { @Override public int call(CallContext c) { return StringLibrary.byteFn(c); } };
    static final Builtin CHAR = new Builtin("string.char") { @Override public int call(CallContext c) { return StringLibrary.charFn(c); } };

    /** Every function of the bundle, in {@code lstrlib.c}'s order (without dump). */
    static final Builtin[] FUNCTIONS = {
        BYTE, CHAR, PatternFunctions.FIND, StringFormat.FORMAT, PatternFunctions.GMATCH,
        PatternFunctions.GSUB, LEN, LOWER, PatternFunctions.MATCH, REP, REVERSE, SUB, UPPER,
        StringPack.PACK, StringPack.PACKSIZE, StringPack.UNPACK,
    };

    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = Builtin.keys(java.util.Arrays.asList(FUNCTIONS), false);
    private static final LuaString STRING = LuaString.of("string");
    private static final LuaString INDEX = LuaString.of("__index");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS[i]);
    }});

    /** {@code string.gmatch} iterators in a snapshot go on where they were. */
    @Override
    public java.util.List<dev.luavm.lib.Unpersister> unpersisters() {
        return java.util.List.of(new dev.luavm.lib.Unpersister() {
            @Override
            public String kind() {
                return PatternFunctions.GmatchIterator.KIND;
            }

            @Override
            public Object restore(dev.luavm.lib.SnapshotIn in) {
                return PatternFunctions.GmatchIterator.restore(in);
            }
        });
    }

    @Override
    public String name() {
        return "string";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable string = template.copy(ctx.memory());
        ctx.globals().put(STRING, string);
        LuaTable meta = ctx.newTable();
        meta.put(INDEX, string);
        ctx.setStringMetatable(meta);
    }

    private static int sub(CallContext c) {
        LuaString s = c.checkString(1);
        int l = s.length();
        long start = PatternFunctions.posrelat(c.checkInteger(2), l);
        long end = PatternFunctions.posrelat(c.optInteger(3, -1), l);
        if (start < 1) start = 1;
        if (end > l) end = l;
        if (start > end) return c.ret(LuaString.EMPTY);
        if (start == 1 && end == l) return c.ret(s);
        return c.ret(ByteBuilder.substring(c, s.bytesUnsafe(), (int) start - 1, (int) end));
    }

    private static int mapBytes(CallContext c, boolean upper) {
        byte[] s = c.checkString(1).bytesUnsafe();
        byte[] r = ByteBuilder.allocateUncharged(c, s.length);
        for (int from = 0; from < s.length; from += ByteWork.CHUNK) { // paid chunk by chunk
            int to = Math.min(s.length, from + ByteWork.CHUNK);
            c.chargeBytes(to - from);
            for (int i = from; i < to; i++) {
                int ch = s[i] & 0xFF;
                r[i] = (byte) (upper ? CType.toUpper(ch) : CType.toLower(ch));
            }
        }
        return c.ret(LuaString.wrap(r));
    }

    private static int reverse(CallContext c) {
        byte[] s = c.checkString(1).bytesUnsafe();
        byte[] r = ByteBuilder.allocateUncharged(c, s.length);
        for (int from = 0; from < s.length; from += ByteWork.CHUNK) { // paid chunk by chunk
            int to = Math.min(s.length, from + ByteWork.CHUNK);
            c.chargeBytes(to - from);
            for (int i = from; i < to; i++) r[i] = s[s.length - 1 - i];
        }
        return c.ret(LuaString.wrap(r));
    }

    /**
     * {@code string.rep(s, n [, sep])}. The size check is PUC's, done before any work:
     * {@code l + lsep > MAXSIZE / n} raises "resulting string too large", so
     * {@code ("x"):rep(2^40)} fails at once instead of overflowing. The total is then known
     * exactly and charged before the result is allocated.
     */
    private static int rep(CallContext c) {
        LuaString s = c.checkString(1);
        long n = c.checkInteger(2);
        LuaString sep = c.optString(3, LuaString.EMPTY);
        if (n <= 0) return c.ret(LuaString.EMPTY);
        long l = s.length();
        long lsep = sep.length();
        if (l + lsep > MAXSIZE / n) throw c.error("resulting string too large");
        long total = n * l + (n - 1) * lsep; // at most MAXSIZE, by the check above
        if (total == 0) return c.ret(LuaString.EMPTY);
        byte[] r = ByteBuilder.allocate(c, total); // gas for the whole result first: no allocation it cannot pay for
        byte[] sb = s.bytesUnsafe();
        byte[] sepb = sep.bytesUnsafe();
        int p = 0;
        for (long k = 0; k < n; k++) {
            if (k > 0 && lsep > 0) {
                System.arraycopy(sepb, 0, r, p, sepb.length);
                p += sepb.length;
            }
            System.arraycopy(sb, 0, r, p, sb.length);
            p += sb.length;
        }
        return c.ret(LuaString.wrap(r));
    }

    private static int byteFn(CallContext c) {
        LuaString s = c.checkString(1);
        int l = s.length();
        long posi = PatternFunctions.posrelat(c.optInteger(2, 1), l);
        long pose = PatternFunctions.posrelat(c.optInteger(3, posi), l);
        if (posi < 1) posi = 1;
        if (pose > l) pose = l;
        if (posi > pose) return 0;
        if (pose - posi >= Integer.MAX_VALUE) throw c.error("string slice too long");
        int n = (int) (pose - posi) + 1;
        c.chargeGas(n);
        c.ensureResults(n);
        for (int i = 0; i < n; i++) c.setResult(i, (long) s.byteAt((int) posi - 1 + i));
        return n;
    }

    private static int charFn(CallContext c) {
        int n = c.nargs();
        c.chargeGas(n); // element work: one per value converted
        byte[] r = ByteBuilder.allocateUncharged(c, n);
        for (int i = 1; i <= n; i++) {
            long ch = c.checkInteger(i);
            if ((ch & 0xFF) != ch) throw c.argError(i, "value out of range");
            r[i - 1] = (byte) ch;
        }
        return c.ret(LuaString.wrap(r));
    }
}
