package dev.luavm.api;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaConversionException;
import dev.luavm.LuaException;
import dev.luavm.LuaHandle;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaSandboxStateException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.TypedAccess;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.Results;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Java API as an embedder uses it: typed access, results, handles, names, failures, cancel. */
class JavaApiTest {
    private static Sandbox sandbox() {
        return LuaVM.newSandbox(Capabilities.standard(), Limits.defaults());
    }

    // ------------------------------------------------------------------ typed access

    @Test
    void evalAsGivesEveryNumberType() {
        try (Sandbox sb = sandbox()) {
            int i = sb.evalAs("return 6 * 7", int.class);
            assertEquals(42, i);
            assertEquals(Integer.valueOf(42), sb.evalAs("return 42", Integer.class));
            assertEquals(42L, (long) sb.evalAs("return 42", long.class));
            assertEquals((short) -7, (short) sb.evalAs("return -7", short.class));
            assertEquals((byte) 127, (byte) sb.evalAs("return 127", byte.class));
            assertEquals(2.5, sb.evalAs("return 5 / 2", double.class));
            assertEquals(3.0, sb.evalAs("return 3", Double.class)); // an integer as a float
            assertEquals(1.5f, sb.evalAs("return 1.5", float.class));
            assertEquals(4, (int) sb.evalAs("return 8 / 2", int.class)); // a float with an integer value
            assertEquals(7L, sb.evalAs("return 7", Number.class));
            assertTrue(sb.evalAs("return 1 < 2", boolean.class));
            assertEquals(Boolean.FALSE, sb.evalAs("return false", Boolean.class));
            assertEquals("hi", sb.evalAs("return 'h' .. 'i'", String.class));
            assertArrayEquals(new byte[] {(byte) 0xff}, sb.evalAs("return '\\255'", byte[].class));
            assertNull(sb.evalAs("return nil", Integer.class));
            assertNull(sb.evalAs("return", String.class)); // no result reads as nil
        }
    }

    @Test
    void evalAsGivesCollectionsAndArrays() {
        try (Sandbox sb = sandbox()) {
            assertEquals(List.of(1L, 2L, 3L), sb.evalAs("return {1, 2, 3}", List.class));
            assertEquals(Map.of("a", 1L), sb.evalAs("return {a = 1}", Map.class));
            assertEquals(Map.of(1L, "x", 2L, "y"), sb.evalAs("return {'x', 'y'}", Map.class));
            assertArrayEquals(new int[] {1, 2, 3}, sb.evalAs("return {1, 2, 3}", int[].class));
            assertArrayEquals(new String[] {"a", "b"}, sb.evalAs("return {'a', 'b'}", String[].class));
            assertArrayEquals(new double[] {0.5, 2}, sb.evalAs("return {0.5, 2}", double[].class));
            assertEquals(List.of(1, 2), TypedAccess.asList(sb.eval("return {1, 2}"), Integer.class));
            assertEquals(Map.of("a", 1.0), TypedAccess.asMap(sb.eval("return {a = 1}"), String.class, Double.class));
            assertEquals(Limit.GAS, sb.evalAs("return 'GAS'", Limit.class));
            LuaHandle f = sb.evalAs("return print", LuaHandle.class);
            assertEquals("function", f.type());
        }
    }

    @Test
    void anEmptyTableConvertsToTheRequestedType() {
        try (Sandbox sb = sandbox()) {
            assertEquals(List.of(), sb.evalAs("return {}", List.class));
            assertEquals(Map.of(), sb.evalAs("return {}", Map.class));
            assertArrayEquals(new long[0], sb.evalAs("return {}", long[].class));
            assertEquals(List.of(), TypedAccess.asList(sb.eval("return {}"), String.class));
            assertEquals(Map.of(), sb.eval("return {}")); // untyped, a table with no sequence part is a map
        }
    }

    @Test
    void listsStayLists() {
        try (Sandbox sb = sandbox()) {
            sb.setGlobal("empty", List.of());
            sb.setGlobal("arr", new int[0]);
            sb.setGlobal("three", List.of(1, 2, 3));
            assertEquals(List.of(), sb.getGlobal("empty"));
            assertEquals(List.of(), sb.getGlobal("arr"));
            assertEquals(List.of(1L, 2L, 3L), sb.getGlobal("three"));
            // a list emptied by the script is still a list
            assertEquals(List.of(), sb.eval("local t = {1, 2} table.remove(t) table.remove(t) return t"));
            assertEquals(0L, sb.eval("return #empty"));
        }
    }

