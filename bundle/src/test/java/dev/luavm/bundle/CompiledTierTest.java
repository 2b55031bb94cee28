package dev.luavm.bundle;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * dev.luavm:luavm brings the compiled tier: an embedder's default runtime compiles hot functions
 * (as the CLI does), with the same results and gas as the interpreter, and the builder still
 * chooses. These tests run on the module path, as module dev.luavm.all.
 */
class CompiledTierTest {
    private static final String FIB = """
            local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
            local t = {}
            for i = 1, 300 do t[#t + 1] = string.format("%d", i % 7) end
            return fib(22), table.concat(t):len()
            """;

    @Test
    void theDefaultRuntimeCompilesHotFunctions() {
        LuaVM vm = LuaVM.create();
        assertEquals(Tier.AUTO, vm.tier());
        try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).build()) {
            assertEquals(17711L, sb.evalAll("fib.lua", FIB).first());
        }
        assertTrue(vm.compiledFunctions().stream().anyMatch(f -> f.startsWith("function <fib.lua:1>")),
                vm.compiledFunctions().toString());
    }

    @Test
    void theCompiledTierIsAService() {
        Module jit = ModuleLayer.boot().findModule("dev.luavm.jit")
                .orElseGet(() -> CompiledTierTest.class.getModule().getLayer().findModule("dev.luavm.jit").orElseThrow());
        assertTrue(jit.getDescriptor().exports().isEmpty(), "the compiled tier exports nothing");
        assertTrue(jit.getDescriptor().provides().stream().anyMatch(p -> p.service().equals("dev.luavm.vm.tier.FunctionCompiler")));
    }

    @Test
    void everyTierGivesTheSameResultsAndGas() {
        long[] gas = new long[3];
        Object[] results = new Object[3];
        Tier[] tiers = {Tier.INTERP, Tier.AUTO, Tier.COMPILE_ALL};
        for (int i = 0; i < tiers.length; i++) {
            LuaVM vm = LuaVM.builder().tier(tiers[i]).build();
            try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults()).build()) {
                results[i] = sb.evalAll("fib.lua", FIB).toString();
                gas[i] = sb.usage().gas();
            }
            assertEquals(tiers[i] == Tier.INTERP, vm.compiledFunctions().isEmpty(), tiers[i] + ": " + vm.compiledFunctions());
        }
        assertEquals(results[0], results[1]);
        assertEquals(results[0], results[2]);
        assertEquals(gas[0], gas[1]);
        assertEquals(gas[0], gas[2]);
    }
}
