package dev.luavm.stdlib.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.TestHost;
import dev.luavm.stdlib.base.BaseLibrary;
import dev.luavm.stdlib.coroutine.CoroutineLibrary;
import dev.luavm.stdlib.debug.DebugLibrary;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.LuaTermination;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Limits and control flow of the VM: depth, re-entry, gas, cancellation, coroutines at scale. */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class VmBehaviourTest {
    private TestHost host;

    private LuaState state(GasMeter gas) {
        host = new TestHost();
        LuaState L = new LuaState(new MemoryMeter(512L << 20), gas, host, LuaState.Settings.defaults());
        L.install(new BaseLibrary());
        L.install(new CoroutineLibrary());
        L.install(new DebugLibrary());
        // a library function that calls back into Lua (as sort or gsub do)
        L.globals().put(LuaString.of("reenter"), Builtin.of("reenter", c -> {
            Object[] r = c.call(c.arg(1), c.arg(2));
            return c.retArray(r, r.length);
        }));
        return L;
    }

    private Object[] run(LuaState L, String src) {
        return L.call(L.load(src.getBytes(StandardCharsets.UTF_8), "=test"));
    }

    @Test
    void deepRecursionCompletes() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(150000)");
        assertEquals(150000L, r[0]);
    }

    @Test
    void infiniteRecursionIsCatchableStackOverflow() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local function f() return 1 + f() end local ok, m = pcall(f) return ok, m");
        assertEquals(Boolean.FALSE, r[0]);
        assertEquals("test:1: stack overflow", r[1].toString());
        // and the state is still usable
        assertEquals(3L, run(L, "return 1 + 2")[0]);
    }

    @Test
    void uncaughtErrorCarriesTraceback() {
        LuaState L = state(GasMeter.unlimited());
        LuaError e = assertThrows(LuaError.class, () -> run(L, "local function f()\n error('deep')\nend\nf()"));
        assertEquals("test:2: deep", e.getMessage());
        assertNotNull(e.luaTraceback());
        assertTrue(e.luaTraceback().startsWith("stack traceback:\n\t[C]: in function 'error'\n\ttest:2: in local 'f'"),
                e.luaTraceback());
    }

    @Test
    void tenThousandCoroutinesUseNoThreads() {
        LuaState L = state(GasMeter.unlimited());
        int before = ManagementFactory.getThreadMXBean().getThreadCount();
        Object[] r = run(L, "local cos = {} for i = 1, 10000 do local co = coroutine.create(function(x) "
                + "local y = coroutine.yield(x + 1) return y * 2 end) assert(coroutine.resume(co, i)) cos[i] = co end "
                + "local s = 0 for i = 1, 10000 do local ok, v = coroutine.resume(cos[i], i) s = s + v end return s");
        assertEquals(10000L * 10001L, r[0]);
        assertTrue(ManagementFactory.getThreadMXBean().getThreadCount() <= before + 1);
    }

    @Test
    void gasExhaustionIsNotCatchable() {
        LuaState L = state(new GasMeter(2_000_000));
        LuaTermination t = assertThrows(LuaTermination.class,
                () -> run(L, "while true do pcall(function() while true do end end) end"));
        assertEquals(LuaTermination.Reason.GAS, t.reason());
        assertTrue(L.gasUsed() >= 2_000_000 && L.gasUsed() < 2_000_000 + GasMeter.CHECK_INTERVAL + 100);
        // nothing runs afterwards
        assertThrows(LuaTermination.class, () -> run(L, "return 1"));
    }

    @Test
    void gasNotSwallowedByCoroutineResumeOrXpcallHandler() {
        LuaState L = state(new GasMeter(1_000_000));
        assertThrows(LuaTermination.class, () -> run(L,
                "local co = coroutine.wrap(function() while true do end end) "
                        + "while true do xpcall(co, function() return 'caught' end) end"));
    }

    @Test
    void exactGasForStraightLineCode() {
        LuaState L = state(GasMeter.unlimited());
        var main = L.load("local a = 1 local b = a + 2 return b".getBytes(StandardCharsets.UTF_8), "=t");
        long before = L.gasUsed();
        L.call(main);
        // LOADK 1 + ADD 1 + RETURN 2 (the compiler emits the chunk's final RETURN too, never reached)
        assertEquals(4, L.gasUsed() - before);
    }

    @Test
    void cancelFromAnotherThreadStopsALoop() throws Exception {
        LuaState L = state(GasMeter.unlimited());
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException ignored) {
                // fall through and cancel
            }
            L.cancel();
        });
        canceller.start();
        LuaTermination t = assertThrows(LuaTermination.class, () -> run(L, "local i = 0 while true do i = i + 1 end"));
        assertEquals(LuaTermination.Reason.CANCELLED, t.reason());
        canceller.join();
    }

    @Test
    void deadlineEndsTheRun() {
        LuaState L = state(GasMeter.unlimited());
        L.setDeadline(host.nanoTime() + 50_000_000L);
        LuaTermination t = assertThrows(LuaTermination.class, () -> run(L, "while true do end"));
        assertEquals(LuaTermination.Reason.TIME, t.reason());
    }

    @Test
    void reentryIsCappedWithCStackOverflow() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local function g() return reenter(g) end return pcall(g)");
        assertEquals(Boolean.FALSE, r[0]);
        assertTrue(r[1].toString().endsWith("C stack overflow"), r[1].toString());
    }

    @Test
    void yieldAcrossReentryFails() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "return coroutine.resume(coroutine.create(function() reenter(coroutine.yield, 1) end))");
        assertEquals(Boolean.FALSE, r[0]);
        assertEquals("attempt to yield across a C-call boundary", r[1].toString());
    }

    @Test
    void forLoopsEndingAtIntegerLimitsEnd() {
        LuaState L = state(new GasMeter(10_000_000));
        Object[] r = run(L, "local n = 0 for i = math.maxinteger - 2, math.maxinteger do n = n + 1 end "
                .replace("math.maxinteger", "9223372036854775807")
                + "for i = -9223372036854775807 + 1, -9223372036854775807 - 1, -1 do n = n + 1 end "
                + "for i = 9223372036854775807 - 5, 9223372036854775807, 4 do n = n + 1 end return n");
        assertEquals(3L + 3L + 2L, r[0]);
    }

    @Test
    void closuresAreCachedAsIn53() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local function f() return function() return 1 end end "
                + "local function g(x) return function() return x end end "
                + "local u = 0 local function h() return function() return u end end "
                + "return f() == f(), g(1) == g(1), h() == h()");
        assertEquals(Boolean.TRUE, r[0]);
        assertEquals(Boolean.FALSE, r[1]);
        assertEquals(Boolean.TRUE, r[2]);
    }

    @Test
    void xpcallHandlerSeesTheFullStack() {
        LuaState L = state(GasMeter.unlimited());
        Object[] r = run(L, "local function f() error('x') end return xpcall(f, debug.traceback)");
        assertEquals(Boolean.FALSE, r[0]);
        assertTrue(r[1].toString().startsWith("test:1: x\nstack traceback:\n\t[C]: in function 'error'"), r[1].toString());
    }

    @Test
    void statesShareNothing() {
        LuaState a = state(GasMeter.unlimited());
        LuaState b = state(GasMeter.unlimited());
        run(a, "x = 1 getmetatable = nil");
        Object[] r = run(b, "return x, type(getmetatable)");
        assertEquals(null, r[0]);
        assertEquals("function", r[1].toString());
    }

    @Test
    void printHonoursTostring() {
        LuaState L = state(GasMeter.unlimited());
        run(L, "print(1, 2.0, nil, true, setmetatable({}, {__tostring = function() return 'T' end}))");
        assertEquals("1\t2.0\tnil\ttrue\tT\n", host.output());
    }
}
