package dev.luavm.bundle;

import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On the module path an embedder reaches the API packages and nothing else: these tests run in
 * module dev.luavm.all, which requires dev.luavm as any embedder's module does.
 */
class ModuleBoundaryTest {
    private static final Module RUNTIME = LuaVM.class.getModule();
    private static final Module EMBEDDER = ModuleBoundaryTest.class.getModule();

    @Test
    void theRuntimeIsANamedModule() {
        assertTrue(RUNTIME.isNamed(), "the tests must run on the module path");
        assertEquals("dev.luavm", RUNTIME.getName());
        assertEquals("dev.luavm.all", EMBEDDER.getName());
    }

    @Test
    void onlyTheApiPackagesAreExported() {
        for (String api : Set.of("dev.luavm", "dev.luavm.host", "dev.luavm.audit")) {
            assertTrue(RUNTIME.isExported(api, EMBEDDER), api);
        }
        for (String inner : Set.of("dev.luavm.vm", "dev.luavm.value", "dev.luavm.meter", "dev.luavm.lib",
                "dev.luavm.bytecode", "dev.luavm.compiler")) {
            assertFalse(RUNTIME.isExported(inner, EMBEDDER), inner);
            assertFalse(RUNTIME.isOpen(inner, EMBEDDER), inner);
        }
        Module stdlib = ModuleLayer.boot().findModule("dev.luavm.stdlib")
                .orElseGet(() -> EMBEDDER.getLayer().findModule("dev.luavm.stdlib").orElseThrow());
        assertTrue(RUNTIME.isExported("dev.luavm.vm", stdlib)); // qualified: the bundles build on the VM
        assertTrue(stdlib.getDescriptor().exports().isEmpty());
    }

    @Test
    void theVmsInnardsCannotBeReachedByReflection() throws Exception {
        Class<?> state = Class.forName("dev.luavm.vm.LuaState", false, RUNTIME.getClassLoader());
        Method globals = state.getMethod("globals");
        assertThrows(IllegalAccessException.class, () -> globals.invoke(new Object())); // refused before the receiver is looked at
        assertThrows(RuntimeException.class, () -> globals.setAccessible(true)); // InaccessibleObjectException
    }

    @Test
    void theStandardBundlesAreFoundThroughTheModuleGraph() {
        try (Sandbox sb = LuaVM.newSandbox(dev.luavm.Capabilities.standard())) {
            assertEquals("3", sb.evalAs("return string.format('%d', #{1, 2, 3})", String.class));
        }
    }
}
