package dev.luavm.stdlib.utf8;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/** The {@code utf8} bundle of Lua 5.3.6. */
public final class Utf8Library implements Library {
    /** {@code "[\0-\x7F\xC2-\xF4][\x80-\xBF]*"}: matches exactly one UTF-8 byte sequence */
    private static final byte[] CHARPATTERN = {
        '[', 0, '-', 0x7F, (byte) 0xC2, '-', (byte) 0xF4, ']', '[', (byte) 0x80, '-', (byte) 0xBF, ']', '*'};

    private static final List<Builtin> FUNCTIONS = List.of(
        new Builtin("utf8.char") { @Override public int call(CallContext c) { return Utf8Functions.utfChar(c); } },
        new Builtin("utf8.codepoint") { @Override public int call(CallContext c) { return Utf8Functions.codepoint(c); } },
        new Builtin("utf8.codes") { @Override public int call(CallContext c) { return Utf8Functions.codes(c); } },
        new Builtin("utf8.len") { @Override public int call(CallContext c) { return Utf8Functions.len(c); } },
        new Builtin("utf8.offset") { @Override public int call(CallContext c) { return Utf8Functions.offset(c); } });
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = Builtin.keys(FUNCTIONS, false);
    private static final LuaString CHARPATTERN_KEY = LuaString.of("charpattern");
    private static final LuaString CHARPATTERN_VALUE = LuaString.copyOf(CHARPATTERN, 0, CHARPATTERN.length);
    private static final LuaString UTF8 = LuaString.of("utf8");

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
        lib.put(CHARPATTERN_KEY, CHARPATTERN_VALUE);
    }});

    /** {@code utf8.codes}' iterator, which no table holds: a snapshot names it like the others. */
    @Override
    public java.util.List<Builtin> internalBuiltins() {
        return java.util.List.of(Utf8Functions.ITERATOR);
    }

    @Override
    public String name() {
        return "utf8";
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(UTF8, template.copy(ctx.memory()));
    }
}
