package dev.luavm.stdlib.os;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/**
 * The {@code os} bundle reduced to time: {@code clock date difftime time}, and, when the host
 * granted a file system, {@code remove rename tmpname} over it ({@link OsFiles}). The functions
 * that reach the process (or files, without a file system) are not stubbed but absent, so
 * {@code os.execute} is nil.
 */
public final class SafeOsLibrary implements Library {
    private static final List<Builtin> FUNCTIONS = List.of(
        new Builtin("os.clock") { @Override public int call(CallContext c) { return OsFunctions.clock(c); } },
        new Builtin("os.date") { @Override public int call(CallContext c) { return OsFunctions.date(c); } },
        new Builtin("os.difftime") { @Override public int call(CallContext c) { return OsFunctions.difftime(c); } },
        new Builtin("os.time") { @Override public int call(CallContext c) { return OsFunctions.time(c); } });
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = Builtin.keys(FUNCTIONS, false);
    private static final LuaString OS = LuaString.of("os");
    private static final List<Builtin> FILE_FUNCTIONS = List.of(
        new Builtin("os.remove") { @Override public int call(CallContext c) { return OsFiles.remove(c); } },
        new Builtin("os.rename") { @Override public int call(CallContext c) { return OsFiles.rename(c); } },
        new Builtin("os.tmpname") { @Override public int call(CallContext c) { return OsFiles.tmpname(c); } });

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
    }});

    @Override
    public String name() {
        return "os";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable os = template.copy(ctx.memory());
        if (ctx.host().fileSystem() != null) {
            for (Builtin f : FILE_FUNCTIONS) os.put(LuaString.of(f.name), f);
        }
        ctx.globals().put(OS, os);
    }
}
