package dev.luavm.api;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library's first use on a host thread with a small stack, in a fresh JVM (nothing
 * initialised yet): a 128 KiB thread builds the capabilities and the runtime (the bundles'
 * classes), compiles chunks whose parse needs more stack than it has, and runs scripts that
 * reach the library's bounds; it gets results and Lua errors, never a Java {@code Error}. In the
 * compiled tier the deep recursion may end with the catchable {@code stack overflow} instead
 * (direct calls between compiled functions use the Java stack, up to 64 deep).
 * Before, the first use failed with a {@code ServiceConfigurationError} caused by a
 * {@code StackOverflowError}, and a chunk with a function argument failed to compile.
 */
class SmallHostStackTest {
    static final String SCRIPT = String.join("\n",
            "local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)",
            "local t = {} for i = 1, 3 do t[i] = ('%5.2f'):format(i / 3) end",
            "local ok, e = pcall(string.find, ('a'):rep(1000), ('a?'):rep(1000))",
            "local function deep(n) return n == 0 and 0 or 1 + deep(n - 1) end",
            "local s = setmetatable({}, {__index = function(_, k) return k end})",
            "local nested = load('return ' .. ('{'):rep(150) .. ('}'):rep(150))",
            "return co(1) + co(5), table.concat(t, ','), ok, e, deep(20000), s.x, type(nested())");

    /** In the child JVM: everything on a 128 KiB thread; prints what came back or the Throwable's class. */
    public static void main(String[] args) throws Exception {
        SmallThreadJvm.printFromSmallThread(() -> {
            Capabilities caps = Capabilities.builder().bundle("standard", "compat").build();
            StringBuilder sb2 = new StringBuilder();
            try (Sandbox sb = LuaVM.builder().tier(dev.luavm.vm.tier.Tier.INTERP).build().sandbox().capabilities(caps).build()) {
                sb2.append(sb.evalAll("small", SCRIPT));
            }
            // the compiled tier keeps up to 64 direct calls on the Java stack: on a small stack
            // they may run out before the call depth, and the script gets 'stack overflow'
            String compiled;
            try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).build()) {
                compiled = String.valueOf(sb.evalAll("small", SCRIPT));
            } catch (dev.luavm.LuaException e) {
                compiled = e.getClass().getSimpleName();
            }
            return sb2.append('|').append(compiled).toString();
        });
    }

    @Test
    void aFreshJvmsFirstUseOnA128KibThreadWorks() throws Exception {
        String out = SmallThreadJvm.run(SmallHostStackTest.class);
        // as on any thread: pcall(string.find, ...) reaches the pattern's 200 levels, or the stack first
        String interp = List.of(12L, " 0.33, 0.67, 1.00", false, "pattern too complex", 20000L, "x", "table").toString();
        assertTrue(out.equals(interp + "|" + interp) || out.equals(interp + "|LuaLimitException"), out);
    }
}
