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

    // ---- a host thread with a small Java stack: the stack runs out before the 200 re-entries

    /** Runs {@code script} in a fresh sandbox on a thread with a 200 KiB Java stack (about 60 re-entries deep); returns its results. */
    private static List<Object> onSmallStack(String script) throws InterruptedException {
        try (dev.luavm.Sandbox sb = ThreatSupport.sandbox()) {
            return onSmallStack(sb, script);
        }
    }

    private static List<Object> onSmallStack(dev.luavm.Sandbox sb, String script) throws InterruptedException {
        Object[] out = new Object[1];
        Thread t = new Thread(null, () -> {
            try {
                out[0] = sb.evalAll("small", script);
            } catch (Throwable e) {
                out[0] = e;
            }
        }, "small-stack", 200 * 1024);
        t.start();
        t.join(30_000);
        assertTrue(!t.isAlive(), "the small-stack run did not end");
        if (out[0] instanceof LuaLimitException e && e.limit() == Limit.DEPTH && e.getCause() == null) {
            return List.of("DEPTH");
        }
        if (out[0] instanceof Throwable e) fail("escaped as a Java exception or uncatchable: " + e, e);
        @SuppressWarnings("unchecked")
        List<Object> r = (List<Object>) out[0];
        return r;
    }

    /** Creates coroutines that re-enter through __tostring until the Java stack runs out; cos lists them. */
    private static final String NESTED_COROUTINES = String.join("\n",
            "cos = {}",
            "function g()",
            "  local co = coroutine.create(function()",
            "    return tostring(setmetatable({}, {__tostring = function() return g() end}))",
            "  end)",
            "  cos[#cos + 1] = co",
            "  local ok, v = coroutine.resume(co)",
            "  if not ok then error(v, 0) end",
            "  return v",
            "end");

    /** After the overflow: how many of cos are neither dead nor suspended, and a fresh coroutine works. */
    private static final String AFTERWARDS = String.join("\n",
            "local bad = 0",
            "for _, co in ipairs(cos) do local s = coroutine.status(co) if s ~= 'dead' and s ~= 'suspended' then bad = bad + 1 end end",
            "local w = coroutine.wrap(function(a) return coroutine.yield(a) + 1 end)",
            "return bad, #cos > 10, w(1), w(41), coroutine.isyieldable()");

    @Test
    void deepReentryOnASmallHostStackIsACatchableError() throws InterruptedException {
        List<Object> r = onSmallStack(String.join("\n",
                "local function f() return tostring(setmetatable({}, {__tostring = function() return f() end})) end",
                "local ok, e = pcall(f)",
                "local function cmp(a, b) table.sort({3, 2, 1}, cmp) return a < b end",
                "local ok2, e2 = pcall(table.sort, {3, 2, 1}, cmp)",
                "return ok, e, ok2, e2, pcall(string.rep, 'x', 3)"));
        assertEquals(List.of(false, "C stack overflow", false, "C stack overflow", true, "xxx"), r);
    }

    @Test
    void smallHostStackOverflowLeavesNoCoroutineRunning() throws InterruptedException {
        List<Object> r = onSmallStack(NESTED_COROUTINES + "\nlocal ok, e = pcall(g)\n" + AFTERWARDS.replace("return bad", "return ok, e, bad"));
        assertEquals(List.of(false, "C stack overflow", 0L, true, 1L, 42L, false), r);
    }

    @Test
    void uncaughtSmallHostStackOverflowLeavesTheSandboxUsable() throws InterruptedException {
        try (dev.luavm.Sandbox sb = ThreatSupport.sandbox()) {
            assertEquals(List.of("DEPTH"), onSmallStack(sb, NESTED_COROUTINES + "\ng()"));
            assertEquals(List.of(0L, true, 1L, 42L, false), onSmallStack(sb, AFTERWARDS));
        }
    }
}
