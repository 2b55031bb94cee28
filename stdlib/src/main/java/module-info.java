/**
 * The Lua 5.3 standard library as capability bundles, found by {@code dev.luavm.LuaVM} through
 * the service loader. It exports nothing: scripts reach it through capabilities only. The
 * {@code provides} list must name every class of {@code META-INF/services/dev.luavm.lib.Library}
 * (class-path users read that file; {@code StandardSandboxTest} compares the two).
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
            dev.luavm.stdlib.pkg.PackageLibrary,
            dev.luavm.stdlib.docs.DocsLibrary,
            dev.luavm.stdlib.io.IoLibrary,
            dev.luavm.stdlib.os.ExitLibrary,
            dev.luavm.stdlib.compat.CompatLibrary;
    provides dev.luavm.lib.LuaPatterns with dev.luavm.stdlib.string.PatternFinder;
}
