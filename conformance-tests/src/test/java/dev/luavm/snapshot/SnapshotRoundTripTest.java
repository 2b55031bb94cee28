package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A sandbox restored from a snapshot goes on exactly as the original would have: the same
 * output and gas, run after run, whatever the state holds.
 */
class SnapshotRoundTripTest {
    static final LuaVM VM = LuaVM.create();

    static Sandbox fresh() {
        return VM.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults()).randomSeed(42)
                .virtualTime(Instant.parse("2024-01-01T00:00:00Z")).build();
    }

    static Sandbox restored(byte[] snap) {
        return VM.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults())
                .virtualTime(Instant.parse("2024-01-01T00:00:00Z")).restoreFrom(snap).build();
    }

    /** Runs {@code setup} then each of {@code steps} in one sandbox, and again with a snapshot taken after setup; outputs and gas must match. */
    static void sameAsUninterrupted(String setup, String... steps) {
        Sandbox a = fresh();
        a.eval("setup", setup);
        Sandbox b = fresh();
        b.eval("setup", setup);
        byte[] snap = b.snapshot();
        Sandbox c = restored(snap);
        for (int i = 0; i < steps.length; i++) {
            a.eval("step" + i, steps[i]);
            String outA = a.output();
            long gasA = a.usage().gas();
            c.eval("step" + i, steps[i]);
            assertEquals(outA, c.output(), "output of step " + i);
            assertEquals(gasA, c.usage().gas(), "gas of step " + i);
        }
    }

    @Test
    void globalsAndNumbers() {
        sameAsUninterrupted("x = 1; y = 2.5; z = 'hello'; t = {1, 2, 3, a = 'b', [2.5] = true}; nan = 0/0; negz = -0.0",
                "print(x, y, z, #t, t.a, t[2.5], nan ~= nan, 1/negz, math.type(x), math.type(y))");
    }

    @Test
    void closuresSharingUpvalues() {
        sameAsUninterrupted("""
                function counter()
                  local n = 0
                  return function() n = n + 1; return n end, function() return n end
                end
                inc, get = counter()
                inc(); inc()
                """, "print(inc(), get(), inc(), get())", "print(inc(), get())");
    }

    @Test
    void metatablesAndTostringIds() {
        sameAsUninterrupted("""
                local mt = {__index = function(t, k) return k .. '!' end, __tostring = function(t) return 'T' end}
                obj = setmetatable({}, mt)
                a = {}
                print(a)
                """, "print(obj.foo, tostring(obj), a, {}, {}, print)", "print({}, a)");
    }

    @Test
    void suspendedGenerator() {
        sameAsUninterrupted("""
                gen = coroutine.wrap(function()
                  for i = 1, 10 do coroutine.yield(i * i) end
                  return 'done'
                end)
                co = coroutine.create(function(a, b)
                  local s = a + b
                  while true do s = s + coroutine.yield(s) end
                end)
                print(gen(), gen(), coroutine.resume(co, 1, 2))
                """, "print(gen(), gen(), coroutine.resume(co, 10))", "for i = 1, 6 do print(gen()) end print(coroutine.status(co))");
    }

    @Test
    void randomAndSort() {
        sameAsUninterrupted("math.random(); math.random(1, 10); t = {} for i = 1, 100 do t[i] = math.random(1, 1000) end",
                "print(math.random(), math.random(1, 100)) table.sort(t) print(t[1], t[100])",
                "local u = {} for i = 1, 50 do u[i] = math.random(1, 5) end table.sort(u, function(a, b) return a > b end) print(u[1], u[50])");
    }

    @Test
    void weakTablesAndBinaryStrings() {
        sameAsUninterrupted("""
                cache = setmetatable({}, {__mode = 'k'})
                keep = {}
                cache[keep] = 1
                cache[{}] = 2
                bin = '\\0\\1\\255' .. string.rep('\\200', 40)
                """, "local n = 0 for k, v in pairs(cache) do n = n + 1 end print(n, #bin, bin:byte(1, 3))",
                "collectgarbage() local n = 0 for k, v in pairs(cache) do n = n + v end print(n, collectgarbage('count') > 0)");
    }

    @Test
    void gmatchAndLoad() {
        sameAsUninterrupted("""
                it = string.gmatch('one two three four', '%a+')
                print(it())
                f = load('local a = ... return a * 2', '=mychunk')
                g = load(function() return nil end)
                """, "print(it(), it(), f(21))", "print(it(), it())");
    }

    @Test
    void xpcallFinalizersAndCollectorState() {
        sameAsUninterrupted("""
                getmetatable('').__index.shout = function(s) return s:upper() .. '!' end
                co = coroutine.create(function()
                  local r = {xpcall(function()
                    local v = coroutine.yield('in xpcall')
                    error({code = v})
                  end, function(e) return 'handled ' .. tostring(e.code) end)}
                  coroutine.yield(table.unpack(r))
                  return 'end'
                end)
                print(coroutine.resume(co))
                gcs = {}
                for i = 1, 5 do setmetatable({}, {__gc = function() gcs[#gcs + 1] = i end}) end
                keep = setmetatable({}, {__gc = function() print('kept one finalized') end})
                collectgarbage('stop')
                function mk() return function() return 1 end end
                f1 = mk()
                deep = coroutine.wrap(function(n)
                  local function rec(k) if k == 0 then return coroutine.yield('deep') end return rec(k - 1) + 1 end
                  return rec(n)
                end)
                print(deep(3000))
                """,
                "print(('abc'):shout(), coroutine.resume(co, 42)) print(coroutine.resume(co)) print(coroutine.status(co))",
                "print(collectgarbage('isrunning'), mk() == f1, #gcs) collectgarbage() print(#gcs, table.concat(gcs, ','))",
                "keep = nil collectgarbage() print(deep(10), tostring({}))");
    }
}
