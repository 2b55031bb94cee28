package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** T11 Two sandboxes in one JVM never see each other's changes. */
class T11SharedStateTest {
    @Test
    void stringMetatableAndLibraryTables() {
        try (Sandbox a = ThreatSupport.sandbox(); Sandbox b = ThreatSupport.sandbox()) {
            a.eval("getmetatable('').__index = {upper = function() return 'pwned' end} string.lower = nil "
                    + "table.insert = nil math.pi = 3 getmetatable('').__add = function() return 1 end");
            assertEquals("pwned", a.eval("return ('x'):upper()"));
            assertEquals("X", b.eval("return ('x'):upper()"));
            assertEquals("x", b.eval("return string.lower('X')"));
            assertEquals(true, b.eval("return type(table.insert) == 'function' and math.pi > 3.14"));
            assertEquals(false, b.eval("return pcall(function() return 'a' + {} end)"));
        }
    }

    /** Library tables are copied from one template per runtime: each sandbox writes its own copy. */
    @Test
    void libraryTablesCopiedFromTemplates() {
        String order = "local out = {} for _, lib in ipairs({_G, string, table, math, utf8, os, coroutine}) do "
                + "for k in pairs(lib) do out[#out + 1] = tostring(k) end end return table.concat(out, ' ')";
        try (Sandbox a = ThreatSupport.sandbox(); Sandbox b = ThreatSupport.sandbox()) {
            Object before = b.eval(order);
            a.eval("string.x = 1 rawset(math, 'pi', 3) table.y = 2 utf8.charpattern = '.' os.time = nil "
                    + "coroutine.wrap = print _G._VERSION = 'v' rawset(_G, 'pcall', nil) _G._G = nil");
            assertEquals(true, a.eval("return string.x == 1 and math.pi == 3 and rawget(table, 'y') == 2 "
                    + "and os.time == nil and pcall == nil and _G == nil"));
            assertEquals(true, b.eval("return string.x == nil and math.pi > 3.14 and rawget(table, 'y') == nil "
                    + "and utf8.charpattern ~= '.' and type(os.time) == 'function' and coroutine.wrap ~= print "
                    + "and _VERSION == 'Lua 5.3' and type(pcall) == 'function' and _G._G == _G and next(string) ~= nil"));
            assertEquals(before, b.eval(order));
            try (Sandbox c = ThreatSupport.sandbox()) {
                assertEquals(before, c.eval(order));
            }
        }
    }

    @Test
    void globals() {
        try (Sandbox a = ThreatSupport.sandbox(); Sandbox b = ThreatSupport.sandbox()) {
            a.eval("x = 1 _G.print = nil setmetatable(_G, {__index = function() return 'leak' end})");
            assertNull(b.eval("return x"));
            assertEquals(true, b.eval("return type(print) == 'function' and getmetatable(_G) == nil"));
        }
    }

    @Test
    void randomSeeds() {
        try (Sandbox a = VM.sandbox().randomSeed(42).limits(TIGHT).build();
             Sandbox b = VM.sandbox().randomSeed(42).limits(TIGHT).build()) {
            Object first = a.eval("return math.random(1, 1000000)");
            a.eval("math.randomseed(7) for i = 1, 100 do math.random() end");
            assertEquals(first, b.eval("return math.random(1, 1000000)"));
        }
        String draw = "local t = {} for i = 1, 8 do t[i] = math.random(1 << 30) end return table.concat(t, ',')";
        try (Sandbox c = ThreatSupport.sandbox(); Sandbox d = ThreatSupport.sandbox()) {
            // the default seed is the same everywhere (deterministic runs), but the generators are
            // each sandbox's own: drawing in one does not move the other
            Object first = c.eval(draw);
            assertNotEquals(first, c.eval(draw));
            assertEquals(first, d.eval(draw));
        }
        try (Sandbox e = VM.sandbox().randomSeedFromEntropy().limits(TIGHT).build();
             Sandbox f = VM.sandbox().randomSeedFromEntropy().limits(TIGHT).build()) {
            assertNotEquals(e.eval(draw), f.eval(draw)); // seeds from entropy differ between sandboxes
        }
    }

    @Test
    void sharedCompiledChunkKeepsNoState() {
        CompiledChunk chunk = VM.compile("counter", "local f = function() end counter = (counter or 0) + 1 "
                + "first = first or f return counter, first == f");
        try (Sandbox a = ThreatSupport.sandbox(); Sandbox b = ThreatSupport.sandbox()) {
            assertEquals(List.of(1L, true), a.run(chunk));
            assertEquals(2L, a.run(chunk).get(0));
            // the closure a's first run made never reaches b
            assertEquals(List.of(1L, true), b.run(chunk));
            assertEquals(false, b.eval("return first == nil"));
        }
    }

    @Test
    void capabilitiesDoNotLeakBetweenSandboxes() {
        Capabilities granted = Capabilities.standard().toBuilder().grant("secret", "a secret", c -> "s3cr3t").build();
        try (Sandbox a = VM.sandbox(granted, TIGHT); Sandbox b = ThreatSupport.sandbox()) {
            assertEquals("s3cr3t", a.eval("return secret()"));
            assertNull(b.eval("return secret"));
        }
    }
}
