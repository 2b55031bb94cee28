package dev.luavm.threats;

import dev.luavm.LuaConversionException;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaScriptException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * T7 Deep recursion of every kind ends in a Lua "stack overflow" error (catchable; the depth
 * limit when uncaught), never a Java StackOverflowError.
 */
class T07JavaStackTest {
    /** Uncaught, the script must end with a stack-overflow error or the depth limit. */
    private static void assertStackOverflow(String script) {
        try {
            run(script);
            fail("no error for: " + script);
        } catch (LuaLimitException e) {
            assertEquals(Limit.DEPTH, e.limit(), script);
        } catch (LuaScriptException e) {
            assertTrue(e.getMessage().contains("stack overflow"), () -> script + " -> " + e.getMessage());
        } catch (Throwable t) {
            fail("escaped the sandbox: " + t, t);
        }
    }

    @Test
    void deepLuaRecursion() {
        assertLimit(Limit.DEPTH, ThreatSupport.TIGHT.withGas(Long.MAX_VALUE), "local function f() return 1 + f() end return f()");
    }

    @Test
    void deepLuaRecursionIsCatchable() {
        List<Object> r = run("local function f() return 1 + f() end return pcall(f)");
        assertEquals(false, r.get(0));
        assertTrue(((String) r.get(1)).contains("stack overflow"), String.valueOf(r.get(1)));
    }

    @Test
    void reentrantThroughIndexMetamethod() {
        assertStackOverflow("local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x");
    }

    @Test
    void reentrantThroughPcall() {
        // each level returns one more value than the one below it (true, true, ..., false, msg):
        // copying them is quadratic element work, charged since T17, so the depth stays modest
        List<Object> r = run(ThreatSupport.TIGHT.withCallDepth(2000), "local function f() return pcall(f) end return f()");
        assertTrue(r.get(0) instanceof Boolean, String.valueOf(r));
    }

    @Test
    void reentrantThroughCoroutineWrap() {
        assertStackOverflow("local function f() return coroutine.wrap(f)() end return f()");
    }

    @Test
    void reentrantThroughGsub() {
        assertStackOverflow("local function f(s) return (s:gsub('.', f)) end return f('x')");
    }

    @Test
    void reentrantThroughTostring() {
        assertStackOverflow("local t; t = setmetatable({}, {__tostring = function() return tostring(t) end}) return tostring(t)");
    }

    @Test
    void reentrantThroughSort() {
        assertStackOverflow("local function f() table.sort({3, 2, 1}, function(a, b) f() return a < b end) end f()");
    }

    @Test
    void reentrantThroughCallMetamethodChains() {
        assertStackOverflow("local t; t = setmetatable({}, {__call = function(self) return self() end}) return t()");
    }

    @Test
    void deepConversionOfResultsToJava() {
        LuaConversionException e = assertThrows(LuaConversionException.class,
                () -> run("local t = {} for i = 1, 1e5 do t = {t} end return t"));
        assertTrue(e.getMessage().contains("deeper"), e.getMessage());
    }

    @Test
    void cyclicResult() {
        assertThrows(LuaConversionException.class, () -> run("local t = {} t.self = t return t"));
    }

    @Test
    void errorObjectsAreConvertedBoundedToo() {
        LuaException e = assertThrows(LuaScriptException.class, () -> run("local t = {} for i = 1, 1e5 do t = {t} end error(t)"));
        assertTrue(e.getMessage().contains("table value"), e.getMessage());
    }
}
