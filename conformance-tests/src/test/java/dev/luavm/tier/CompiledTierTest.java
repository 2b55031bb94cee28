package dev.luavm.tier;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.bytecode.Prototype;
import dev.luavm.jit.AsmFunctionCompiler;
import dev.luavm.vm.tier.FunctionCompiler;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The compiled tier's invariants: every corpus script gives the same output, the same error
 * (message, positions, traceback) and exactly the same gas interpreted, compiled on first entry
 * and tiered up; generated classes reference nothing but the runtime-support class; deep
 * recursion, coroutines and cancellation behave as interpreted.
 */
class CompiledTierTest {
    /** every class generated, for the constant-pool audit */
    static final List<byte[]> GENERATED = Collections.synchronizedList(new ArrayList<>());
    static final FunctionCompiler RECORDING = new FunctionCompiler() {
        final AsmFunctionCompiler inner = new AsmFunctionCompiler();

        @Override
        public byte[] compile(Prototype p, String internalName) {
            byte[] b = inner.compile(p, internalName);
            if (b != null) GENERATED.add(b);
            return b;
        }
    };

    static final LuaVM INTERP = LuaVM.builder().tier(Tier.INTERP).build();
    static final LuaVM COMPILED = LuaVM.builder().tier(Tier.COMPILE_ALL).functionCompiler(RECORDING).build();
    static final LuaVM AUTO = LuaVM.builder().tier(Tier.AUTO).build();

    /** types that appear in stack-map frames only (run's parameters, the rethrown throwable) */
    static final java.util.Set<String> FRAME_TYPES = java.util.Set.of("dev/luavm/vm/LuaState",
            "dev/luavm/vm/Coroutine", "dev/luavm/vm/CallFrame", "java/lang/Throwable");

    record Outcome(String output, String error, long gas) {}

    static Outcome run(LuaVM vm, String name, byte[] source, Limits limits) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String error = null;
        Sandbox sb = vm.sandbox().capabilities(Capabilities.builder().bundles(Capabilities.standard().bundles())
                .bundle("package").build()).limits(limits).output(out).randomSeed(7).build();
        try (sb) {
            try {
                sb.run(vm.compile("@" + name, source));
            } catch (LuaScriptException | LuaLimitException e) {
                error = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            return new Outcome(out.toString(StandardCharsets.ISO_8859_1), error, sb.usage().gas());
        }
    }

