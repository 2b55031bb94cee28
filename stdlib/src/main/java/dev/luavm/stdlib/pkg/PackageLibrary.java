package dev.luavm.stdlib.pkg;

import dev.luavm.lib.CallContext;
import dev.luavm.host.ModuleFiles;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

/**
 * The {@code package} bundle: the global {@code require} and the table {@code package} with
 * {@code loaded}, {@code preload}, {@code searchers}, {@code path}, {@code cpath},
 * {@code config} and {@code searchpath}. A sandbox installs it after the other bundles
 * ({@link #installsLast}) so that {@code package.loaded} lists them, as PUC's
 * {@code luaL_openlibs} does, whatever order the host grants them in.
 */
public final class PackageLibrary implements Library {
    /** {@code LUA_DIRSEP, LUA_PATH_SEP, LUA_PATH_MARK, LUA_EXEC_DIR, LUA_IGMARK} */
    static final String CONFIG = "/\n;\n?\n!\n-\n";
    /** a nominal path: nothing is ever read from it */
    static final String PATH = "./?.lua;./?/init.lua";
    static final String CPATH = "";

    private static final Builtin REQUIRE = new Builtin("require") { @Override public int call(CallContext c) { return Require.require(c); } };
    private static final Builtin SEARCHPATH = new Builtin("package.searchpath") { @Override public int call(CallContext c) { return SearchPath.searchpath(c); } };
    private static final String[] STANDARD = {"coroutine", "string", "table", "math", "utf8", "os", "debug", "io", "bit32"};

    // Keys and constant values are built once: immutable, so shared by every sandbox.
    private static final LuaString[] STANDARD_KEYS = standardKeys();

    /** A loop, not a stream: a class initialiser's lambdas each cost an invokedynamic linkage at start-up. */
    private static LuaString[] standardKeys() {
        LuaString[] keys = new LuaString[STANDARD.length];
        for (int i = 0; i < keys.length; i++) keys[i] = LuaString.of(STANDARD[i]);
        return keys;
    }
    private static final LuaString K_LOADED = LuaString.of("loaded");
    private static final LuaString K_PRELOAD = LuaString.of("preload");
    private static final LuaString K_SEARCHERS = LuaString.of("searchers");
    private static final LuaString K_PATH = LuaString.of("path");
    private static final LuaString K_CPATH = LuaString.of("cpath");
    private static final LuaString K_CONFIG = LuaString.of("config");
    private static final LuaString K_SEARCHPATH = LuaString.of("searchpath");
    private static final LuaString K_G = LuaString.of("_G");
    private static final LuaString K_PACKAGE = LuaString.of("package");
    private static final LuaString K_REQUIRE = LuaString.of("require");
    private static final LuaString V_PATH = LuaString.of(PATH);
    private static final LuaString V_CPATH = LuaString.of(CPATH);
    private static final LuaString V_CONFIG = LuaString.of(CONFIG);

    @Override
    public String name() {
        return "package";
    }

    @Override
    public boolean installsLast() {
        return true;
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
        ModuleFiles files = ctx.host().moduleFiles();
        if (files != null || ctx.host().fileSystem() != null) {
            // lua5.3's order: preload, then Lua files; the host resolver only when there is one
            searchers.putInt(2, FileSearcher.SEARCHER);
            if (ctx.host().hasModuleResolver()) searchers.putInt(3, Require.HOST_SEARCHER);
        } else {
            searchers.putInt(2, Require.HOST_SEARCHER);
        }
        pkg.put(K_LOADED, loaded);
        pkg.put(K_PRELOAD, preload);
        pkg.put(K_SEARCHERS, searchers);
        pkg.put(K_PATH, files == null ? V_PATH : LuaString.of(path(files.directories())));
        pkg.put(K_CPATH, V_CPATH);
        pkg.put(K_CONFIG, V_CONFIG);
        pkg.put(K_SEARCHPATH, SEARCHPATH);

        loaded.put(K_G, globals);
        for (LuaString lib : STANDARD_KEYS) {
            Object value = globals.get(lib);
            if (value != null) loaded.put(lib, value);
        }
        loaded.put(K_PACKAGE, pkg);
        globals.put(K_PACKAGE, pkg);
        globals.put(K_REQUIRE, REQUIRE);
    }

    /** {@code D/?.lua;D/?/init.lua} for each directory, in order, as lua5.3's default path has them for "." */
    static String path(java.util.List<String> directories) {
        StringBuilder b = new StringBuilder();
        for (String d : directories) {
            String dir = d.isEmpty() ? "." : d.endsWith("/") && d.length() > 1 ? d.substring(0, d.length() - 1) : d;
            if (b.length() > 0) b.append(';');
            b.append(dir).append("/?.lua;").append(dir).append("/?/init.lua");
        }
        return b.toString();
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
