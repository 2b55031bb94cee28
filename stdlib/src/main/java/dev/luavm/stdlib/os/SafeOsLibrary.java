package dev.luavm.stdlib.os;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/**
 * The {@code os} bundle reduced to time: {@code clock date difftime time}. The functions that
 * reach the process or the file system are not stubbed but absent, so {@code os.execute} is nil.
 */
public final class SafeOsLibrary implements Library {
    private static final List<Builtin> FUNCTIONS = List.of(
        Builtin.of("os.clock", OsFunctions::clock),
        Builtin.of("os.date", OsFunctions::date),
        Builtin.of("os.difftime", OsFunctions::difftime),
        Builtin.of("os.time", OsFunctions::time));

    @Override
    public String name() {
        return "os";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable lib = ctx.newTable();
        for (Builtin f : FUNCTIONS) lib.put(LuaString.of(f.name), f);
        ctx.globals().put(LuaString.of("os"), lib);
    }
}
