package dev.luavm.threats;

import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaSandboxStateException;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import static dev.luavm.threats.ThreatSupport.assertAnyLimit;
import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.sandbox;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * T2 CPU outside the main loop: metamethods, callbacks from library functions, reader functions,
 * coroutines and error handlers all run on the sandbox's one meter; nothing runs afterwards.
 */
class T02CpuOutsideTheMainLoopTest {
    private static final String SPIN = "function() while true do end end";

    @Test
    void indexMetamethod() {
        assertLimit(Limit.GAS, "local t = setmetatable({}, {__index = " + SPIN + "}) return t.x");
    }

    @Test
    void newindexMetamethod() {
        assertLimit(Limit.GAS, "local t = setmetatable({}, {__newindex = " + SPIN + "}) t.x = 1");
    }

    @Test
    void tostringMetamethod() {
        assertLimit(Limit.GAS, "return tostring(setmetatable({}, {__tostring = " + SPIN + "}))");
    }

    @Test
    void ltMetamethod() {
        assertLimit(Limit.GAS, "local mt = {__lt = " + SPIN + "} return setmetatable({}, mt) < setmetatable({}, mt)");
    }

    @Test
    void lenMetamethod() {
        assertLimit(Limit.GAS, "return #setmetatable({}, {__len = " + SPIN + "})");
    }

    @Test
    void callMetamethod() {
        assertLimit(Limit.GAS, "setmetatable({}, {__call = " + SPIN + "})()");
    }

    @Test
    void concatAndArithmeticMetamethods() {
        assertLimit(Limit.GAS, "return setmetatable({}, {__concat = " + SPIN + "}) .. 'x'");
        assertLimit(Limit.GAS, "return setmetatable({}, {__add = " + SPIN + "}) + 1");
    }

    @Test
    void gcMetamethodNeverRunsAfterTheRun() {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            try (Sandbox sb = sandbox()) {
                sb.eval("for i = 1, 1000 do setmetatable({}, {__gc = function() ran = true; while true do end end}) end");
                System.gc();
                Thread.sleep(50);
                assertNull(sb.getGlobal("ran"));
                assertEquals(2L, sb.eval("return 1 + 1"));
                assertNull(sb.getGlobal("ran"));
            }
        });
    }

    @Test
    void gsubCallback() {
        assertLimit(Limit.GAS, "return string.gsub(string.rep('a', 10), 'a', " + SPIN + ")");
    }

    @Test
    void sortComparator() {
        assertLimit(Limit.GAS, "table.sort({3, 2, 1}, " + SPIN + ")");
    }

    @Test
    void loadReaderFunction() {
        assertLimit(Limit.GAS, "return load(" + SPIN + ")");
        // the pieces are held as they arrive (T18): memory may end it first, as nil plus message
        assertAnyLimit("local f, msg = load(function() return 'x = 1 ' end) error(msg, 0)", Limit.GAS, Limit.MEMORY);
    }

    @Test
    void coroutineBody() {
        assertLimit(Limit.GAS, "return coroutine.wrap(" + SPIN + ")()");
        assertLimit(Limit.GAS, "return coroutine.resume(coroutine.create(" + SPIN + "))");
    }

    @Test
    void errorHandler() {
        assertLimit(Limit.GAS, "return xpcall(error, " + SPIN + ")");
    }

    @Test
    void nothingRunsAfterClose() {
        assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            Sandbox sb = sandbox();
            sb.eval("co = coroutine.wrap(function() while true do coroutine.yield() ran = (ran or 0) + 1 end end) co()");
            sb.close();
            assertThrows(LuaSandboxStateException.class, () -> sb.eval("co()"));
            assertThrows(LuaSandboxStateException.class, () -> sb.call("co"));
        });
    }
}
