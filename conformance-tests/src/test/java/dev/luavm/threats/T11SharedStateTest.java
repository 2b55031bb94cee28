package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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

    /**
     * What a sandbox observes of its library tables and globals, and what they cost it: the
     * layouts (pairs order) of _G and string before and after the script and the host add names,
     * the gas and memory of those runs. The hash parts of library tables are shared with their
     * template until written, and the layouts new names lead to are learned by the first sandbox
     * of a runtime and taken by the next ones (LuaTable's "Copies share their hash part until
     * written"); none of that may show.
     */
    private static String observe(dev.luavm.LuaVM vm, Capabilities caps) {
        try (Sandbox sb = vm.sandbox().capabilities(caps).limits(TIGHT).randomSeed(3).build()) {
            StringBuilder out = new StringBuilder();
            out.append(sb.eval("local s = {} for _, t in ipairs({_G, string, math, table}) do for k in pairs(t) do "
                    + "s[#s + 1] = tostring(k) end end return table.concat(s, ',')")).append('|');
            out.append(sb.eval("return collectgarbage('count')")).append('|');
            sb.setGlobal("hostvar", 5L);
            sb.setGlobal("hostvar2", "x");
            out.append(sb.eval("x1 = 1 string.foo = 2 math.pi = nil _G.print = nil for i = 1, 40 do _G['g' .. i] = i end "
                    + "local s = {} for k in pairs(_G) do s[#s + 1] = tostring(k) end for k in pairs(string) do "
                    + "s[#s + 1] = tostring(k) end for k in pairs(math) do s[#s + 1] = tostring(k) end "
                    + "return table.concat(s, ',')")).append('|');
            out.append(sb.usage().gas()).append('|').append(sb.usage().memoryBytes()).append('|')
                    .append(sb.eval("return collectgarbage('count')"));
            return out.toString();
        }
    }

    /** A runtime's first sandbox (which learns the layouts), its later ones, and another runtime's all observe the same. */
    @Test
    void theFirstAndLaterSandboxesOfARuntimeObserveTheSame() {
        List<Capabilities> kinds = List.of(Capabilities.standard(),
                Capabilities.standard().toBuilder().grant("a.b.c", "x", c -> 1L).grant("zz", "y", c -> 2L).build(),
                Capabilities.builder().bundles(List.of("base", "string", "table", "math", "utf8", "os", "coroutine")).build());
        for (Capabilities caps : kinds) {
            String first = observe(dev.luavm.LuaVM.create(), caps);
            dev.luavm.LuaVM vm = dev.luavm.LuaVM.create();
            for (int i = 0; i < 3; i++) assertEquals(first, observe(vm, caps), "sandbox " + i + " of a runtime");
            assertEquals(first, observe(VM, caps), "a runtime many sandboxes used");
        }
    }

    /**
     * Sandboxes of one runtime built, written and read on several threads at once: each sees its
     * own changes and none of another's, whichever sandbox learned a layout first.
     */
    @Test
    void sandboxesOnManyThreadsShareNothing() throws Exception {
        dev.luavm.LuaVM vm = dev.luavm.LuaVM.create();
        String pristine;
        try (Sandbox sb = vm.sandbox(Capabilities.standard(), TIGHT)) {
            pristine = (String) sb.eval("local s = {} for k, v in pairs(_G) do s[#s + 1] = tostring(k) .. '=' .. type(v) end "
                    + "for k in pairs(string) do s[#s + 1] = k end return table.concat(s, ',')");
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int task = 0; task < 8; task++) {
                int id = task;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        try (Sandbox sb = vm.sandbox(Capabilities.standard(), TIGHT)) {
                            sb.setGlobal("owner", (long) id);
                            String seen = (String) sb.eval("local s = {} for k, v in pairs(_G) do if k ~= 'owner' then "
                                    + "s[#s + 1] = tostring(k) .. '=' .. type(v) end end for k in pairs(string) do "
                                    + "s[#s + 1] = k end return table.concat(s, ',')");
                            if (!pristine.equals(seen)) return "task " + id + " saw " + seen;
                            sb.eval("string.upper = nil string['t" + id + "'] = owner math.pi = owner _G.print = owner "
                                    + "for j = 1, 20 do _G['n' .. j] = owner end");
                            Object mine = sb.eval("return string.t" + id + " == owner and math.pi == owner and n20 == owner");
                            if (!Boolean.TRUE.equals(mine)) return "task " + id + " lost its own writes";
                        }
                    }
                    return "ok";
                }));
            }
            for (Future<String> f : results) assertEquals("ok", f.get());
        } finally {
            pool.shutdownNow();
        }
        try (Sandbox sb = vm.sandbox(Capabilities.standard(), TIGHT)) {
            assertEquals(true, sb.eval("return string.t0 == nil and type(string.upper) == 'function' and math.pi > 3.14 "
                    + "and type(print) == 'function' and n1 == nil and owner == nil"));
        }
    }
}
