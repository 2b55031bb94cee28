package dev.luavm.stdlib.coroutine;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaState;

/**
 * The {@code coroutine} table. Every function is a VM intrinsic: coroutines are frame-stack
 * switches inside one dispatch loop, never Java threads.
 */
public final class CoroutineLibrary implements Library {
    /** the fields of {@code coroutine}, in installation order */
    private static final Intrinsic[] FUNCTIONS = {
        Intrinsic.COROUTINE_CREATE, Intrinsic.COROUTINE_RESUME, Intrinsic.COROUTINE_YIELD, Intrinsic.COROUTINE_WRAP,
        Intrinsic.COROUTINE_STATUS, Intrinsic.COROUTINE_RUNNING, Intrinsic.COROUTINE_ISYIELDABLE};
    /** their keys, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = {
        LuaString.of("create"), LuaString.of("resume"), LuaString.of("yield"), LuaString.of("wrap"),
        LuaString.of("status"), LuaString.of("running"), LuaString.of("isyieldable")};
    private static final LuaString COROUTINE = LuaString.of("coroutine");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], LuaState.intrinsic(FUNCTIONS[i]));
    }});

    @Override
    public String name() {
        return "coroutine";
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(COROUTINE, template.copy(ctx.memory()));
    }
}
