package dev.luavm.tier;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.api.SmallThreadJvm;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compiled tier on a 128 KiB host thread, in a fresh JVM: the first function to get hot does
 * so while the thread is a few library re-entries deep ({@code string.gsub}'s callback), with no
 * stack left there for code generation and the loading of the generator's classes. It is
 * generated once, on a helper thread with room, and the outcome is cached. Before, each attempt ran out of stack, was thrown away and started again 500 entries
 * later (82 generations for this script, and the function never compiled; checked against the
 * code before the change).
 */
@Timeout(180)
class SmallStackCodeGenerationTest {
    static final String SCRIPT = String.join("\n",
            "local function g(x) return x + 1 end",
            "local function r(n)",
            "  if n == 0 then local s = 0 for i = 1, 5000 do s = g(s) end return s end",
            "  local v string.gsub('a', 'a', function() v = r(n - 1) end) return v",
            "end",
            "local t = 0 for k = 1, 4 do t = t + r(5) end return t");

    /** In the child JVM: the script on a 128 KiB thread; prints the result, the functions compiled and the generations. */
    public static void main(String[] args) throws Exception {
        SmallThreadJvm.printFromSmallThread(() -> {
            LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
            Object r;
            try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).build()) {
                r = sb.eval("t", SCRIPT);
            }
            java.lang.reflect.Method tiering = LuaVM.class.getDeclaredMethod("tiering");
            tiering.setAccessible(true);
            int generations = ((dev.luavm.vm.Tiering) tiering.invoke(vm)).generations();
            return r + "|" + vm.compiledFunctions() + "|" + generations;
        });
    }

    @Test
    void aHotFunctionDeepOnASmallThreadIsGeneratedOnce() throws Exception {
        String out = SmallThreadJvm.run(SmallStackCodeGenerationTest.class);
        String[] parts = out.split("\\|");
        assertEquals(3, parts.length, out);
        assertEquals("20000", parts[0], out);
        // g (line 1) compiled although the thread had no room for it there; every function generated once
        java.util.List<String> compiled = java.util.List.of(parts[1].substring(1, parts[1].length() - 1).split(", "));
        assertTrue(compiled.contains("function <t:1>"), out);
        assertEquals(compiled.size(), new java.util.HashSet<>(compiled).size(), out);
        assertEquals(String.valueOf(compiled.size()), parts[2], "one generation per function compiled: " + out);
    }
}
