package dev.luavm.stdlib.table;

import dev.luavm.lib.CallContext;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * Argument checks and element access shared by the table functions ({@code checktab},
 * {@code aux_getn}, {@code lua_geti}, {@code lua_seti} in {@code ltablib.c}).
 */
final class TableArgs {
    private TableArgs() {}

    static final int READ = 1;
    static final int WRITE = 2;
    static final int LENGTH = 4;

    private static final LuaString INDEX = LuaString.of("__index");
    private static final LuaString NEWINDEX = LuaString.of("__newindex");
    private static final LuaString LEN = LuaString.of("__len");

    /**
     * {@code checktab}: argument {@code arg} must be a table, or have a metatable providing every
     * metamethod that {@code what} needs; otherwise "table expected, got x".
     */
    static void checkTab(CallContext c, int arg, int what) {
        Object v = c.arg(arg);
        if (v instanceof LuaTable) return;
        LuaTable mt = c.getMetatable(v);
        if (mt != null
                && ((what & READ) == 0 || mt.get(INDEX) != null)
                && ((what & WRITE) == 0 || mt.get(NEWINDEX) != null)
                && ((what & LENGTH) == 0 || mt.get(LEN) != null)) {
            return;
        }
        throw c.typeError(arg, "table");
    }

    /** {@code aux_getn}: checks the argument and returns its length (with {@code __len}). */
    static long checkLength(CallContext c, int arg, int what) {
        checkTab(c, arg, what | LENGTH);
        return c.length(c.arg(arg));
    }

    /** {@code lua_geti}: {@code t[i]} with {@code __index}; raw for tables without a metatable. */
    static Object get(CallContext c, Object t, long i) {
        if (t instanceof LuaTable tab && tab.getMetatable() == null) return tab.getInt(i);
        return c.index(t, i);
    }

    /** {@code lua_seti}: {@code t[i] = v} with {@code __newindex}; raw for tables without a metatable. */
    static void set(CallContext c, Object t, long i, Object v) {
        if (t instanceof LuaTable tab && tab.getMetatable() == null) {
            tab.putInt(i, v);
        } else {
            c.setIndex(t, i, v);
        }
    }
}
