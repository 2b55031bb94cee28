package dev.luavm.tier;

import dev.luavm.Limits;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code obj:method()} where the receiver has a metatable and lacks the key: the compiled tier
 * goes straight to the metatable when the receiver's read missed within its free probes
 * (TierSupport.selfGet, FREE_MISS), and repeats the read as the interpreter does otherwise.
 * Output, errors and gas must be the interpreter's through every kind of chain and every change
 * to it.
 */
class SelfLookupTest {
    private static String same(String name, String src) {
        CompiledTierTest.Outcome i = CompiledTierTest.run(CompiledTierTest.INTERP, name, src.getBytes(), Limits.defaults());
        CompiledTierTest.Outcome c = CompiledTierTest.run(CompiledTierTest.COMPILED, name, src.getBytes(), Limits.defaults());
        CompiledTierTest.Outcome a = CompiledTierTest.run(CompiledTierTest.AUTO, name, src.getBytes(), Limits.defaults());
        assertEquals(i.output(), c.output(), "output");
        assertEquals(i.error(), c.error(), "error");
        assertEquals(i.gas(), c.gas(), "gas");
        assertEquals(i, a, "auto");
        assertNull(i.error(), i.error());
        return i.output();
    }

    @Test
    void chainsFollowEveryChange() {
        String out = same("self_chain.lua", """
                local Base = {}; Base.__index = Base
                function Base:who() return 'base' end
                local Mid = setmetatable({}, {__index = Base}); Mid.__index = Mid
                local Leaf = setmetatable({}, {__index = Mid}); Leaf.__index = Leaf
                local o = setmetatable({x = 1}, Leaf)
                local seen = {}
                for i = 1, 60 do
                  local ok, v = pcall(function() return o:who() end)
                  seen[#seen + 1] = ok and v or 'err'
                  if i == 10 then function Mid:who() return 'mid' end end          -- a new key in a nearer table
                  if i == 20 then rawset(Leaf, 'who', function() return 'leaf' end) end
                  if i == 25 then Leaf.who = nil end                                 -- removed again: Mid's
                  if i == 30 then getmetatable(Mid).__index = nil; Mid.who = nil end -- the chain cut
                  if i == 35 then setmetatable(Mid, {__index = function(t, k) return function() return 'fn:' .. k end end}) end
                  if i == 40 then setmetatable(o, {__index = Base}) end             -- the receiver's metatable
                  if i == 45 then o.who = function() return 'own' end end           -- the receiver's own key
                  if i == 50 then o.who = nil; Base.who = function(self) return 'x=' .. self.x end end
                  if i == 55 then getmetatable(o).__index = setmetatable({}, {__index = Leaf}) end
                end
                print(table.concat(seen, ' '))
                """);
        assertTrue(out.contains("base mid") && out.contains("leaf") && out.contains("fn:who") && out.contains("own")
                && out.contains("x=1") && out.contains("err"), out);
    }

    @Test
    void fullReceiversAndLongNamesChargeAsInterpreted() {
        // a receiver whose misses probe beyond the free slots, and names over the free compare size
        same("self_probe.lua", """
                local long = string.rep('m', 40)
                local C = {}; C.__index = C
                C[long .. '1'] = function(self) return 1 end
                function C:short() return 2 end
                local objs = {}
                for n = 1, 40 do
                  local o = setmetatable({}, C)
                  for j = 1, n do o['f' .. j] = j end
                  objs[n] = o
                end
                local s = 0
                for r = 1, 20 do
                  for n = 1, 40 do
                    local o = objs[n]
                    s = s + o:short() + o[long .. '1'](o)
                    local f = o[long .. '2']
                    if f == nil then s = s + 1 end
                  end
                end
                print(s)
                """);
    }

    @Test
    void missingMethodsAndIndexFunctionsKeepTheirErrorsAndYields() {
        CompiledTierTest.Outcome i = CompiledTierTest.run(CompiledTierTest.INTERP, "self_err.lua", ERR.getBytes(), Limits.defaults());
        CompiledTierTest.Outcome c = CompiledTierTest.run(CompiledTierTest.COMPILED, "self_err.lua", ERR.getBytes(), Limits.defaults());
        assertEquals(i, c);
        assertTrue(i.output().contains("method 'nope'"), i.output());
        assertTrue(i.output().contains("y:go\ty:go\t3"), i.output());
    }

    private static final String ERR = """
            local C = {}; C.__index = C
            local o = setmetatable({}, C)
            print(pcall(function() return o:nope() end))
            local log = {}
            local P = setmetatable({}, {__index = function(t, k) log[#log + 1] = coroutine.yield('y:' .. k); return function() return #log end end})
            local q = setmetatable({}, {__index = P})
            local co = coroutine.wrap(function() q:go(); return q:go() + 1 end)
            print(co(), co(1), co(2))
            local bare = setmetatable({}, {})
            print(pcall(function() return bare:missing() end))
            """;
}
