package dev.luavm.bundle;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** dev.luavm:luavm alone brings a working standard sandbox: every standard bundle is found. */
class StandardSandboxTest {
    @Test
    void everyStandardBundleIsThere() {
        assertTrue(LuaVM.create().availableBundles().containsAll(Capabilities.STANDARD_BUNDLES),
                LuaVM.create().availableBundles().toString());
    }

    @Test
    void theModuleProvidesEveryBundleTheServicesFileLists() throws java.io.IOException {
        // class-path users find bundles through META-INF/services, module-path users through the
        // descriptor's provides: the two lists must agree (the io, os.exit and docs bundles once
        // were in the file alone)
        Module stdlib = ModuleLayer.boot().findModule("dev.luavm.stdlib").orElseThrow();
        java.util.Set<String> listed = new java.util.TreeSet<>();
        try (java.io.InputStream in = stdlib.getResourceAsStream("META-INF/services/dev.luavm.lib.Library")) {
            for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty() && !l.startsWith("#")) listed.add(l);
            }
        }
        java.util.Set<String> provided = new java.util.TreeSet<>();
        for (java.lang.module.ModuleDescriptor.Provides p : stdlib.getDescriptor().provides()) {
            if (p.service().equals("dev.luavm.lib.Library")) provided.addAll(p.providers());
        }
        assertEquals(listed, provided);
        assertTrue(LuaVM.create().availableBundles().containsAll(java.util.List.of("io", "os.exit", "docs")),
                LuaVM.create().availableBundles().toString());
    }

    @Test
    void aStandardSandboxRunsTheStandardLibrary() {
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard())) {
            String s = sb.evalAs("local t = {} for w in string.gmatch('b a c', '%a') do t[#t + 1] = w end "
                    + "table.sort(t) return string.format('%s=%d', table.concat(t), math.max(1, 7))", String.class);
            assertEquals("abc=7", s);
        }
    }
}
