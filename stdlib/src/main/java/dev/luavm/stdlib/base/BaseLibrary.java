package dev.luavm.stdlib.base;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.meter.Collector;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;

/**
 * The basic functions of Lua 5.3 ({@code lbaselib.c}) minus what a sandbox must not have:
 * no {@code dofile}, {@code loadfile} or {@code require} (package is another bundle), and
 * {@code collectgarbage} drives the sandbox's collector ({@link Collector}). {@code load}
 * is text-only. {@code print} writes through the host environment.
 */
public final class BaseLibrary implements Library {
    private static final LuaString METATABLE = LuaString.of("__metatable");
    private static final LuaString PAIRS = LuaString.of("__pairs");
    /** Values handled within a call's base cost (docs/STDLIB.md, "What gas pays for"). */
    private static final int SMALL = 8;

    /** {@code ipairs}' iterator, which no table holds: a snapshot names it like the others. */
    @Override
    public java.util.List<Builtin> internalBuiltins() {
        return java.util.List.of(IPAIRS_AUX);
    }

    @Override
    public String name() {
        return "base";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable g = ctx.globals();
        if (template.copyInto(g)) {
            g.put(G, g); // the key is there already: only the placeholder value changes
        } else { // another bundle came first: build in place
            fill(g, ctx);
        }
    }

    /** Puts base's globals into {@code g}, in installation order ({@code _G} first, holding {@code g}). */
    private static void fill(LuaTable g, InstallContext ctx) {
        g.put(G, g);
        g.put(VERSION, VERSION_VALUE);
        for (int i = 0; i < FUNCTIONS.length; i++) g.put(FUNCTION_KEYS[i], FUNCTIONS[i]);
        for (int i = 0; i < INTRINSICS.length; i++) g.put(INTRINSIC_KEYS[i], ctx.intrinsic(INTRINSICS[i]));
    }

