package dev.luavm.tier;

import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.jit.AsmFunctionCompiler;
import dev.luavm.tier.DirectCallsTest.Outcome;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static dev.luavm.tier.DirectCallsTest.sameInEveryTier;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frameless calls (jit FramelessEmitter): small functions run with their registers in JVM
 * locals and no heap frame, and build their frames (and their frameless callers') only when
 * they leave their fast path. Everything a script can observe must stay the interpreter's:
 * output, errors with positions and tracebacks, gas, yields, limits, and what the live-heap walk
 * finds in the stack (weak tables, finalizers, memory figures).
 */
class FramelessCallsTest {

    private static Prototype function(String src, int index) {
        return LuaCompiler.compile(src.getBytes(StandardCharsets.UTF_8), "@f.lua").protos[index];
    }

    @Test
    void smallFixedArityFunctionsGetAFramelessEntryAndVarargOrLongOnesDoNot() {
        assertEquals(1, AsmFunctionCompiler.framelessArity(function("local function f(k) if k < 2 then return k end return f(k-1) + f(k-2) end", 0)));
        assertEquals(2, AsmFunctionCompiler.framelessArity(function("local function lt(a, b) return a > b end", 0)));
        assertEquals(0, AsmFunctionCompiler.framelessArity(function("local c = 0 local function inc() c = c + 1 return c end", 0)));
        assertEquals(-1, AsmFunctionCompiler.framelessArity(function("local function v(...) return ... end", 0)));
        assertEquals(-1, AsmFunctionCompiler.framelessArity(function("local function four(a, b, c, d) return a end", 0)));
        assertEquals(-1, AsmFunctionCompiler.framelessArity(function("local function long(x) " + "x = x + 1 ".repeat(300) + " return x end", 0)));
    }

    @Test
    void recursionArithmeticComparisonsAndTailCallsRunAsInterpreted() {
        Outcome o = sameInEveryTier("""
                local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
                print(fib(22))
                local function adder(k) return function(x) return x + k end end
                local function compose(f, g) return function(x) return f(g(x)) end end
                local chain = adder(0)
                for k = 1, 10 do chain = compose(adder(k), chain) end
                local s = 0
                for i = 1, 2000 do s = s + chain(i) end
                print(s)
                local function mix(a, b) return a // b, a % b end
                local function f(x, y) return x / y + x // y - x % y + (x ~ y) + (x << 2) + -x + 2^3 end
                print(f(7, 2), f(7.5, 2), f(-7, 3), pcall(f, 7.5, 1.5))
                local function eq(a, b) return a == b, a ~= b, a < b, a <= b end
                print(eq(1, 1.0), eq("a", "b"), eq(nil, false), eq({}, {}), eq(2^53, 2^53 + 1))
                local function t(n) if n <= 0 then return "done" end return t(n - 1) end
                print(t(100000))
                local function nn(x) if x ~= x then return 0.25 end return x end
                local function same(x) return x == x, x < x, x <= x end
                local nan = 0/0
                for i = 1, 3 do print(nn(nan), nn(-nan), nn(1), nn(1.5), same(nan), same(i)) end
                """);
        assertTrue(o.output().startsWith("17711\n"), o.output());
    }

    @Test
    void aCalleeLeavingItsFastPathBuildsEveryFramelessFrameForTracebacksAndErrors() {
        sameInEveryTier("""
                local mt = {__add = function(a, b) return 100 end, __index = function(t, k) return k .. "!" end}
                local function c(x) return x + 1 end
                local function b(x) return c(x) * 2 end
                local function a(x) return b(x) + 1 end
                print(a(1), a(setmetatable({}, mt)))
                local function field(t) return t.name end
                local function viaField(t) return field(t) end
                print(viaField({name = "n"}), viaField(setmetatable({}, mt)))
                local function bad(x) return x.y.z end
                local function mid(x) return bad(x) end
                local function top(x) return mid(x) end
                print(pcall(top, {}))
                print(select(2, xpcall(top, debug.traceback, {y = 1})))
                local function div(x) return x // 0 end
                local function callsDiv(x) return div(x) + 1 end
                print(pcall(callsDiv, 3))
                local function str(x) return x + 1 end
                print(str("10"), pcall(str, "x"))
                local function tailErr(n) if n == 0 then error("deep", 2) end return tailErr(n - 1) end
                print(pcall(tailErr, 5))
                print(select(2, xpcall(tailErr, debug.traceback, 3)))
                """);
    }

    @Test
    void builtinsHostCallsAndYieldsInsideFramelessCalleesGoThroughTheirFrames() {
        sameInEveryTier("""
                local function leaf(x) return tostring(x) .. "" end
                local function inner(x) return leaf(x) end
                print(inner(42))
                local function y(x) return coroutine.yield(x) end
                local function viaY(x) return y(x) + 1 end
                local co = coroutine.wrap(function(a) local r = viaY(a) return viaY(r) end)
                print(co(1), co(10), co(20))
                local function deep(n) if n == 0 then return coroutine.yield("bottom") end return deep(n - 1) end
                local gen = coroutine.wrap(function() return deep(200) end)
                print(gen(), gen("up"))
                local t = {5, 3, 9, 1}
                table.sort(t, function(p, q) return p > q end)
                print(table.concat(t, " "))
                print(pcall(table.sort, {3, "x", 1}, function(p, q) return p < q end))
                local n = 0
                table.sort({4, 2, 8, 6, 1}, function(p, q) n = n + 1 if n == 3 then print("third compare") end return p < q end)
                print(pcall(table.sort, {1, 2, 3}, function(p, q) coroutine.yield() end))
                """);
    }

    @Test
    void gasExhaustionAndDepthLimitsStopAtTheSamePoint() {
        String src = """
                local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
                for i = 1, 40 do print(i, fib(i)) end
                """;
        Outcome o = sameInEveryTier(src, Limits.defaults().withGas(3_000_000));
        assertTrue(o.error() != null && o.error().contains("gas"), String.valueOf(o.error()));
        sameInEveryTier("""
                local function inf(n) return 1 + inf(n + 1) end
                print(pcall(inf, 1))
                local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end
                print(d(150000), pcall(d, 250000))
                """);
    }

    @Test
    void cancellationAndTimeoutStopFramelessRecursionWithinMilliseconds() throws Exception {
        String src = "local function f(n) if n == 0 then return 0 end return f(n - 1) + 1 end while true do f(40) end";
        for (LuaVM vm : new LuaVM[] {CompiledTierTest.COMPILED, CompiledTierTest.AUTO}) {
            long t0 = System.nanoTime();
            Outcome o = DirectCallsTest.run(vm, src, Limits.unlimited().withTimeout(Duration.ofMillis(200)));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(o.error() != null && o.error().toLowerCase().contains("time"), String.valueOf(o.error()));
            assertTrue(ms < 1500, "took " + ms + " ms");
            long cancel = CompiledTierTest.msToCancel(vm, src);
            assertTrue(cancel < 1500, "cancelled after " + cancel + " ms");
        }
    }

    @Test
    void upvaluesSharedWithTheCallerAreReadAndWrittenInPlace() {
        sameInEveryTier("""
                local count, last = 0, nil
                local function bump(v) count = count + 1 last = v return count end
                for i = 1, 1000 do bump(i) end
                print(count, last)
                local function counter(start)
                  local c = start
                  local function inc(d) c = c + d return c end
                  local function get() return c end
                  return inc, get
                end
                local inc, get = counter(10)
                inc(1) inc(2)
                print(get(), inc(-13), get())
                local acc = {sum = 0}
                local function add(v) acc.sum = acc.sum + v end
                for i = 1, 100 do add(i) end
                print(acc.sum)
                """);
    }

    /**
     * A frameless callee leaves its registers in the stack as the interpreter does: a table
     * only a dead register still references stays visible to the live-heap walk of a later
     * allocation in the caller (here the concatenation, whose walk counts the caller's whole
     * register window), so the weak table keeps it exactly as interpreted: every round with
     * {@code keep}, not with {@code drop}. (Without the write-back at the callee's return the
     * compiled runs dropped it about one round in twenty.)
     */
    @Test
    void theStackHoldsWhatTheInterpreterLeavesForWeakTablesAndTheMemoryWalk() {
        String src = """
                local w = setmetatable({}, {__mode = "v"})
                local function keep(t) local a, b, c, d, e, f, g, h = 1, 2, 3, 4, 5, 6, 7, 8 local x = t.v return 0 end
                local function drop(t) local a, b, c, d, e, f, g, h = 1, 2, 3, 4, 5, 6, 7, 8 local x = 1 return 0 end
                local function run(f)
                  local kept = 0
                  local s = string.rep("x", 10000)
                  for i = 1, 200 do
                    local t = {v = {}}
                    w[1] = t.v
                    f(t)
                    t = nil
                    local junk = s .. s
                    if w[1] ~= nil then kept = kept + 1 end
                    if i < 0 then print(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20) end
                  end
                  return kept
                end
                print(run(keep), run(drop))
                """;
        for (long memory : new long[] {300_000, 400_000}) {
            Outcome o = sameInEveryTier(src, Limits.defaults().withMemory(memory));
            String[] kept = o.output().trim().split("\t");
            assertEquals("200", kept[0], "the dead register kept the table alive");
            assertTrue(Integer.parseInt(kept[1]) < 195, "walks ran: " + o.output());
        }
    }

    @Test
    void arityAndResultShapesOutsideTheFramelessFormGoTheOrdinaryWay() {
        sameInEveryTier("""
                local function two(a, b) return a, b end
                local function one(a) return a end
                print(one(1, 2, 3), one(), two(1), (two(1, 2)))
                local function none() end
                print(none(), select("#", none()), one(none()))
                local function f(a) local x, y = two(a, a) return x + y end
                print(f(3))
                local function g(a) return one(two(a, a)) end
                print(g(4))
                local t = setmetatable({}, {__call = function(self, x) return x * 2 end})
                local function callsT(x) return t(x) end
                print(callsT(21))
                """);
    }
}
