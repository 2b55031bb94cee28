package dev.luavm.threats;

import dev.luavm.LuaScriptException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** T12 The host formats error objects itself, bounded, without running guest metamethods. */
class T12ErrorObjectsTest {
    private static LuaScriptException error(String script) {
        return assertTimeoutPreemptively(ThreatSupport.WALL, () -> assertThrows(LuaScriptException.class, () -> run(script)));
    }

    @Test
    void errorNil() {
        LuaScriptException e = error("error(nil)");
        assertNull(e.value());
        assertEquals("nil", e.getMessage());
    }

    @Test
    void tostringThatLoopsIsNeverCalledByTheHost() {
        LuaScriptException e = error("error(setmetatable({}, {__tostring = function() while true do end end}))");
        assertEquals("(error object is a table value)", e.getMessage());
    }

    @Test
    void tostringThatErrorsOrReturnsHugeStrings() {
        assertEquals("(error object is a table value)",
                error("error(setmetatable({}, {__tostring = function() error('boom') end}))").getMessage());
        assertEquals("(error object is a table value)",
                error("error(setmetatable({}, {__tostring = function() return string.rep('x', 1e7) end}))").getMessage());
    }

    @Test
    void hugeMessagesAreCut() {
        LuaScriptException e = error("error(string.rep('x', 4e6))");
        assertTrue(e.getMessage().length() <= LuaScriptException.MAX_MESSAGE, "length " + e.getMessage().length());
    }

    @Test
    void errorTablesComeBackAsMaps() {
        LuaScriptException e = error("error({code = 42, why = 'bad'})");
        assertEquals(Map.of("code", 42L, "why", "bad"), e.value());
    }

    @Test
    void positionsAndTraceback() {
        LuaScriptException e = error("local x = 1\nlocal t = nil\nreturn t.field");
        assertEquals("attack", e.chunkName());
        assertEquals(3, e.line());
        assertTrue(e.getMessage().startsWith("attack:3: attempt to index a nil value"), e.getMessage());
    }

    @Test
    void errorsInsideErrorHandlers() {
        List<Object> r = run("return xpcall(error, function() error('again') end)");
        assertEquals(false, r.get(0));
        r = run("return xpcall(error, function(m) local t = nil return t.x end)");
        assertEquals(false, r.get(0));
    }

    @Test
    void errorWithLevelsAndNonStrings() {
        assertEquals(42L, error("error(42)").value());
        assertEquals("42", error("error(42)").getMessage());
        assertEquals(true, error("error(true)").value());
    }
}