    /**
     * The globals base installs when it comes first, built once per instance (one LuaVM); {@code _G}
     * holds a placeholder that install replaces by the sandbox's own globals.
     */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable g) {
        g.put(G, Boolean.TRUE);
        g.put(VERSION, VERSION_VALUE);
        for (int i = 0; i < FUNCTIONS.length; i++) g.put(FUNCTION_KEYS[i], FUNCTIONS[i]);
        for (int i = 0; i < INTRINSICS.length; i++) g.put(INTRINSIC_KEYS[i], dev.luavm.vm.LuaState.intrinsic(INTRINSICS[i]));
    }});

    // Keys and constant values are built once: immutable, so shared by every sandbox.
    private static final LuaString G = LuaString.of("_G");
    private static final LuaString VERSION = LuaString.of("_VERSION");
    private static final LuaString VERSION_VALUE = LuaString.of("Lua 5.3");
    private static final Intrinsic[] INTRINSICS = {Intrinsic.PCALL, Intrinsic.XPCALL, Intrinsic.ERROR, Intrinsic.LOAD};
    private static final LuaString[] INTRINSIC_KEYS = intrinsicKeys();

    private static LuaString[] intrinsicKeys() {
        LuaString[] keys = new LuaString[INTRINSICS.length];
        for (int i = 0; i < keys.length; i++) keys[i] = LuaString.of(dev.luavm.vm.LuaState.intrinsic(INTRINSICS[i]).qualifiedName);
        return keys;
    }

    static final Builtin ASSERT = new Builtin("assert") { @Override public int call(CallContext c) {
        if (c.toBoolean(1)) {
            int n = c.nargs();
            if (n > SMALL) c.chargeGas(n); // element work: every argument is returned
            Object[] all = new Object[n];
            for (int i = 0; i < n; i++) all[i] = c.arg(i + 1);
            return c.retArray(all, n);
        }
        c.checkAny(1);
        Object msg = c.nargs() >= 2 ? c.arg(2) : LuaString.of("assertion failed!");
        if (msg instanceof LuaString s) throw c.error(s.toString());
        throw new dev.luavm.vm.LuaError(msg);
    }};

    private static final LuaString TOSTRING_NAME = LuaString.of("tostring");

    /**
     * Like 5.3's print: each argument through the current global {@code tostring}, written as it
     * comes (see {@link PrintLine}), so output made before an error or by a {@code __tostring}
     * keeps 5.3's order.
     */
    static final Builtin PRINT = new Builtin("print") { @Override public int call(CallContext c) {
        Object tostring = c.index(c.globals(), TOSTRING_NAME);
        PrintLine out = new PrintLine(c);
        c.chargeGas(1);
        for (int i = 1; i <= c.nargs(); i++) {
            Object v = c.arg(i);
            LuaString s;
            if (tostring == BaseLibrary.TOSTRING && c.getMetatable(v) == null) {
                s = c.toStringMeta(v); // no metatable: runs no Lua code
            } else {
                out.flush(); // what came before is written before Lua code runs, as in 5.3
                if (tostring == BaseLibrary.TOSTRING) {
                    s = c.toStringMeta(v);
                } else {
                    Object r = c.call1(tostring, v);
                    if (r instanceof LuaString str) s = str;
                    else if (r instanceof Long || r instanceof Double) s = c.toStringMeta(r);
                    else throw c.error("'tostring' must return a string to 'print'");
                }
            }
            if (i > 1) out.add((byte) '\t');
            out.add(s);
        }
        out.add((byte) '\n');
        out.flush();
        return 0;
    }};

    static final Builtin GETMETATABLE = new Builtin("getmetatable") { @Override public int call(CallContext c) {
        c.checkAny(1);
        LuaTable mt = c.getMetatable(c.arg(1));
        if (mt == null) return c.ret(null);
        Object protectedValue = mt.getStr(METATABLE);
        return c.ret(protectedValue != null ? protectedValue : mt);
    }};

    static final Builtin SETMETATABLE = new Builtin("setmetatable") { @Override public int call(CallContext c) {
        LuaTable t = c.checkTable(1);
        Object mt = c.arg(2);
        // 5.3 wants the argument present: setmetatable(t) fails, setmetatable(t, nil) does not
        if (c.nargs() < 2 || mt != null && !(mt instanceof LuaTable)) throw c.argError(2, "nil or table expected");
        LuaTable old = t.getMetatable();
        if (old != null && old.getStr(METATABLE) != null) throw c.error("cannot change a protected metatable");
        t.setMetatable((LuaTable) mt);
        Collector gc = c.memory().collector();
        if (gc != null) gc.register(t, (LuaTable) mt);
        return c.ret(t);
    }};

    /** The iterator ipairs returns: honours __index, as 5.3's ipairs does. */
    static final Builtin IPAIRS_AUX = new Builtin("ipairs_aux") { @Override public int call(CallContext c) {
        long i = c.checkInteger(2) + 1;
        Object t = c.arg(1);
        Object v = t instanceof LuaTable tt && tt.getMetatable() == null ? tt.getInt(i) : c.index(t, i);
        return v == null ? c.ret(null) : c.ret(i, v);
    }};

    static final Builtin IPAIRS = new Builtin("ipairs") { @Override public int call(CallContext c) {
        c.checkAny(1);
        return c.ret(IPAIRS_AUX, c.arg(1), 0L);
    }};

    static final Builtin NEXT = new Builtin("next") { @Override public int call(CallContext c) {
        LuaTable t = c.checkTable(1);
        Object[] kv = new Object[2];
        if (t.next(c.arg(2), kv)) return c.ret(kv[0], kv[1]);
        return c.ret(null);
    }};

    static final Builtin PAIRS_FN = new Builtin("pairs") { @Override public int call(CallContext c) {
        Object t = c.checkAny(1);
        LuaTable mt = c.getMetatable(t);
        Object tm = mt == null ? null : mt.getStr(PAIRS);
        if (tm != null) {
            Object[] r = c.callImplicitly(tm, t); // a metamethod: a host function granted to one module refuses it
            return c.ret(r.length > 0 ? r[0] : null, r.length > 1 ? r[1] : null, r.length > 2 ? r[2] : null);
        }
        // as 5.3's pairsmeta: any value is accepted here; next complains when the loop calls it
        return c.ret(NEXT, t, null);
    }};

    static final Builtin RAWEQUAL = new Builtin("rawequal") { @Override public int call(CallContext c) {
        c.checkAny(1);
        c.checkAny(2);
        Object a = c.arg(1);
        Object b = c.arg(2);
        if (a instanceof LuaString x && b instanceof LuaString y) return c.ret(x.equals(y, c::chargeGas));
        return c.ret(rawEquals(a, b));
    }};

    static boolean rawEquals(Object a, Object b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            if (a instanceof Long x && b instanceof Long y) return x.longValue() == y.longValue();
            if (a instanceof Double x && b instanceof Double y) return x.doubleValue() == y.doubleValue();
            Long ai = a instanceof Long l ? l : LuaNumbers.floatToInteger((Double) a);
            Long bi = b instanceof Long l ? l : LuaNumbers.floatToInteger((Double) b);
            return ai != null && ai.equals(bi);
        }
        if (a instanceof LuaString || a instanceof Boolean) return a.equals(b);
        return false;
    }

    static final Builtin RAWGET = new Builtin("rawget") { @Override public int call(CallContext c) {
        LuaTable t = c.checkTable(1);
        c.checkAny(2);
        return c.ret(t.get(c.arg(2)));
    }};

    static final Builtin RAWLEN = new Builtin("rawlen") { @Override public int call(CallContext c) {
        Object v = c.arg(1);
        if (v instanceof LuaTable t) return c.ret(t.length());
        if (v instanceof LuaString s) return c.ret((long) s.length());
        throw c.argError(1, "table or string expected");
    }};

    static final Builtin RAWSET = new Builtin("rawset") { @Override public int call(CallContext c) {
        LuaTable t = c.checkTable(1);
        c.checkAny(2);
        c.checkAny(3);
        t.put(c.arg(2), c.arg(3));
        return c.ret(t);
    }};

    static final Builtin SELECT = new Builtin("select") { @Override public int call(CallContext c) {
        int top = c.nargs();
        Object first = c.arg(1);
        // lua5.3 looks at the first byte only: select('#x', ...) counts too
        if (first instanceof LuaString s && s.length() > 0 && s.byteAt(0) == '#') return c.ret((long) (top - 1));
        long n = c.checkInteger(1);
        if (n < 0) n = top + n;
        else if (n > top) n = top;
        if (n < 1) throw c.argError(1, "index out of range");
        int count = (int) (top - n);
        c.ensureResults(count);
        Object[] vals = new Object[count];
        for (int i = 0; i < count; i++) vals[i] = c.arg((int) n + 1 + i);
        for (int i = 0; i < count; i++) c.setResult(i, vals[i]);
        return count;
    }};

    static final Builtin TONUMBER = new Builtin("tonumber") { @Override public int call(CallContext c) {
        if (c.isNoneOrNil(2)) {
            Object v = c.checkAny(1);
            if (v instanceof Long || v instanceof Double) return c.ret(v);
            if (v instanceof LuaString s) {
                c.chargeGas(LuaNumbers.parseWork(s)); // byte work: every byte of a long numeral is read
                return c.ret(LuaNumbers.parse(s));
            }
            return c.ret(null);
        }
        long base = c.checkInteger(2);
        c.checkType(1, "string");
        LuaString s = c.checkString(1);
        if (base < 2 || base > 36) throw c.argError(2, "base out of range");
        c.chargeGas(LuaNumbers.parseWork(s));
        return c.ret(parseInBase(s, (int) base));
    }};

    private static Long parseInBase(LuaString s, int base) {
        int i = 0;
        int n = s.length();
        while (i < n && isSpace(s.byteAt(i))) i++;
        boolean neg = false;
        if (i < n && s.byteAt(i) == '-') {
            neg = true;
            i++;
        } else if (i < n && s.byteAt(i) == '+') {
            i++;
        }
        if (i >= n || !Character.isLetterOrDigit(s.byteAt(i))) return null;
        long acc = 0;
        while (i < n && s.byteAt(i) < 128 && Character.isLetterOrDigit(s.byteAt(i))) {
            int ch = s.byteAt(i);
            int d = Character.isDigit(ch) ? ch - '0' : Character.toUpperCase(ch) - 'A' + 10;
            if (d >= base) return null;
            acc = acc * base + d;
            i++;
        }
        while (i < n && isSpace(s.byteAt(i))) i++;
        if (i != n) return null;
        return neg ? -acc : acc;
    }

    private static boolean isSpace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0B;
    }

    static final Builtin TOSTRING = new Builtin("tostring") { @Override public int call(CallContext c) {
        c.checkAny(1);
        return c.ret(c.toStringMeta(c.arg(1)));
    }};

    static final Builtin TYPE = new Builtin("type") { @Override public int call(CallContext c) {
        c.checkAny(1);
        return c.ret(LuaValues.type(c.arg(1)));
    }};

    static final Builtin COLLECTGARBAGE = new Builtin("collectgarbage") { @Override public int call(CallContext c) {
        int opt = c.checkOption(1, "collect", "collect", "stop", "restart", "count", "step", "setpause",
                "setstepmul", "isrunning");
        long data = c.optInteger(2, 0); // checked for every option, as 5.3 does
        return switch (opt) {
            case 0 -> {
                collect(c);
                yield c.ret(0L);
            }
            case 1, 2 -> {
                // reported by "isrunning" only: the meter still walks (and clears) when it must
                Collector gc = c.memory().collector();
                if (gc != null) gc.setRunning(opt == 2);
                yield c.ret(0L);
            }
            case 3 -> c.ret(c.memory().current() / 1024.0);
            case 4 -> {
                // paced as lua5.3's incremental steps (Collector.step): true when it finished a cycle
                Collector gc = c.memory().collector();
                if (gc != null && !gc.step(data, c.memory().current())) yield c.ret(Boolean.FALSE);
                collect(c);
                yield c.ret(Boolean.TRUE);
            }
            case 5, 6 -> c.ret(200L); // the previous pause and step multiplier, as 5.3's defaults
            case 7 -> c.ret(c.memory().collector() == null || c.memory().collector().isRunning());
            default -> throw new IllegalStateException();
        };
    }};

    /** A full collection (a walk of the live heap that clears weak tables), then the finalizers due. */
    private static void collect(CallContext c) {
        c.memory().collect();
        dev.luavm.lib.Finalizers.runPending(c);
    }

    /** For tests and hosts that want the base functions' names. */
    public static CallContext unused() {
        return null;
    }

    // After the builtins above: static fields are initialised in textual order.
    private static final Builtin[] FUNCTIONS = {ASSERT, PRINT, GETMETATABLE, SETMETATABLE, IPAIRS, PAIRS_FN, NEXT,
        RAWEQUAL, RAWGET, RAWLEN, RAWSET, SELECT, TONUMBER, TOSTRING, TYPE, COLLECTGARBAGE};
    private static final LuaString[] FUNCTION_KEYS = Builtin.keys(java.util.Arrays.asList(FUNCTIONS), true);
}
