package dev.luavm.stdlib.coroutine;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The {@code coroutine} table. Every function is a VM intrinsic: coroutines are frame-stack
 * switches inside one dispatch loop, never Java threads.
 */
public final class CoroutineLibrary implements Library {
    @Override
    public String name() {
        return "coroutine";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable co = ctx.newTable();
        put(ctx, co, "create", Intrinsic.COROUTINE_CREATE);
        put(ctx, co, "resume", Intrinsic.COROUTINE_RESUME);
        put(ctx, co, "yield", Intrinsic.COROUTINE_YIELD);
        put(ctx, co, "wrap", Intrinsic.COROUTINE_WRAP);
        put(ctx, co, "status", Intrinsic.COROUTINE_STATUS);
        put(ctx, co, "running", Intrinsic.COROUTINE_RUNNING);
        put(ctx, co, "isyieldable", Intrinsic.COROUTINE_ISYIELDABLE);
        ctx.globals().put(LuaString.of("coroutine"), co);
    }

    private static void put(InstallContext ctx, LuaTable t, String name, Intrinsic which) {
        Builtin b = ctx.intrinsic(which);
        t.put(LuaString.of(name), b);
    }
}