    @Test
    void conversionErrorsSayWhatAndWhy() {
        try (Sandbox sb = sandbox()) {
            assertEquals("cannot convert Lua float 2.5 to int: number has no integer representation",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return 2.5", int.class)).getMessage());
            assertEquals("cannot convert Lua integer 3000000000 to int: out of range",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return 3000000000", int.class)).getMessage());
            assertEquals("cannot convert Lua integer 300 to byte: out of range",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return 300", byte.class)).getMessage());
            assertEquals("cannot convert Lua string \"12\" to int",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return '12'", int.class)).getMessage());
            assertEquals("cannot convert nil to int",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return nil", int.class)).getMessage());
            assertEquals("cannot convert Lua integer 1 to boolean",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return 1", boolean.class)).getMessage());
            assertEquals("cannot convert Lua string of 1 bytes to String: not valid UTF-8 (ask for byte[])",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return '\\255'", String.class)).getMessage());
            assertEquals("cannot convert Lua table to List: the table is not a sequence",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return {a = 1}", List.class)).getMessage());
            assertEquals("element 2: cannot convert Lua string \"x\" to int",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return {1, 'x'}", int[].class)).getMessage());
            assertEquals("cannot convert Lua float inf to long: number has no integer representation",
                    assertThrows(LuaConversionException.class, () -> sb.evalAs("return 1/0", long.class)).getMessage());
            assertInstanceOf(LuaException.class, assertThrows(LuaConversionException.class,
                    () -> sb.evalAs("return print", String.class)));
        }
    }

    // ------------------------------------------------------------------ results and arguments

    @Test
    void evalTakesArguments() {
        try (Sandbox sb = sandbox()) {
            assertEquals(5L, sb.eval("sum.lua", "local a, b = ... return a + b", 2, 3));
            assertEquals(3, sb.evalAs("n.lua", "return select('#', ...)", int.class, 1, null, "x"));
            Results r = sb.evalAll("swap.lua", "local a, b = ... return b, a", "x", 1);
            assertEquals(List.of(1L, "x"), r);
        }
    }

    @Test
    void oneShapeForMultipleResults() {
        try (Sandbox sb = sandbox()) {
            Results fromEval = sb.evalAll("m", "function f(...) return ... end return 1, 'two', nil");
            CompiledChunk chunk = LuaVM.create().compile("c", "return 1, 'two', nil");
            Results fromRun = sb.run(chunk);
            Results fromCall = sb.call("f", 1, "two", null);
            Results fromHandle = sb.evalAs("return f", LuaHandle.class).call(1, "two", null);
            for (Results r : List.of(fromEval, fromRun, fromCall, fromHandle)) {
                assertEquals(Arrays.asList(1L, "two", null), r);
                assertEquals(3, r.size());
                assertEquals(1L, r.first());
                assertEquals(1, (int) r.first(int.class));
                assertEquals("two", r.get(1, String.class));
                assertNull(r.get(5, String.class)); // past the end reads as nil
                assertThrows(UnsupportedOperationException.class, () -> r.add("x"));
            }
            assertNull(sb.evalAll("none", "return").first());
            List<Object> asBefore = sb.call("f", 7); // still a List<Object> for older callers
            assertEquals(List.of(7L), asBefore);
        }
    }

    @Test
    void aHostFunctionReturnsSeveralValuesWithTheSameType() {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("pair", "two values", call -> Results.of("a", 2)).build();
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            assertEquals(List.of("a", 2L), sb.evalAll("p", "return pair()"));
            assertEquals(List.of(), Results.none());
            assertEquals(List.of(1, 2), Results.of(1, 2).values());
        }
    }

    @Test
    void aHostFunctionReadsTypedArguments() {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("total", "sums a list of ints", call -> {
                    int[] xs = call.arg(0, int[].class);
                    int scale = call.arg(1, int.class);
                    return Arrays.stream(xs).sum() * scale;
                }).build();
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            assertEquals(12L, sb.eval("return total({1, 2, 3}, 2)"));
            assertEquals("input:1: bad argument #2 to 'total' (cannot convert Lua float 0.5 to int: number has no "
                    + "integer representation)", assertThrows(LuaScriptException.class,
                    () -> sb.eval("return total({1}, 0.5)")).getMessage());
            assertEquals(false, sb.eval("return (pcall(total, {1, 'x'}, 1))"));
        }
    }

    // ------------------------------------------------------------------ handles

    @Test
    void aFunctionHandleIsCallable() {
        try (Sandbox sb = sandbox()) {
            LuaHandle square = sb.evalAs("return function(x) counter = (counter or 0) + 1 return x * x end",
                    LuaHandle.class);
            assertEquals(9, (int) square.call(3).first(int.class));
            assertEquals(16, (int) square.call(4).first(int.class));
            assertEquals(2L, sb.getGlobal("counter")); // it ran in the sandbox, on its state
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> square.call("x"));
            assertTrue(e.getMessage().contains("attempt to perform arithmetic on a string value"), e.getMessage());
            LuaHandle co = sb.evalAs("return coroutine.create(print)", LuaHandle.class);
            assertEquals("attempt to call a thread value",
                    assertThrows(LuaScriptException.class, co::call).getMessage());
        }
    }

    @Test
    void aHandleCallIsGovernedByTheSandboxLimits() {
        Limits tight = Limits.defaults().withGas(1_000_000).withTimeout(Duration.ofSeconds(30));
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), tight)) {
            LuaHandle spin = sb.evalAs("return function() while true do end end", LuaHandle.class);
            assertEquals(Limit.GAS, assertThrows(LuaLimitException.class, spin::call).limit());
        }
        Limits shortRuns = Limits.defaults().withGas(Long.MAX_VALUE).withTimeout(Duration.ofMillis(200)); // the compiled tier spends 10^8 gas in well under 200 ms
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), shortRuns)) {
            LuaHandle spin = sb.evalAs("return function() while true do end end", LuaHandle.class);
            assertEquals(Limit.TIME, assertThrows(LuaLimitException.class, spin::call).limit());
        }
    }

