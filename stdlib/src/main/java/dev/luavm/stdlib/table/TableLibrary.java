package dev.luavm.stdlib.table;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
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
        new Builtin("table.concat") { @Override public int call(CallContext c) { return TableConcat.concat(c); } },
        new Builtin("table.insert") { @Override public int call(CallContext c) { return TableEdit.insert(c); } },
        new Builtin("table.move") { @Override public int call(CallContext c) { return TableEdit.move(c); } },
        new Builtin("table.pack") { @Override public int call(CallContext c) { return TablePack.pack(c); } },
        new Builtin("table.remove") { @Override public int call(CallContext c) { return TableEdit.remove(c); } },
        new Builtin("table.sort") { @Override public int call(CallContext c) { return TableSort.sort(c); } },
        new Builtin("table.unpack") { @Override public int call(CallContext c) { return TablePack.unpack(c); } });
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = Builtin.keys(FUNCTIONS, false);
    private static final LuaString TABLE = LuaString.of("table");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
    }});

    @Override
    public String name() {
        return "table";
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(TABLE, template.copy(ctx.memory()));
    }
}
