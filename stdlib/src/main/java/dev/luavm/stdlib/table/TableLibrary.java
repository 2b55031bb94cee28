package dev.luavm.stdlib.table;

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
        Builtin.of("table.concat", TableConcat::concat),
        Builtin.of("table.insert", TableEdit::insert),
        Builtin.of("table.move", TableEdit::move),
        Builtin.of("table.pack", TablePack::pack),
        Builtin.of("table.remove", TableEdit::remove),
        Builtin.of("table.sort", TableSort::sort),
        Builtin.of("table.unpack", TablePack::unpack));
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = FUNCTIONS.stream().map(f -> LuaString.of(f.name)).toArray(LuaString[]::new);
    private static final LuaString TABLE = LuaString.of("table");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(lib -> {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
    });

    @Override
    public String name() {
        return "table";
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(TABLE, template.copy(ctx.memory()));
    }
}
