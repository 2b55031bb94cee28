package dev.luavm.threats;

import dev.luavm.LuaException;
import dev.luavm.LuaLimitException.Limit;
import org.junit.jupiter.api.Test;

import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.assertScriptError;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.fail;

/** T9 Patterns: matching is charged per step; pathological and malformed patterns are Lua errors. */
class T09PatternsTest {
    @Test
    void catastrophicBacktracking() {
        assertLimit(Limit.GAS, "return string.find(string.rep('a', 3000), string.rep('a-', 20) .. 'b')");
        assertLimit(Limit.GAS, "return string.match(string.rep('a', 1e5), '.-.-.-b')");
    }

    @Test
    void matchDepth() {
        try {
            run("return string.match(string.rep('a', 1e4), string.rep('a?', 1e4))");
        } catch (LuaException expected) {
            // "pattern too complex" or a limit: contained
        } catch (Throwable t) {
            fail("escaped: " + t, t);
        }
        assertScriptError("pattern too complex", "return string.match(string.rep('a', 1e4), string.rep('a?', 1e4) .. 'b')");
    }

    @Test
    void frontierOverLongSubjects() {
        assertLimit(Limit.GAS, "local s = string.rep('ab ', 1e5) while true do s:gsub('%f[%w]%w+', 'x') end");
    }

    @Test
    void gmatchLoop() {
        assertLimit(Limit.GAS, "local s = string.rep('a', 1e5) while true do for w in s:gmatch('a*') do end end");
    }

    @Test
    void malformedPatterns() {
        assertScriptError("malformed pattern (missing ']')", "return string.find('a', '[a')");
        assertScriptError("malformed pattern (ends with '%')", "return string.find('a', '%')");
        assertScriptError("unfinished capture", "return string.find('a', '(()')");
        assertScriptError("invalid capture index", "return string.gsub('a', '(a)', '%2')");
        assertScriptError("missing arguments to '%b'", "return string.find('a', '%b')");
        assertScriptError("missing '[' after '%f' in pattern", "return string.find('a', '%f')");
        assertScriptError("invalid capture index %1", "return string.find('a', '%1')");
    }
}
