package dev.luavm.tier;

import dev.luavm.jit.AsmFunctionCompiler;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.base.BaseLibrary;
import dev.luavm.stdlib.table.TableLibrary;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.Tiering;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The frameless entries are really taken (FramelessCallsTest shows that what a script sees
 * stays the interpreter's; this shows the path under test runs): each time a frameless run
 * leaves its fast path it counts a bail in its prototype's heat cell, up to TierSupport's
 * BAIL_LIMIT (8), after which callers stop trying it in that state. A count only a frameless
 * run can raise, read from the closure, tells which callers used the entry.
 */
class FramelessEntryTest {
    /** TierSupport.BAIL_LIMIT */
    static final int BAIL_LIMIT = 8;

    private static final HostEnvironment HOST = new HostEnvironment() {
        @Override
        public long currentTimeMillis() {
            return 0;
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long randomSeed() {
            return 0;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
        }
    };

    private static LuaState compileAll(String src) {
        LuaState L = new LuaState(new MemoryMeter(64L << 20), new GasMeter(1L << 40), HOST, LuaState.Settings.defaults());
        L.tiering(new Tiering(Tier.COMPILE_ALL, new AsmFunctionCompiler()));
        L.install(new BaseLibrary());
        L.install(new TableLibrary());
        L.call(L.load(src.getBytes(StandardCharsets.UTF_8), "=t"));
        return L;
    }

    private static int bails(LuaState L, String global) {
        return ((LuaClosure) L.globals().get(LuaString.of(global))).heat.bails;
    }

    @Test
    void aCompiledCallerRunsItsCalleeFramelessUntilTheCalleeHasLeftItsFastPathTooOften() {
        LuaState L = compileAll("""
                function field(t) return t.x end
                function caller(t) local v = field(t) return v end
                plain, meta = {x = 1}, setmetatable({}, {__index = function() return 2 end})
                for i = 1, 100 do assert(caller(plain) == 1) end
                """);
        assertEquals(0, bails(L, "field"), "the fast path never left");
        // each call reads a field through __index: the frameless run bails (counted), its frame
        // is built and the dispatch loop runs the metamethod
        L.call(L.load("for i = 1, 3 do assert(caller(meta) == 2) end".getBytes(StandardCharsets.UTF_8), "=t2"));
        assertEquals(3, bails(L, "field"));
        L.call(L.load("for i = 1, 20 do assert(caller(meta) == 2) assert(caller(plain) == 1) end".getBytes(StandardCharsets.UTF_8), "=t3"));
        assertEquals(BAIL_LIMIT, bails(L, "field"), "given up after the limit, the calls go the ordinary way");
    }

    @Test
    void aCalleeOfAFramelessRunThatBailsCountsOnlyItsOwnBail() {
        LuaState L = compileAll("""
                function leaf(t) return t.x end
                function mid(t) local v = leaf(t) return v + 1 end
                function top(t) local v = mid(t) return v end
                plain, meta = {x = 1}, setmetatable({}, {__index = function() return 5 end})
                for i = 1, 50 do assert(top(plain) == 2) end
                for i = 1, 2 do assert(top(meta) == 6) end
                """);
        assertEquals(2, bails(L, "leaf"));
        assertEquals(0, bails(L, "mid"), "a caller building its frame under a bailed callee is not a bail of its own");
    }

    @Test
    void tableSortCallsACompiledComparatorFramelessFromJava() {
        LuaState L = compileAll("""
                function less(a, b) return a.k < b.k end
                local mt = {__index = function(t, k) return t[1] end}
                local plain, meta = {}, {}
                for i = 1, 50 do plain[i] = {k = (i * 37) % 50} meta[i] = setmetatable({(i * 37) % 50}, mt) end
                table.sort(plain, less)
                for i = 2, 50 do assert(plain[i - 1].k <= plain[i].k) end
                sortedPlain = true
                table.sort(meta, less)
                for i = 2, 50 do assert(meta[i - 1].k <= meta[i].k) end
                """);
        // the plain sort never left the fast path; the second bailed at its first comparisons
        // until the limit, then went the ordinary way
        assertEquals(BAIL_LIMIT, bails(L, "less"));
        LuaState plainOnly = compileAll("""
                function less(a, b) return a.k < b.k end
                local plain = {}
                for i = 1, 50 do plain[i] = {k = (i * 37) % 50} end
                table.sort(plain, less)
                """);
        assertEquals(0, bails(plainOnly, "less"));
    }
}
