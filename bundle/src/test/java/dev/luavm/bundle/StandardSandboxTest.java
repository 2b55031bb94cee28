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
    void aStandardSandboxRunsTheStandardLibrary() {
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard())) {
            String s = sb.evalAs("local t = {} for w in string.gmatch('b a c', '%a') do t[#t + 1] = w end "
                    + "table.sort(t) return string.format('%s=%d', table.concat(t), math.max(1, 7))", String.class);
            assertEquals("abc=7", s);
        }
    }
}
