package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.lib.Library;
import dev.luavm.vm.tier.FunctionCompiler;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's named bundles are exactly what {@link ServiceLoader} finds, so the CLI behaves as {@link LuaVM#create()}. */
class StandardBundlesTest {
    private static List<String> classes(Iterable<?> objects) {
        List<String> names = new ArrayList<>();
        for (Object o : objects) names.add(o.getClass().getName());
        return names;
    }

    @Test
    void theNamedBundlesAreTheServiceFilesInItsOrder() {
        List<String> found = classes(ServiceLoader.load(Library.class, StandardBundlesTest.class.getClassLoader()));
        assertTrue(found.size() >= 13, "the services file lists the standard bundles: " + found);
        assertEquals(found, classes(StandardBundles.all()));
    }

    @Test
    void theRuntimeOffersTheSameBundlesAsTheDefaultOne() {
        LuaVM named = StandardBundles.runtime().build();
        assertEquals(List.copyOf(LuaVM.create().availableBundles()), List.copyOf(named.availableBundles()));
    }

    @Test
    void theNamedCompilerIsTheServiceFilesOne() {
        List<String> found = classes(ServiceLoader.load(FunctionCompiler.class, StandardBundlesTest.class.getClassLoader()));
        assertEquals(1, found.size(), found.toString());
        assertEquals(found.get(0), dev.luavm.jit.DeferredFunctionCompiler.class.getName());
    }

    @Test
    void anUnknownBundleIsRefusedWithTheSameMessage() {
        LuaVM vm = StandardBundles.runtime().build();
        IllegalArgumentException named = assertThrows(IllegalArgumentException.class,
                () -> StandardBundles.capabilities(Capabilities.builder().bundles(List.of("base", "nosuch")), vm).build());
        IllegalArgumentException scanned = assertThrows(IllegalArgumentException.class,
                () -> Capabilities.builder().bundles(List.of("base", "nosuch")).build());
        assertEquals(scanned.getMessage(), named.getMessage());
    }
}
