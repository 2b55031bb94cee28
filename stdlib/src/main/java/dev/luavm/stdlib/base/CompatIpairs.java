package dev.luavm.stdlib.base;

import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * {@code ipairs} as Lua 5.3.6 builds it under {@code LUA_COMPAT_IPAIRS} (part of
 * {@code LUA_COMPAT_5_2}, on in Debian's lua5.3): a value whose metatable has an
 * {@code __ipairs} field gets what that function returns (three values), as {@code pairs} does
 * with {@code __pairs}; any other gets base's iterator. The {@code compat} bundle puts it in
 * place of base's {@code ipairs}.
 */
public final class CompatIpairs {
    private CompatIpairs() {}

    private static final LuaString IPAIRS_META = LuaString.of("__ipairs");

    /** {@code pairsmeta(L, "__ipairs", 1, ipairsaux)} */
    public static final Builtin IPAIRS = new Builtin("ipairs") { @Override public int call(CallContext c) {
        Object t = c.checkAny(1);
        LuaTable mt = c.getMetatable(t);
        Object tm = mt == null ? null : mt.getStr(IPAIRS_META);
        if (tm != null) {
            Object[] r = c.callImplicitly(tm, t); // a metamethod, as __pairs is called
            return c.ret(r.length > 0 ? r[0] : null, r.length > 1 ? r[1] : null, r.length > 2 ? r[2] : null);
        }
        return c.ret(BaseLibrary.IPAIRS_AUX, t, 0L);
    }};

    /** True for base's {@code ipairs}, the function {@link #IPAIRS} replaces. */
    public static boolean isBaseIpairs(Object fn) {
        return fn == BaseLibrary.IPAIRS;
    }
}
