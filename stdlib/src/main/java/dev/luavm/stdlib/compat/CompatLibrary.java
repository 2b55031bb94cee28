package dev.luavm.stdlib.compat;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.stdlib.base.CompatIpairs;
import dev.luavm.stdlib.math.MathCompat;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

import java.util.Map;

/**
 * The {@code compat} bundle: what Lua 5.3.6 adds under {@code LUA_COMPAT_5_2}, which lua's own
 * Makefile and Debian's {@code lua5.3} turn on, so that scripts written for such a build run
 * unchanged:
 * <ul>
 *   <li>{@code bit32} ({@code LUA_COMPAT_BITLIB}, {@link Bit32}), also in {@code package.loaded};</li>
 *   <li>{@code math.atan2}, {@code math.cosh}, {@code math.sinh}, {@code math.tanh},
 *       {@code math.pow}, {@code math.frexp}, {@code math.ldexp}, {@code math.log10}
 *       ({@code LUA_COMPAT_MATHLIB}, {@link MathCompat}), in the {@code math} table (made if
 *       {@code math} is not granted);</li>
 *   <li>the {@code __ipairs} metamethod ({@code LUA_COMPAT_IPAIRS}, {@link CompatIpairs}), when
 *       {@code base} is granted;</li>
 *   <li>{@code string.dump}, which is no compatibility function but which scripts for stock lua5.3
 *       call: here it says why it cannot work ({@code unable to dump given function (binary
 *       chunks are not supported)}) instead of being a call to nil. luavm has no binary chunks
 *       (threat T10): it never returns one.</li>
 * </ul>
 * Nothing else: Debian's lua5.3 has no {@code module}, {@code package.seeall},
 * {@code loadstring}, {@code unpack}, {@code table.maxn} or {@code math.mod} (5.1's), and
 * neither has this bundle. Installed after the other bundles, since it extends their tables.
 * The CLI grants it by default, as stock lua5.3 has it; {@code Capabilities.standard()} does not.
 */
public final class CompatLibrary implements Library {
    private static final LuaString MATH = LuaString.of("math");
    private static final LuaString BIT32 = LuaString.of("bit32");
    private static final LuaString IPAIRS = LuaString.of("ipairs");
    private static final LuaString STRING = LuaString.of("string");
    private static final LuaString DUMP = LuaString.of("dump");

    /** {@code str_dump}'s argument check, then the refusal (there is no binary chunk to give) */
    static final Builtin STRING_DUMP = new Builtin("string.dump") { @Override public int call(CallContext c) {
        c.checkType(1, "function");
        throw c.error("unable to dump given function (binary chunks are not supported)");
    }};
    /** {@code LUA_LOADED_TABLE}, the registry's {@code package.loaded} (when package was installed first) */
    private static final LuaString LOADED = LuaString.of("_LOADED");

    private static final LuaString[] MATH_KEYS;
    private static final Builtin[] MATH_FUNCTIONS;
    private static final LuaString[] BIT32_KEYS;

    static {
        Map<String, Builtin> math = MathCompat.functions();
        MATH_KEYS = new LuaString[math.size()];
        MATH_FUNCTIONS = new Builtin[math.size()];
        int i = 0;
        for (Map.Entry<String, Builtin> e : math.entrySet()) { // a loop, not a stream: no lambda linkage at start-up
            MATH_KEYS[i] = LuaString.of(e.getKey());
            MATH_FUNCTIONS[i++] = e.getValue();
        }
        BIT32_KEYS = Builtin.keys(Bit32.FUNCTIONS, false);
    }

    /** the bit32 table, built once per instance (one LuaVM) and copied into each sandbox */
    private final dev.luavm.lib.TableTemplate bit32 = dev.luavm.lib.TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < BIT32_KEYS.length; i++) lib.put(BIT32_KEYS[i], Bit32.FUNCTIONS.get(i));
    }});

    @Override
    public String name() {
        return "compat";
    }

    @Override
    public boolean installsLast() {
        return true;
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable globals = ctx.globals();
        LuaTable math = globals.get(MATH) instanceof LuaTable t ? t : ctx.newTable();
        for (int i = 0; i < MATH_KEYS.length; i++) math.put(MATH_KEYS[i], MATH_FUNCTIONS[i]);
        globals.put(MATH, math);
        LuaTable string = globals.get(STRING) instanceof LuaTable t ? t : ctx.newTable();
        string.put(DUMP, STRING_DUMP);
        globals.put(STRING, string);
        LuaTable bits = bit32.copy(ctx.memory());
        globals.put(BIT32, bits);
        if (ctx.registry().get(LOADED) instanceof LuaTable loaded) {
            // package installed before this bundle: list what it could not see (else it lists them itself)
            loaded.put(BIT32, bits);
            if (loaded.get(MATH) == null) loaded.put(MATH, math);
            if (loaded.get(STRING) == null) loaded.put(STRING, string);
        }
        if (CompatIpairs.isBaseIpairs(globals.get(IPAIRS))) globals.put(IPAIRS, CompatIpairs.IPAIRS);
    }
}
