/**
 * The Lua 5.3 standard library as capability bundles, found by {@code dev.luavm.LuaVM} through
 * the service loader. It exports nothing: scripts reach it through capabilities only.
 */
module dev.luavm.stdlib {
    requires dev.luavm;

    provides dev.luavm.lib.Library with
            dev.luavm.stdlib.base.BaseLibrary,
            dev.luavm.stdlib.coroutine.CoroutineLibrary,
            dev.luavm.stdlib.debug.DebugLibrary,
            dev.luavm.stdlib.string.StringLibrary,
            dev.luavm.stdlib.table.TableLibrary,
            dev.luavm.stdlib.math.MathLibrary,
            dev.luavm.stdlib.utf8.Utf8Library,
            dev.luavm.stdlib.os.SafeOsLibrary,
            dev.luavm.stdlib.pkg.PackageLibrary;
    provides dev.luavm.lib.LuaPatterns with dev.luavm.stdlib.string.PatternFinder;
}
