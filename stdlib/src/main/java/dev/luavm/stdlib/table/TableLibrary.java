package dev.luavm.stdlib.table;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/**
 * The {@code table} bundle: {@code concat insert move pack remove sort unpack}, with Lua 5.3.6
 * semantics and messages. The builtins are stateless and shared by every sandbox.
 */
public final class TableLibrary implements Library {
    private static final List<Builtin> FUNCTIONS = List.of(
        Builtin.of("table.concat", TableConcat::concat),
        Builtin.of("table.insert", TableEdit::insert),
        Builtin.of("table.move", TableEdit::move),
        Builtin.of("table.pack", TablePack::pack),
        Builtin.of("table.remove", TableEdit::remove),
        Builtin.of("table.sort", TableSort::sort),
        Builtin.of("table.unpack", TablePack::unpack));

    @Override
    public String name() {
        return "table";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable lib = ctx.newTable();
        for (Builtin f : FUNCTIONS) lib.put(LuaString.of(f.name), f);
        ctx.globals().put(LuaString.of("table"), lib);
    }
}
