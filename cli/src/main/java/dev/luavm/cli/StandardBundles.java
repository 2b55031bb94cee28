package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.lib.Library;

import java.util.List;

/**
 * The runtime the command line builds: the standard library's bundles and the compiled tier's
 * code generator named here, instead of found by {@link java.util.ServiceLoader}.
 *
 * <p>Why: start-up. The engine finds its bundles with {@code ServiceLoader} (module policy: it
 * depends on antlr4-runtime alone, so it cannot name them), which reads
 * {@code META-INF/services} out of the jar, instantiates the providers reflectively on a helper
 * thread with a large stack ({@code RoomyStack}), and does it twice per run (once for the
 * runtime, once for {@link Capabilities.Builder#build()}'s check of bundle names). The CLI
 * depends on the standard library and the compiled tier, so it can name them: about 10 ms of
 * CPU off every {@code luavm} process (benchmarks/PROFILE.md, "Start-up: builtins without
 * invokedynamic"). Embedders keep {@code ServiceLoader}.
 *
 * <p>The list must be the services file's, in its order (the order bundles are offered and
 * installed in); {@code StandardBundlesTest} compares the two, so a bundle added to stdlib and
 * not here fails the build.
 */
final class StandardBundles {
    private StandardBundles() {}

    /** New instances of every standard bundle, in {@code META-INF/services/dev.luavm.lib.Library}'s order. */
    static List<Library> all() {
        return List.of(
                new dev.luavm.stdlib.base.BaseLibrary(),
                new dev.luavm.stdlib.coroutine.CoroutineLibrary(),
                new dev.luavm.stdlib.debug.DebugLibrary(),
                new dev.luavm.stdlib.string.StringLibrary(),
                new dev.luavm.stdlib.table.TableLibrary(),
                new dev.luavm.stdlib.math.MathLibrary(),
                new dev.luavm.stdlib.utf8.Utf8Library(),
                new dev.luavm.stdlib.os.SafeOsLibrary(),
                new dev.luavm.stdlib.pkg.PackageLibrary(),
                new dev.luavm.stdlib.docs.DocsLibrary(),
                new dev.luavm.stdlib.io.IoLibrary(),
                new dev.luavm.stdlib.os.ExitLibrary(),
                new dev.luavm.stdlib.compat.CompatLibrary());
    }

    /** A runtime builder with the standard bundles and the compiled tier's code generator, found by nobody. */
    static LuaVM.Builder runtime() {
        return LuaVM.builder().libraries(all()).functionCompiler(new dev.luavm.jit.DeferredFunctionCompiler());
    }

    /**
     * A capabilities builder whose bundle names are checked against {@code vm}'s bundles rather
     * than the class path's (which would scan for them again).
     */
    static Capabilities.Builder capabilities(Capabilities.Builder b, LuaVM vm) {
        return b.availableBundles(vm.availableBundles());
    }
}