    static List<Path> corpus() throws Exception {
        Path root = Path.of(CompiledTierTest.class.getResource("/corpus").toURI());
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> p.toString().endsWith(".lua")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> corpusSameOutputErrorsAndGasInEveryTier() throws Exception {
        return corpus().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            byte[] src = Files.readAllBytes(p);
            String name = p.getFileName().toString();
            Outcome i = run(INTERP, name, src, Limits.defaults());
            Outcome c = run(COMPILED, name, src, Limits.defaults());
            Outcome a = run(AUTO, name, src, Limits.defaults());
            assertEquals(i.output, c.output, "output, compile-all");
            assertEquals(i.error, c.error, "error, compile-all");
            assertEquals(i.gas, c.gas, "gas, compile-all");
            assertEquals(i, a, "auto");
        }));
    }

    @Test
    void generatedClassesReferenceOnlyTheRuntimeSupportClass() throws Exception {
        for (Path p : corpus()) run(COMPILED, p.getFileName().toString(), Files.readAllBytes(p), Limits.defaults());
        assertTrue(GENERATED.size() > 300, "only " + GENERATED.size() + " classes generated for the corpus");
        assertEquals(List.of(), ((List<?>) failures(COMPILED)), "classes the JVM refused");
        synchronized (GENERATED) {
            for (byte[] b : GENERATED) {
                ClassAudit audit = new ClassAudit(b);
                assertEquals(List.of(), audit.dynamicTags, audit.thisClass + ": method handles or dynamic constants");
                // the pool's classes: the runtime class, itself, and the stack-map frame types of run's locals
                for (String c : audit.classes) {
                    if (!c.equals(FunctionCompiler.RUNTIME) && !c.equals(audit.thisClass) && !FRAME_TYPES.contains(c)) {
                        fail(audit.thisClass + " names class " + c);
                    }
                }
                // every owner of a call or field access, every type an instruction names
                for (String owner : OwnerScan.owners(b)) {
                    if (!owner.equals(FunctionCompiler.RUNTIME) && !owner.equals(audit.thisClass)) {
                        fail(audit.thisClass + " references " + owner);
                    }
                }
            }
        }
        System.out.println("audited " + GENERATED.size() + " generated classes");
    }

    private static Object failures(LuaVM vm) throws Exception {
        // Tiering.failures() through the VM (package-private accessor): reflection keeps the API small
        var m = LuaVM.class.getDeclaredMethod("tiering");
        m.setAccessible(true);
        return ((dev.luavm.vm.Tiering) m.invoke(vm)).failures();
    }

    @Test
    void everyCompiledFunctionIsListed() {
        LuaVM vm = LuaVM.builder().tier(Tier.COMPILE_ALL).build();
        run(vm, "list.lua", "local function f(x) return x + 1 end print(f(1))".getBytes(), Limits.defaults());
        assertEquals(List.of("main chunk of list.lua", "function <list.lua:1>"), vm.compiledFunctions());
    }

    @Test
    void autoCompilesAHotFunctionAndALongLoopByCounts() {
        LuaVM vm = LuaVM.builder().tier(Tier.AUTO).build();
        String src = "local function f(x) return x + 1 end\nlocal s = 0\nfor i = 1, 10000 do s = f(s) end\nprint(s)";
        Outcome o = run(vm, "hot.lua", src.getBytes(), Limits.defaults());
        assertEquals("10000\n", o.output);
        assertEquals(java.util.Set.of("function <hot.lua:1>", "main chunk of hot.lua"), java.util.Set.copyOf(vm.compiledFunctions()));
        assertEquals(run(INTERP, "hot.lua", src.getBytes(), Limits.defaults()), o);
    }

    @Test
    void aSandboxCompilesAtMostItsBudgetOfNewCode() {
        LuaVM vm = LuaVM.builder().tier(Tier.COMPILE_ALL).build();
        // 60 distinct functions of about 600 instructions: 36,000 > SANDBOX_BUDGET
        String src = "local body = string.rep('x = x + 1 ', 600)\n"
                + "for i = 1, 60 do local f = load('local x = 0 ' .. body .. ' return x + ' .. i) f() end\nprint('ok')";
        Outcome o = run(vm, "budget.lua", src.getBytes(), Limits.defaults());
        assertEquals("ok\n", o.output);
        int n = vm.compiledFunctions().size();
        System.out.println("functions compiled under the sandbox budget: " + n);
        assertTrue(n > 20 && n < 60, "compiled " + n);
        assertEquals(run(INTERP, "budget.lua", src.getBytes(), Limits.defaults()), o);
    }

    @Test
    void deepRecursionCompletesAndInfiniteRecursionIsACatchableStackOverflow() {
        String src = "local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end\n"
                + "print(d(150000))\n"
                + "local function inf(n) return 1 + inf(n) end\n"
                + "print(pcall(inf, 1))";
        Outcome c = run(COMPILED, "deep.lua", src.getBytes(), Limits.defaults());
        Outcome i = run(INTERP, "deep.lua", src.getBytes(), Limits.defaults());
        assertTrue(c.output.startsWith("150000\nfalse\tdeep.lua:3: stack overflow"), c.output);
        assertEquals(i, c);
    }

    @Test
    void yieldsUnderCompiledFramesAcrossTenThousandCoroutines() {
        String src = """
                local function gen(n)
                  return coroutine.wrap(function()
                    for i = 1, n do
                      local t = setmetatable({}, {__index = function(_, k) coroutine.yield(k) return k end})
                      local _ = t[i] + i
                    end
                  end)
                end
                local cs, sum = {}, 0
                for j = 1, 10000 do cs[j] = gen(3) end
                for round = 1, 3 do for j = 1, 10000 do sum = sum + cs[j]() end end
                print(sum, collectgarbage ~= nil)
                """;
        int threads = Thread.activeCount();
        Outcome c = run(COMPILED, "co.lua", src.getBytes(), Limits.defaults());
        assertEquals(Thread.activeCount(), threads, "no thread per coroutine");
        assertEquals("60000\ttrue\n", c.output);
        assertEquals(run(INTERP, "co.lua", src.getBytes(), Limits.defaults()), c);
    }

    @Test
    void gasExhaustionStopsACompiledLoopAtTheSamePointAsInterpreted() {
        String src = "local t = {} for i = 1, 1e9 do t[i % 100] = i; if i % 100000 == 0 then print(i) end end";
        Limits l = Limits.defaults().withGas(2_000_000);
        Outcome c = run(COMPILED, "gas.lua", src.getBytes(), l);
        assertTrue(c.error != null && c.error.contains("gas"), String.valueOf(c.error));
        assertEquals(run(INTERP, "gas.lua", src.getBytes(), l), c);
    }

    @Test
    void timeoutAndCancelStopACompiledLoop() throws Exception {
        String src = "local x = 0 while true do x = x + 1 end";
        Limits l = Limits.unlimited().withTimeout(Duration.ofMillis(200));
        long t0 = System.nanoTime();
        Outcome c = run(COMPILED, "spin.lua", src.getBytes(), l);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("compiled spin loop stopped by a 200 ms timeout after " + ms + " ms");
        assertTrue(c.error != null && c.error.toLowerCase().contains("time"), String.valueOf(c.error));
        assertTrue(ms < 1200, "took " + ms + " ms");

        try (Sandbox sb = COMPILED.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).build()) {
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ignored) {
                    return;
                }
                sb.cancel();
            });
            killer.start();
            long t1 = System.nanoTime();
            try {
                sb.eval("spin", "local t = {} local i = 0 repeat i = i + 1; t[1] = i until false");
                fail("not cancelled");
            } catch (LuaLimitException e) {
                long ms2 = (System.nanoTime() - t1) / 1_000_000;
                System.out.println("compiled loop cancelled after " + ms2 + " ms (cancel at 200)");
                assertTrue(ms2 < 1200);
            }
            killer.join();
        }
    }

    @Test
    void runtimeErrorsKeepPositionsAndTracebacks() {
        String src = """
                local function a(t) return t.x.y end
                local function b(t) return a(t) + 1 end
                local ok, e = pcall(b, {})
                print(ok, e)
                print(select(2, xpcall(b, function(m) return "handled: " .. m end, {})))
                local s = "x" .. {}
                """;
        Outcome c = run(COMPILED, "err.lua", src.getBytes(), Limits.defaults());
        assertTrue(c.output.contains("err.lua:1: attempt to index a nil value (field 'x')"), c.output);
        assertTrue(c.error != null && c.error.contains("err.lua:6: attempt to concatenate a table value"), c.error);
        assertEquals(run(INTERP, "err.lua", src.getBytes(), Limits.defaults()), c);
    }
}