    @Test
    void aHandleStaysInItsSandbox() {
        try (Sandbox a = sandbox(); Sandbox b = sandbox()) {
            LuaHandle f = a.evalAs("return function() return 1 end", LuaHandle.class);
            assertThrows(LuaConversionException.class, () -> b.call("type", f));
            assertThrows(LuaConversionException.class, () -> b.setGlobal("g", f));
            assertEquals("function", a.call("type", f).first(String.class));
        }
    }

    @Test
    void aHandleCalledFromItsOwnHostFunctionIsRefused() {
        LuaHandle[] callback = new LuaHandle[1];
        LuaSandboxStateException[] seen = new LuaSandboxStateException[1];
        Capabilities caps = Capabilities.standard().toBuilder().grant("later", "calls back", call -> {
            callback[0] = (LuaHandle) call.arg(0);
            try {
                callback[0].call();
            } catch (LuaSandboxStateException e) {
                seen[0] = e;
            }
            return null;
        }).build();
        try (Sandbox sb = LuaVM.newSandbox(caps, Limits.defaults())) {
            sb.eval("later(function() return 'called' end)");
            assertEquals(LuaSandboxStateException.Reason.REENTRANT, seen[0].reason());
            assertEquals("called", callback[0].call().first()); // after the run, it may be called
        }
    }

    // ------------------------------------------------------------------ names

    @Test
    void dottedNamesAreOnePathRuleForSetGetAndCall() {
        try (Sandbox sb = sandbox()) {
            sb.setGlobal("cfg.limit", 5);
            assertEquals(5L, sb.eval("return cfg.limit"));
            assertNull(sb.eval("return rawget(_G, 'cfg.limit')"));
            assertEquals(5, (int) sb.getGlobal("cfg.limit", int.class));
            sb.setGlobal("cfg.deep.er", "x"); // missing tables along the path are made
            assertEquals("x", sb.eval("return cfg.deep.er"));
            sb.eval("app = {handle = function(x) return x + 1 end}");
            assertEquals(2L, sb.call("app.handle", 1).first());
            assertEquals(3L, sb.evalAs("return string.len('abc')", Long.class));
            assertEquals(3L, sb.call("string.len", "abc").first());
            assertNull(sb.getGlobal("nothing.here.at.all"));
            assertEquals("attempt to call a nil value (global 'app.missing')",
                    assertThrows(LuaScriptException.class, () -> sb.call("app.missing")).getMessage());
            assertEquals("cannot set 'cfg.limit.x': 'cfg.limit' is not a table",
                    assertThrows(LuaConversionException.class, () -> sb.setGlobal("cfg.limit.x", 1)).getMessage());
            sb.setGlobal("plain", 1);
            assertEquals(1L, sb.getGlobal("plain"));
        }
    }

