package dev.luavm.tier;

import dev.luavm.Capabilities;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Limits;
import dev.luavm.Sandbox;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.luavm.tier.CompiledTierTest.AUTO;
import static dev.luavm.tier.CompiledTierTest.COMPILED;
import static dev.luavm.tier.CompiledTierTest.INTERP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct compiled-to-compiled calls: a compiled caller runs a compiled callee on the Java
 * stack, at most a fixed depth deep, and everything a script can observe (output, errors,
 * tracebacks, gas, yields, limits) stays the interpreter's.
 */
class DirectCallsTest {
    /** TierSupport.MAX_NESTED */
    static final int MAX_NESTED = 64;

    /** Host function {@code probe()}: compiled {@code run} frames on the Java stack right now. */
    static long compiledFramesOnTheJavaStack() {
        return StackWalker.getInstance(Set.of(StackWalker.Option.SHOW_HIDDEN_FRAMES)).walk(s -> s
                .filter(f -> f.getClassName().startsWith("dev.luavm.vm.LuaFunction") && f.getMethodName().equals("run"))
                .count());
    }

    record Outcome(String output, String error, long gas) {}

    /**
     * Live threads other than host-call threads, which earlier tests' host functions leave idle
     * and which end on their own after a while (dev.luavm.host.HostThreads).
     */
    static long threadsButHostCalls() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !t.getName().startsWith("luavm-host-call-")).count();
    }

    static Outcome run(LuaVM vm, String src, Limits limits) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Capabilities caps = Capabilities.standard().toBuilder().bundle("debug")
                // it looks at the sandbox's own Java stack: it must run on the sandbox's thread
                .declare("probe", "compiled frames on the Java stack").onSandboxThread()
                .grant(call -> compiledFramesOnTheJavaStack()).build();
        try (Sandbox sb = vm.sandbox().capabilities(caps).limits(limits).output(out).build()) {
            String error = null;
            try {
                sb.run(vm.compile("@d.lua", src.getBytes(StandardCharsets.UTF_8)));
            } catch (LuaScriptException | LuaLimitException e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            return new Outcome(out.toString(StandardCharsets.ISO_8859_1), error, sb.usage().gas());
        }
    }

    /** Same output, error and gas interpreted, compiled on first entry and tiered up; returns the compiled outcome. */
    static Outcome sameInEveryTier(String src, Limits limits) {
        Outcome i = run(INTERP, src, limits);
        Outcome c = run(COMPILED, src, limits);
        Outcome a = run(AUTO, src, limits);
        assertEquals(i, c, "compile-all");
        assertEquals(i, a, "auto");
        return c;
    }

    static Outcome sameInEveryTier(String src) {
        return sameInEveryTier(src, Limits.defaults());
    }

    /** probe() prints a tier-dependent figure: compare outputs after it separately. */
    @Test
    void callsNestOnTheJavaStackUpToTheBoundThenGoThroughTheHeap() {
        String src = """
                local maxp
                local function d(n) maxp = math.max(maxp, probe()) if n == 0 then return 0 end return (d(n - 1)) end
                maxp = 0 d(10) print(maxp)
                maxp = 0 d(1000) print(maxp)
                local function t(n) if n == 0 then return probe() end return t(n - 1) end
                print(t(10))
                local function it(n) local k = 0 return function() k = k + 1 if k <= n then return k, probe() end end end
                local maxf = 0 for _, f in it(3) do maxf = math.max(maxf, f) end
                print(maxf)
                """;
        assertEquals("0\n0\n0\n0\n", run(INTERP, src, Limits.defaults()).output);
        String[] c = run(COMPILED, src, Limits.defaults()).output.split("\n");
        // the main chunk (entered by the dispatch loop) + 11 frames of d, each run directly by its caller
        // (the first call compiles d, as the dispatch loop would at that count, and runs it)
        assertEquals(12, Long.parseLong(c[0]), "direct calls nest");
        assertEquals(MAX_NESTED + 1, Long.parseLong(c[1]), "bounded: the dispatch loop takes the deeper calls");
        // tail calls replace the frame: the direct caller runs the new one, the Java stack does not grow
        assertEquals(2, Long.parseLong(c[2]), "tail calls run by the direct caller");
        // a generic for's iterator closure (TFORCALL) is called directly too
        assertEquals(2, Long.parseLong(c[3]), "iterator called directly");
    }

    @Test
    void deepRecursionCompletesInEveryTierAndOnASmallHostStack() throws Exception {
        String src = """
                local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end
                print(d(150000))
                local function m(n) if n == 0 then return 0 end local a = m(n - 1) return a + 1 end
                local function e(n) if n % 2 == 0 then return m(n) end return e(n - 1) end
                print(e(149999))
                local function inf(n) return 1 + inf(n) end
                print(pcall(inf, 1))
                print(select(2, xpcall(inf, debug.traceback, 1)):sub(1, 300))
                """;
        Outcome c = sameInEveryTier(src);
        assertTrue(c.output.startsWith("150000\n149998\nfalse\td.lua:6: stack overflow"), c.output);
        // on a host thread with a 256 KiB stack, compiled: the same (the nesting is bounded, the rest is heap)
        Outcome[] small = new Outcome[1];
        Thread t = new Thread(null, () -> small[0] = run(COMPILED, src, Limits.defaults()), "small", 256 * 1024);
        t.start();
        t.join(60_000);
        assertEquals(c, small[0]);
    }

    @Test
    void errorsInsideNestedCompiledCallsAreCaughtAtEveryLevelWithTheInterpretersPositionsTracebacksAndGas() {
        String src = """
                local function lvl(n, k, how)
                  if n == k then
                    if how == 1 then error("boom at " .. n)
                    elseif how == 2 then local x = nil; return x.y
                    elseif how == 3 then error({code = n})
                    else return ("x") .. {} end
                  end
                  local r = lvl(n + 1, k, how)
                  return r + 1
                end
                for k = 0, 140, 7 do
                  for how = 1, 4 do
                    local ok, e = pcall(lvl, 0, k, how)
                    print(k, how, ok, type(e) == "table" and e.code or e)
                  end
                end
                -- pcall in the middle of a nested chain: caught there, the outer levels go on
                local function mid(n, k, p)
                  if n == p then local ok, e = pcall(mid, n + 1, k, -1) return ok and e or ("caught " .. tostring(e)) end
                  if n == k then error("deep " .. n, 0) end
                  local v = mid(n + 1, k, p)
                  return v
                end
                for p = 0, 100, 9 do print(p, mid(0, 120, p)) end
                print(xpcall(lvl, debug.traceback, 0, 30, 2))
                print(xpcall(lvl, debug.traceback, 0, 90, 1))
                lvl(0, 70, 2)
                """;
        Outcome c = sameInEveryTier(src);
        assertTrue(c.output.contains("d.lua:3: boom at 63"), c.output);
        assertTrue(c.error != null && c.error.contains("d.lua:4: attempt to index a nil value (local 'x')"), c.error);
    }

    @Test
    void gasExhaustionInsideDeepCompiledRecursionStopsWhereTheInterpreterStops() {
        String src = "local function f(n) if n == 0 then return 0 end return f(n - 1) + 1 end\n"
                + "local s = 0 for i = 1, 1e9 do s = s + f(i % 200) end";
        for (long gas : new long[] {1_000, 12_345, 500_000, 2_000_001}) {
            Outcome c = sameInEveryTier(src, Limits.defaults().withGas(gas));
            assertTrue(c.error != null && c.error.contains("gas"), String.valueOf(c.error));
        }
    }

    @Test
    void yieldsAcrossNestedCompiledFrames() {
        String src = """
                local function down(n)
                  if n == 0 then return coroutine.yield("bottom") end
                  local v = down(n - 1)
                  if n % 25 == 0 then coroutine.yield(n) end
                  return v + 1
                end
                local function tdown(n) if n == 0 then return coroutine.yield("tail") end return tdown(n - 1) end
                local function gen(n) return function() local k = 0 return function() k = k + 1 if k <= n then coroutine.yield(k) return k end end end end
                local co = coroutine.create(function(n)
                  local a = down(n)
                  local b = tdown(n)
                  local s = 0
                  for k in gen(3)() do s = s + k end
                  return a, b, s
                end)
                local out = {}
                local r = {coroutine.resume(co, 150)}
                while coroutine.status(co) ~= "dead" do
                  out[#out + 1] = table.concat(r, ",", 2)
                  r = {coroutine.resume(co, #out)}
                end
                print(table.concat(out, " "))
                print(table.unpack(r))
                local cs, sum = {}, 0
                for j = 1, 10000 do cs[j] = coroutine.wrap(function() return down(3) end) end
                for j = 1, 10000 do cs[j]() end
                for j = 1, 10000 do sum = sum + cs[j](j) end
                print(sum)
                """;
        long threads = threadsButHostCalls();
        Outcome c = sameInEveryTier(src);
        assertEquals(threadsButHostCalls(), threads, "no thread per coroutine");
        assertEquals("bottom 25 50 75 100 125 150 tail 1 2 3\ntrue\t151\t8\t6\n50035000\n", c.output); // as lua5.3
    }

    @Test
    void timeoutAndCancelStopDeepCompiledRecursionPromptly() throws Exception {
        String src = "local function f(n) if n == 0 then return 0 end return f(n - 1) + 1 end while true do f(5000) end";
        long t0 = System.nanoTime();
        Outcome c = run(COMPILED, src, Limits.unlimited().withTimeout(Duration.ofMillis(200)));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("deep compiled recursion stopped by a 200 ms timeout after " + ms + " ms");
        assertTrue(c.error != null && c.error.toLowerCase().contains("time"), String.valueOf(c.error));
        assertTrue(ms < 1200, "took " + ms + " ms");

        long ms2 = CompiledTierTest.msToCancel(COMPILED, src);
        System.out.println("deep compiled recursion cancelled after " + ms2 + " ms (cancel at 200)");
        assertTrue(ms2 < 1200, "took " + ms2 + " ms");
    }

    @Test
    void aHostStackOverflowUnderNestedCompiledRunsIsACatchableError() throws Exception {
        // re-entries through __tostring and table.sort, each with compiled calls nested under it
        String src = String.join("\n",
                "local function g(n) if n == 0 then return 0 end return g(n - 1) + 1 end",
                "local function f() g(40) return tostring(setmetatable({}, {__tostring = function() g(40) return f() end})) end",
                "local ok, e = pcall(f)",
                "local function cmp(a, b) g(40) table.sort({3, 2, 1}, cmp) return a < b end",
                "local ok2, e2 = pcall(table.sort, {3, 2, 1}, cmp)",
                "print(ok, e, ok2, e2, g(1000))");
        List<String> outs = new ArrayList<>();
        for (LuaVM vm : List.of(INTERP, COMPILED)) {
            Outcome[] o = new Outcome[1];
            Thread t = new Thread(null, () -> o[0] = run(vm, src, Limits.defaults()), "small-stack", 200 * 1024);
            t.start();
            t.join(60_000);
            assertTrue(o[0] != null, "escaped the sandbox");
            outs.add(o[0].output + o[0].error);
        }
        // Which of the two a 200 KiB stack gives depends on how much of the JVM's own code is
        // JIT-compiled yet (interpreted JVM frames are larger), in either tier, so each run must
        // end in one of them: the catchable error, or the run stopped as too deep. Never escaping.
        List<String> allowed = List.of("false\tC stack overflow\tfalse\tC stack overflow\t1000\nnull",
                "LuaLimitException: depth limit exceeded");
        for (String out : outs) assertTrue(allowed.contains(out), out);
    }

    @Test
    void autoTiersUpByCountsWhetherCallsAreDirectOrNot() {
        LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
        String src = "local function f(n) return n + 1 end local s = 0 for i = 1, 2000 do s = f(s) end print(s)";
        Outcome a = run(vm, src, Limits.defaults());
        assertEquals(run(INTERP, src, Limits.defaults()), a);
        assertEquals(List.of("main chunk of d.lua", "function <d.lua:1>"), vm.compiledFunctions());
    }

    /**
     * A CALL's one helper (TierSupport.callDirect) answers three ways: a builtin done in place
     * (here one that grows the stack between direct calls), a frame for the dispatch loop (pcall,
     * coroutine.wrap, the depth bound) or a direct run (a closure, or a __call handler found by
     * precall); every way mixed in one recursion, with errors and tracebacks from each.
     */
    @Test
    void everyAnswerOfACallMixesWithDirectCallsWithTheInterpretersOutputTracebacksAndGas() {
        String src = """
                local callable = setmetatable({}, {__call = function(self, n, k)
                  if n == k then error("in __call at " .. n) end
                  return n
                end})
                local function f(n, k)
                  if n == 0 then return 0 end
                  local m = n % 5
                  local v
                  if m == 0 then v = select("#", table.unpack({}, 1, 180 + n)) -- builtin in place, stack grown
                  elseif m == 1 then v = callable(n, k)                          -- __call: a direct run
                  elseif m == 2 then local ok, e = pcall(f, n // 9, k) v = ok and e or #tostring(e)
                  elseif m == 3 then v = coroutine.wrap(function(a) coroutine.yield(a + 1) end)(n)
                  else v = math.max(n, 3) end
                  return f(n - 1, k) + v
                end
                for k = -1, 60, 7 do print(k, pcall(f, 60, k)) end
                for rep = 1, 30 do f(150, -1) end
                print(f(150, -1))
                print(xpcall(f, debug.traceback, 40, 11))
                print(select(2, pcall(f, 130, 101)))
                f(90, 66)
                """;
        Outcome c = sameInEveryTier(src);
        assertTrue(c.output.contains("d.lua:2: in __call at 11\nstack traceback:"), c.output);
        assertTrue(c.error != null && c.error.contains("d.lua:2: in __call at 66"), c.error);
    }
}
