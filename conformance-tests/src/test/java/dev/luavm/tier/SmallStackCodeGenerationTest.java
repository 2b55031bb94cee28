package dev.luavm.tier;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
        Object[] out = new Object[1];
        Thread t = new Thread(null, () -> {
            try {
                LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
                Object r;
                try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).build()) {
                    r = sb.eval("t", SCRIPT);
                }
                java.lang.reflect.Method tiering = LuaVM.class.getDeclaredMethod("tiering");
                tiering.setAccessible(true);
                int generations = ((dev.luavm.vm.Tiering) tiering.invoke(vm)).generations();
                out[0] = r + "|" + vm.compiledFunctions() + "|" + generations;
            } catch (Throwable e) {
                out[0] = e.getClass().getName() + ": " + e.getMessage();
            }
        }, "host-128k", 128 << 10);
        t.start();
        t.join();
        System.out.print(out[0]);
    }

    @Test
    void aHotFunctionDeepOnASmallThreadIsGeneratedOnce() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SmallStackCodeGenerationTest.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue());
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