    // ------------------------------------------------------------------ failures are LuaExceptions

    @Test
    void aClosedSandboxThrowsALuaException() {
        Sandbox sb = sandbox();
        LuaHandle f = sb.evalAs("return function() end", LuaHandle.class);
        sb.close();
        for (Runnable use : List.<Runnable>of(() -> sb.eval("return 1"), () -> sb.call("print"),
                () -> sb.getGlobal("x"), () -> sb.setGlobal("x", 1), f::call,
                () -> sb.run(LuaVM.create().compile("c", "return 1")))) {
            LuaSandboxStateException e = assertThrows(LuaSandboxStateException.class, use::run);
            assertEquals(LuaSandboxStateException.Reason.CLOSED, e.reason());
            assertEquals("sandbox is closed", e.getMessage());
        }
        sb.cancel(); // harmless
        assertFalse(sb.isRunning());
    }

    @Test
    void aBusySandboxThrowsALuaException() throws Exception {
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), Limits.defaults().withTimeout(Duration.ofSeconds(60)))) {
            Thread t = new Thread(() -> {
                try {
                    sb.eval("while true do end");
                } catch (LuaLimitException expected) {
                    // cancelled below
                }
            });
            t.start();
            while (!sb.isRunning()) Thread.onSpinWait();
            for (Runnable use : List.<Runnable>of(() -> sb.eval("return 1"), () -> sb.getGlobal("x"),
                    () -> sb.setGlobal("x", 1))) {
                assertEquals(LuaSandboxStateException.Reason.BUSY,
                        assertThrows(LuaSandboxStateException.class, use::run).reason());
            }
            sb.cancel();
            t.join(10_000);
            assertFalse(t.isAlive());
        }
    }

    // ------------------------------------------------------------------ cancel

    @Test
    void anUnknownBundleNameFailsWhenTheCapabilitiesAreBuilt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Capabilities.builder().bundle("base", "strnig").build());
        assertTrue(e.getMessage().startsWith("unknown capability bundle 'strnig' (available: "), e.getMessage());
        assertTrue(e.getMessage().contains("string") && e.getMessage().contains("compat"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Capabilities.standard().toBuilder().bundle("io.exit").build());
        // every bundle the runtime has is accepted, and "standard"/"none" are not bundle names but sets
        assertEquals(LuaVM.create().availableBundles(),
                Capabilities.builder().bundles(LuaVM.create().availableBundles()).bundle("none").build().bundles());
        // a runtime with bundles of its own (LuaVM.Builder.libraries) names them to the builder
        Capabilities own = Capabilities.builder().availableBundles(java.util.Set.of("mine")).bundle("mine").build();
        assertEquals(java.util.Set.of("mine"), own.bundles());
        assertThrows(IllegalArgumentException.class, () -> LuaVM.newSandbox(own, Limits.defaults())); // not on this class path
    }

    @Test
    void aCancelWhileIdleDoesNothingButTheNextRunsOwnCancelEndsIt() {
        try (Sandbox sb = sandbox()) {
            sb.cancel(); // idle: no later run is affected (a pool's next tenant)
            assertEquals(1L, sb.eval("return 1"));
            Sandbox.Run next = sb.nextRun();
            next.cancel(); // armed before the run starts: that run, and only it, ends at its start
            assertEquals(Limit.CANCELLED, assertThrows(LuaLimitException.class, () -> sb.eval("ran = true")).limit());
            assertNull(sb.getGlobal("ran"));
            assertTrue(next.hasEnded());
            assertEquals(1L, sb.eval("return 1"));
        }
    }

    @Test
    void aCancelWhileARunStartsEndsItBeforeItsCode() {
        // the audit sink is called as the run starts, after the sandbox took the run: a cancel
        // landing there used to be lost for a run shorter than the VM's poll interval
        Sandbox[] self = new Sandbox[1];
        boolean[] armed = {true};
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(Capabilities.standard()).audit(event -> {
            if (armed[0] && event instanceof RunStarted) {
                armed[0] = false;
                self[0].cancel();
            }
        }).build()) {
            self[0] = sb;
            assertEquals(Limit.CANCELLED, assertThrows(LuaLimitException.class, () -> sb.eval("ran = true")).limit());
            assertNull(sb.getGlobal("ran"));
            assertEquals(1L, sb.eval("return 1"));
        }
    }
}
