package dev.luavm.stdlib.pkg;

import dev.luavm.value.LuaString;

/** Registry keys of the package library. */
final class Registry {
    private Registry() {}

    /** {@code LUA_LOADED_TABLE}: the table {@code require} caches modules in */
    static final LuaString LOADED = LuaString.of("_LOADED");
    /** {@code LUA_PRELOAD_TABLE} */
    static final LuaString PRELOAD = LuaString.of("_PRELOAD");
    /** the {@code package} table (PUC keeps it as an upvalue of {@code require}) */
    static final LuaString PACKAGE = LuaString.of("dev.luavm.stdlib.pkg.package");
    /** the VM's {@code load}, used to compile host modules */
    static final LuaString LOAD = LuaString.of("dev.luavm.stdlib.pkg.load");
}
