package dev.luavm.stdlib.pkg;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The {@code package} bundle: the global {@code require} and the table {@code package} with
 * {@code loaded}, {@code preload}, {@code searchers}, {@code path}, {@code cpath},
 * {@code config} and {@code searchpath}. Install it after the other bundles so that
 * {@code package.loaded} lists them, as PUC's {@code luaL_openlibs} does.
 */
public final class PackageLibrary implements Library {
    /** {@code LUA_DIRSEP, LUA_PATH_SEP, LUA_PATH_MARK, LUA_EXEC_DIR, LUA_IGMARK} */
    static final String CONFIG = "/\n;\n?\n!\n-\n";
    /** a nominal path: nothing is ever read from it */
    static final String PATH = "./?.lua;./?/init.lua";
    static final String CPATH = "";

    private static final Builtin REQUIRE = Builtin.of("require", Require::require);
    private static final Builtin SEARCHPATH = Builtin.of("package.searchpath", SearchPath::searchpath);
    private static final String[] STANDARD = {"coroutine", "string", "table", "math", "utf8", "os", "debug", "io"};

    @Override
    public String name() {
        return "package";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable globals = ctx.globals();
        LuaTable registry = ctx.registry();
        LuaTable pkg = ctx.newTable();
        LuaTable loaded = registry.get(Registry.LOADED) instanceof LuaTable t ? t : ctx.newTable();
        LuaTable preload = registry.get(Registry.PRELOAD) instanceof LuaTable t ? t : ctx.newTable();
        registry.put(Registry.LOADED, loaded);
        registry.put(Registry.PRELOAD, preload);
        registry.put(Registry.PACKAGE, pkg);
        Builtin load = loadIntrinsic(ctx);
        if (load != null) registry.put(Registry.LOAD, load);

        LuaTable searchers = ctx.newTable();
        searchers.putInt(1, Require.PRELOAD_SEARCHER);
        searchers.putInt(2, Require.HOST_SEARCHER);
        pkg.put(LuaString.of("loaded"), loaded);
        pkg.put(LuaString.of("preload"), preload);
        pkg.put(LuaString.of("searchers"), searchers);
        pkg.put(LuaString.of("path"), LuaString.of(PATH));
        pkg.put(LuaString.of("cpath"), LuaString.of(CPATH));
        pkg.put(LuaString.of("config"), LuaString.of(CONFIG));
        pkg.put(LuaString.of("searchpath"), SEARCHPATH);

        loaded.put(LuaString.of("_G"), globals);
        for (String lib : STANDARD) {
            Object value = globals.get(LuaString.of(lib));
            if (value != null) loaded.put(LuaString.of(lib), value);
        }
        loaded.put(LuaString.of("package"), pkg);
        globals.put(LuaString.of("package"), pkg);
        globals.put(LuaString.of("require"), REQUIRE);
    }

    /** The VM's {@code load}, or null when this VM offers none (then host modules cannot load). */
    private static Builtin loadIntrinsic(InstallContext ctx) {
        try {
            return ctx.intrinsic(Intrinsic.LOAD);
        } catch (UnsupportedOperationException absent) {
            return null;
        }
    }
}
