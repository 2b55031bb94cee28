package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.conformance.TestTier;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T26 Provenance: a host function granted to the module {@code billing}
 * ({@code Capabilities.Builder#grantToModule}) runs only for code {@code require} compiled from
 * billing's own file in the module directories. Every way a script might pass itself off as the
 * module is tried here, in each tier: a forged chunk name, code the module compiles, debug and
 * coroutine tricks, the granted function passed around or set as a metamethod, pcall and xpcall,
 * tail calls, and {@code require} of a same-named module from a source the script controls. The
 * cases that do run (the module's own code, however it is reached) are checked too, and so are
 * the two documented limits (a module that calls what it is handed).
 */
class T26ModuleProvenanceTest {
    private static final String DENIED = "permission denied: ledger.write (granted to module 'billing')";

    private static Path dir;

    @BeforeAll
    static void modules() throws IOException {
        dir = Files.createTempDirectory("luavm-t26");
        Files.writeString(dir.resolve("billing.lua"), String.join("\n",
                "local M = {}",
                "function M.charge(n) local r = ledger.write(n) return r end",
                "function M.tail(n) return ledger.write(n) end",
                "local function inner(n) return ledger.write(n) end",
                "function M.viaInner(n) return inner(n) end",
                "function M.viaPcall(n) return select(2, pcall(ledger.write, n)) end",
                "function M.viaSort() local seen local t = {3, 1, 2}",
                "  table.sort(t, function(a, b) seen = ledger.write(a + b) return a < b end) return seen end",
                "function M.viaGsub() return (('x'):gsub('x', function() return ledger.write('g') end)) end",
                "function M.viaCoroutine(n) return coroutine.wrap(function() return ledger.write(n) end)() end",
                "function M.builtinAsCoroutine(n) return coroutine.wrap(ledger.write)(n) end",
                "function M.meta() return setmetatable({}, {__index = function(_, k) return ledger.write(k) end}) end",
                "function M.compile(src) return load(src)() end",
                "function M.callback(fn, n) return fn(n) end",
                "function M.tailTo(fn, n) return fn(n) end",
                "function M.index(t) return t.x end",
                "function M.add(t) return t + 1 end",
                "function M.concat(t) return 'a' .. t end",
                "function M.equal(a, b) return a == b end",
                "function M.less(a, b) return a < b end",
                "function M.len(t) return #t end",
                "function M.str(t) return tostring(t) end",
                "function M.iterate(t) for _ in pairs(t) do end return 'done' end",
                "function M.upper(s) return s:upper() end",
                "function M.global() return undefined_global end",
                "function M.fail() error('billing failed') end",
                "function M.gc() collectgarbage() collectgarbage() return 'collected' end",
                "return M"));
        Files.writeString(dir.resolve("util.lua"), "return { apply = function(f, ...) return f(...) end }");
        Files.createDirectories(dir.resolve("evil"));
        Files.writeString(dir.resolve("evil/billing.lua"), "return { apply = function(f, ...) return f(...) end }");
    }

    @AfterAll
    static void clean() throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    private static final class World implements AutoCloseable {
        final MemoryAuditSink audit = new MemoryAuditSink();
        final LuaVM vm;
        final Sandbox sb;

        World(Tier tier) {
            vm = LuaVM.builder().tier(tier).build();
            Capabilities caps = Capabilities.standard().toBuilder().bundle("package", "debug")
                    .grantToModule("billing", "ledger.write", "Writes to the ledger", call -> "ok:" + call.arg(0))
                    .build();
            sb = vm.sandbox().capabilities(caps).moduleDirectories(List.of(dir)).audit(audit)
                    .limits(Limits.defaults().withTimeout(Duration.ofSeconds(20))).build();
        }

        Object eval(String code) {
            return sb.eval("input", "local billing = require('billing')\n" + code);
        }

        String denied(String code) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> eval(code), code);
            assertTrue(e.getMessage().contains(DENIED), () -> code + " -> " + e.getMessage());
            HostCallEvent last = lastCall();
            assertEquals(HostCallEvent.Verdict.DENIED, last.verdict(), code);
            assertEquals(HostCallEvent.Outcome.REFUSED, last.outcome(), code);
            return e.getMessage();
        }

        HostCallEvent lastCall() {
            List<HostCallEvent> calls = audit.events(HostCallEvent.class);
            return calls.get(calls.size() - 1);
        }

        @Override
        public void close() {
            sb.close();
            assertEquals(List.of(), TestTier.compileFailures(vm), "functions the compiled tier refused");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void theMainScriptIsRefusedWithTheDocumentedMessageAndAnAuditEvent(Tier tier) {
        try (World w = new World(tier)) {
            String msg = w.denied("return ledger.write(1)");
            assertEquals("input:2: " + DENIED, msg);
            assertEquals("granted to module 'billing', called by code of no module", w.lastCall().reason());
            w.denied("local r = ledger.write(1) return r");
            w.denied("local f = ledger.write return f(1)");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void theModulesOwnCodeRunsItHoweverItIsReached(Tier tier) {
        try (World w = new World(tier)) {
            assertEquals("ok:1", w.eval("return billing.charge(1)"));
            assertEquals("ok:2", w.eval("return billing.tail(2)"), "a tail call keeps the module's identity");
            assertEquals("ok:3", w.eval("return billing.viaInner(3)"), "a local function of the module");
            assertEquals("ok:4", w.eval("return billing.viaPcall(4)"), "pcall called by the module");
            assertEquals("ok:3", w.eval("return billing.viaSort()"), "the module's sort comparator");
            assertEquals("ok:g", w.eval("return billing.viaGsub()"), "the module's gsub callback");
            assertEquals("ok:5", w.eval("return billing.viaCoroutine(5)"), "the module's coroutine");
            assertEquals("ok:k", w.eval("return billing.meta().k"), "the module's metamethod");
            // the module's functions passed around by the script are still the module's code
            assertEquals("ok:6", w.eval("local f = billing.charge return f(6)"));
            assertEquals("ok:7", w.eval("return select(2, pcall(billing.charge, 7))"));
            assertEquals("ok:8", w.eval("return coroutine.wrap(billing.tail)(8)"));
            assertEquals("ok:9", w.eval("return setmetatable({}, {__index = billing.tail})[9] and 'ok:9'"));
            assertEquals("ok:10", w.eval("local t = {2, 1} local r table.sort(t, function(a, b) r = billing.charge(10) return a < b end) return r"));
            // the searcher called directly hands out billing's genuine chunk: running it is running billing's code
            assertEquals("ok:11", w.eval("return package.searchers[2]('billing')('billing').charge(11)"));
            assertEquals(HostCallEvent.Verdict.ALLOWED, w.lastCall().verdict());
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void aForgedChunkNameIsNotTheModule(Tier tier) {
        try (World w = new World(tier)) {
            w.denied("return load('return ledger.write(1)', '@billing')()");
            w.denied("return load('return ledger.write(1)', '=billing')()");
            w.denied("return load('return ledger.write(1)', 'billing')()");
            w.denied("return load('return ledger.write(1)', '@" + dir.resolve("billing.lua") + "')()");
            w.denied("return load('return ledger.write(1)', '@billing.lua')()");
            // the module's own text compiled by the script is not the module either
            w.denied("local src = 'local M = {} function M.charge(n) local r = ledger.write(n) return r end return M'\n"
                    + "return load(src, '@" + dir.resolve("billing.lua") + "')().charge(1)");
            // a reader function yielding the text piece by piece
            w.denied("local parts = {'return ledger', '.write(1)'} local i = 0\n"
                    + "return load(function() i = i + 1 return parts[i] end, '@billing')()");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void codeTheModuleCompilesWithLoadIsNotTheModule(Tier tier) {
        try (World w = new World(tier)) {
            w.denied("return billing.compile('return ledger.write(1)')");
            w.denied("return billing.compile('return function() return ledger.write(1) end')()");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void noBinaryChunksAndNoDebugFunctionsReachTheModulesFunctions(Tier tier) {
        try (World w = new World(tier)) {
            assertNull(w.eval("return string.dump"));
            assertNull(w.eval("return debug.getupvalue or debug.setupvalue or debug.upvaluejoin or debug.sethook"
                    + " or debug.getlocal or debug.setlocal or debug.getregistry or debug.setmetatable"));
            assertNull(w.eval("return debug.getinfo(billing.charge).func"), "getinfo hands out no function");
            assertNull(w.eval("return debug.getinfo(1, 'f').func"));
            w.denied("local ok, e = pcall(load, '\\27Lua', 'billing', 'b') return ledger.write(1)");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void coroutinesDoNotCarryTheModulesIdentity(Tier tier) {
        try (World w = new World(tier)) {
            w.denied("return coroutine.wrap(ledger.write)(1)");
            w.denied("return coroutine.wrap(function() return ledger.write(1) end)()");
            w.denied("local co = coroutine.create(ledger.write) local ok, e = coroutine.resume(co, 1) error(e, 0)");
            // a coroutine whose body is the granted function itself has no Lua code of the module in it:
            // refused even for the module (it can wrap a function of its own instead)
            w.denied("return billing.builtinAsCoroutine(1)");
            // a main-script coroutine resumed from inside the module's code is still the script's code
            w.denied("local co = coroutine.wrap(function() return ledger.write(1) end) return billing.callback(co, 1)");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void pcallXpcallAndTailCallsByTheScriptAreRefused(Tier tier) {
        try (World w = new World(tier)) {
            w.denied("local ok, e = pcall(ledger.write, 1) error(e, 0)");
            w.denied("local ok, e = xpcall(ledger.write, function(m) return m end, 1) error(e, 0)");
            // the granted function as xpcall's message handler runs above the module's failing frame: refused
            // (the refusal is an error in the handler: xpcall returns false)
            assertEquals(false, w.eval("return (xpcall(billing.fail, ledger.write))"));
            assertEquals(HostCallEvent.Verdict.DENIED, w.lastCall().verdict());
            w.denied("local function f() return ledger.write(1) end return f()");
            // the script's function handed to the module and tail-called from it replaces the module's frame
            w.denied("return billing.tailTo(function(n) return ledger.write(n) end, 1)");
            // called by the module, the script's function is still the script's code
            w.denied("return billing.callback(function(n) return ledger.write(n) end, 1)");
            w.denied("return billing.callback(function(n) local r = ledger.write(n) return r end, 1)");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void theGrantedFunctionSetAsAMetamethodIsRefusedEvenInsideTheModule(Tier tier) {
        try (World w = new World(tier)) {
            w.denied("return billing.index(setmetatable({}, {__index = ledger.write}))");
            w.denied("return billing.add(setmetatable({}, {__add = ledger.write}))");
            w.denied("return billing.concat(setmetatable({}, {__concat = ledger.write}))");
            w.denied("local mt = {__eq = ledger.write} return billing.equal(setmetatable({}, mt), setmetatable({}, mt))");
            w.denied("return billing.less(setmetatable({}, {__lt = ledger.write}), {})");
            w.denied("return billing.len(setmetatable({}, {__len = ledger.write}))");
            w.denied("return billing.str(setmetatable({}, {__tostring = ledger.write}))");
            w.denied("return billing.iterate(setmetatable({}, {__pairs = ledger.write}))");
            w.denied("getmetatable('').__index = ledger.write return billing.upper('abc')");
            w.denied("setmetatable(_G, {__index = ledger.write}) return billing.global()");
            w.denied("local t = setmetatable({}, {__newindex = ledger.write}) t.x = 1");
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void theGrantedFunctionAsAFinalizerIsRefusedWhereverItRuns(Tier tier) {
        try (World w = new World(tier)) {
            w.eval("setmetatable({}, {__gc = ledger.write}) return true");
            // the finalizer runs inside the module's code (its collectgarbage): still refused
            assertThrows(LuaScriptException.class, () -> w.eval("return billing.gc()"));
            assertEquals(HostCallEvent.Verdict.DENIED, w.lastCall().verdict());
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void aSameNamedModuleFromASourceTheScriptControlsIsNotTheModule(Tier tier) {
        List<String> attacks = List.of(
                "package.loaded.billing = nil package.preload.billing = function()\n"
                        + "  return {charge = function(n) return ledger.write(n) end} end\n"
                        + "return require('billing').charge(1)",
                "package.loaded.billing = nil table.insert(package.searchers, 1, function(name)\n"
                        + "  return function() return {charge = function(n) return ledger.write(n) end} end end)\n"
                        + "return require('billing').charge(1)",
                "package.loaded.billing = {charge = function(n) return ledger.write(n) end}\n"
                        + "return require('billing').charge(1)",
                // package.path pointed at another file: that file's identity, never the one asked for
                "package.loaded.billing = nil package.path = '" + dir + "/util.lua'\n"
                        + "return require('billing').apply(ledger.write, 1)",
                "package.loaded.billing = nil package.path = '" + dir + "/evil/?.lua'\n"
                        + "return require('billing').apply(ledger.write, 1)",
                // a path through '..' reads as absent: the require fails, nothing runs
                "package.loaded.billing = nil package.path = '" + dir + "/evil/../billing.lua'\n"
                        + "local ok = pcall(require, 'billing') return ledger.write(1)");
        for (String attack : attacks) {
            try (World w = new World(tier)) {
                w.denied(attack);
            }
        }
    }

    /** What grantToModule does not protect (docs/API.md says so): a module that calls what it is handed. */
    @ParameterizedTest
    @EnumSource(Tier.class)
    void aModuleThatCallsWhatItIsHandedIsTheDocumentedLimit(Tier tier) {
        try (World w = new World(tier)) {
            assertEquals("ok:1", w.eval("return billing.callback(ledger.write, 1)"));
            // __call is a call: a callable table handed to the module is called by the module's code
            assertTrue(String.valueOf(w.eval("return billing.callback(setmetatable({}, {__call = ledger.write}), 2)"))
                    .startsWith("ok:"));
        }
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void aModuleResolvedByTheHostIsTheModuleItWasAskedFor(Tier tier) {
        LuaVM vm = LuaVM.builder().tier(tier).build();
        Capabilities caps = Capabilities.standard().toBuilder().bundle("package")
                .grantToModule("billing", "ledger.write", "Writes to the ledger", call -> "ok:" + call.arg(0))
                .build();
        Map<String, String> sources = Map.of(
                "billing", "return { charge = function(n) return ledger.write(n) end }",
                "other", "return { charge = function(n) return ledger.write(n) end }");
        try (Sandbox sb = vm.sandbox().capabilities(caps).modules(sources::get).build()) {
            assertEquals("ok:1", sb.eval("return require('billing').charge(1)"));
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("return require('other').charge(1)"));
            assertTrue(e.getMessage().contains(DENIED), e.getMessage());
        }
    }
}
