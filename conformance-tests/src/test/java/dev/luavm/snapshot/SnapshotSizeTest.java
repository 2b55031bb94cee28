package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot is at most twice the memory the meter counts for the same state
 * ({@code usage().memoryBytes()} after {@code collectgarbage()}), for states of 64 KiB and
 * more, whatever the state is made of; and it restores to the same figure.
 */
class SnapshotSizeTest {
    static final LuaVM VM = LuaVM.create();

    @ParameterizedTest
    @ValueSource(strings = {
        // integers and floats in array parts
        "t = {} for i = 1, 20000 do t[i] = i * 3 end u = {} for i = 1, 20000 do u[i] = i + 0.5 end",
        // hash parts: float keys and float values, the densest case per slot
        "h = {} for i = 1, 20000 do h[i + 0.25] = i * 0.5 end",
        // many short strings, and long ones
        "s = {} for i = 1, 5000 do s[i] = 'k' .. i end l = {} for i = 1, 20 do l[i] = string.rep(string.char(i), 5000) end",
        // string keys, nested tables, booleans
        "r = {} for i = 1, 3000 do r['name' .. i] = {id = i, ok = i % 2 == 0, tags = {'a', 'b'}} end",
        // closures and upvalues
        "fs = {} for i = 1, 3000 do local x = i fs[i] = function() x = x + 1 return x end end",
        // coroutines with frames
        "cs = {} for i = 1, 300 do cs[i] = coroutine.wrap(function(a) local t = {a} while true do a = coroutine.yield(#t) t[#t + 1] = a end end) cs[i](i) end",
        // a lot of code, much of it comments, loaded as many chunks
        "code = {} for i = 1, 200 do code[i] = load(('-- a comment line that the compiler skips\\n'):rep(10) .. 'local a = ... return function(b) return a + b + ' .. i .. ' end')(i) end",
        // a coroutine suspended 3,000 calls deep: frames and registers
        "deep = coroutine.wrap(function() local function d(n, a, b) if n == 0 then coroutine.yield() end return d(n - 1, n, a) + 1 end d(3000) end) deep()",
        // weak tables whose values are binary strings
        "w = setmetatable({}, {__mode = 'k'}) keep = {} for i = 1, 3000 do local k = {} keep[i] = k w[k] = string.char(i % 256, 0, 255, i // 256) .. ('\\0'):rep(20) end",
        // a sparse array part and dead keys
        "sp = {} for i = 1, 30000 do sp[i] = i end for i = 1, 30000, 3 do sp[i] = nil end d = {} for i = 1, 5000 do d['x' .. i] = i end for i = 1, 5000, 2 do d['x' .. i] = nil end",
    })
    void atMostTwiceTheCountedMemory(String build) {
        Sandbox sb = VM.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults()).randomSeed(1).build();
        sb.eval(build);
        sb.eval("collectgarbage()");
        long memory = sb.usage().memoryBytes();
        assertTrue(memory >= 64 << 10, "a state of " + memory + " bytes is below the rule's 64 KiB");
        byte[] snap = sb.snapshot();
        System.out.printf("[snapshot] %,d bytes for %,d counted (%.2fx): %s%n", snap.length, memory,
                (double) snap.length / memory, build.length() > 60 ? build.substring(0, 60) + "..." : build);
        assertTrue(snap.length <= 2 * memory, snap.length + " > 2 x " + memory);
        Sandbox back = VM.sandbox().capabilities(Capabilities.standard()).limits(Limits.defaults()).restoreFrom(snap).build();
        back.eval("collectgarbage()");
        sb.eval("collectgarbage()");
        assertEquals(sb.usage().memoryBytes(), back.usage().memoryBytes(), "the restored state counts the same");
    }
}
