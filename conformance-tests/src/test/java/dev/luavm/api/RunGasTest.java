package dev.luavm.api;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Limits#withRunGas}: a budget per run, for sandboxes that live through many runs (REPL, MCP). */
class RunGasTest {
    private static Sandbox sandbox(Limits limits) {
        return LuaVM.newSandbox(Capabilities.standard(), limits);
    }

    @Test
    void aRunThatSpendsItsOwnBudgetEndsWithGasAndTheNextRunGetsAFreshOne() {
        try (Sandbox sb = sandbox(Limits.defaults().withGas(Long.MAX_VALUE).withRunGas(200_000))) {
            sb.eval("x = 41");
            LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval("while true do end"));
            assertEquals(LuaLimitException.Limit.GAS, e.limit());
            assertTrue(sb.usage().gas() >= 200_000 && sb.usage().gas() < 220_000, "run's gas: " + sb.usage().gas());
            assertEquals(42L, sb.eval("return x + 1")); // the sandbox and its globals survive
            assertThrows(LuaLimitException.class, () -> sb.eval("while true do end"));
            assertEquals(43L, sb.eval("return x + 2"));
        }
    }

    @Test
    void theLifeBudgetStillEndsEverything() {
        try (Sandbox sb = sandbox(Limits.defaults().withGas(500_000).withRunGas(200_000))) {
            for (int i = 0; i < 2; i++) {
                assertEquals(LuaLimitException.Limit.GAS,
                        assertThrows(LuaLimitException.class, () -> sb.eval("while true do end")).limit());
            }
            // about 400,000 used: this run reaches the life budget before its own
            assertEquals(LuaLimitException.Limit.GAS,
                    assertThrows(LuaLimitException.class, () -> sb.eval("while true do end")).limit());
            assertEquals(LuaLimitException.Limit.GAS,
                    assertThrows(LuaLimitException.class, () -> sb.eval("return 1")).limit());
        }
    }

    @Test
    void aRunWithinItsBudgetIsUnaffectedAndPcallCannotCatchTheEnd() {
        try (Sandbox sb = sandbox(Limits.defaults().withRunGas(1_000_000))) {
            assertEquals(5050L, sb.eval("local s = 0 for i = 1, 100 do s = s + i end return s"));
            assertThrows(LuaLimitException.class, () -> sb.eval("return pcall(function() while true do end end)"));
        }
    }

    @Test
    void badValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Limits.defaults().withRunGas(0));
        assertEquals(Long.MAX_VALUE, Limits.defaults().runGas());
        assertEquals(7L, Limits.defaults().withRunGas(7).withTimeout(java.time.Duration.ofSeconds(1)).runGas());
    }
}
