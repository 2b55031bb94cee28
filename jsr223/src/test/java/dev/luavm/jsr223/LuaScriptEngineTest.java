package dev.luavm.jsr223;

import dev.luavm.Capabilities;
import dev.luavm.LuaHandle;
import dev.luavm.LuaLimitException;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.host.HostCallPolicy;
import org.junit.jupiter.api.Test;

import javax.script.Bindings;
import javax.script.Compilable;
import javax.script.CompiledScript;
import javax.script.Invocable;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptEngineFactory;
import javax.script.ScriptEngineManager;
import javax.script.ScriptException;
import javax.script.SimpleBindings;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine as javax.script users meet it: through {@link ScriptEngineManager}. */
class LuaScriptEngineTest {
    static ScriptEngine lua() {
        ScriptEngine e = new ScriptEngineManager().getEngineByName("lua");
        assertNotNull(e, "no engine named lua");
        return e;
    }

    @Test
    void hotFunctionsRunCompiledWithTheInterpretersGas() throws Exception {
        ScriptEngine e = lua();
        LuaScriptEngineFactory f = (LuaScriptEngineFactory) e.getFactory();
        assertEquals("auto", f.getParameter(LuaScriptEngineFactory.TIER));
        String fib = "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end return fib(22)";
        assertEquals(17711L, e.eval(fib));
        assertTrue(f.vm().compiledFunctions().stream().anyMatch(n -> n.startsWith("function <")),
                f.vm().compiledFunctions().toString());
    }

    @Test
    void foundByNameExtensionAndMimeType() throws Exception {
        ScriptEngineManager m = new ScriptEngineManager();
        assertEquals(42L, m.getEngineByName("lua").eval("return 6*7"));
        assertEquals(42L, m.getEngineByName("luavm").eval("return 6*7"));
        assertInstanceOf(LuaScriptEngine.class, m.getEngineByExtension("lua"));
        assertInstanceOf(LuaScriptEngine.class, m.getEngineByMimeType("text/x-lua"));
        ScriptEngineFactory f = m.getEngineByName("lua").getFactory();
        assertEquals("Lua", f.getLanguageName());
        assertEquals("5.3", f.getLanguageVersion());
        assertEquals("luavm", f.getParameter(ScriptEngine.ENGINE));
        assertNull(f.getParameter("THREADING"));
        assertEquals("obj:m(a, b)", f.getMethodCallSyntax("obj", "m", "a", "b"));
        assertEquals("print(\"say \\\"hi\\\"\\n\\0011\")", f.getOutputStatement("say \"hi\"\n\u00011"));
        StringWriter w = new StringWriter();
        ScriptEngine e = f.getScriptEngine();
        e.getContext().setWriter(w);
        e.eval(f.getProgram(f.getOutputStatement("say \"hi\"\n\u00011"), "print(2)"));
        assertEquals("say \"hi\"\n\u00011\n2\n", w.toString());
    }

    @Test
    void bindingsAreTheGlobals() throws Exception {
        ScriptEngine e = lua();
        e.put("x", 5);
        e.put("order", Map.of("id", "A-1", "lines", List.of(1, 2, 3)));
        assertEquals(10L, e.eval("return x * 2"));
        assertEquals(3L, e.eval("return #order.lines"));
        e.eval("y = x + 1; t = {a = 1}; function double(n) return n * 2 end");
        assertEquals(6L, e.get("y"));
        assertEquals(Map.of("a", 1L), e.get("t"));
        assertInstanceOf(LuaHandle.class, e.get("double"));
        Bindings b = e.getBindings(ScriptContext.ENGINE_SCOPE);
        assertTrue(b.containsKey("y"));
        assertTrue(b.keySet().containsAll(List.of("x", "y", "t", "print", "string")), b.keySet().toString());
        b.remove("y");
        assertEquals(true, e.eval("return y == nil"));
        e.eval("loop = {} loop.self = loop");
        assertTrue(b.containsKey("loop"));
        assertNull(b.put("loop", 1), "a value that cannot be converted is not returned");
        assertEquals(1L, e.get("loop"));
        e.put("not a lua name", "kept in Java");
        assertEquals("kept in Java", e.get("not a lua name"));
    }

    @Test
    void anotherBindingsIsCopiedInAndRefreshed() throws Exception {
        ScriptEngine e = lua();
        Bindings b = new SimpleBindings();
        b.put("n", 2);
        assertEquals(4L, e.eval("n = n * 2; fresh = 'new'; return n", b));
        assertEquals(4L, b.get("n"));
        assertEquals("new", b.get("fresh"));
        e.eval("loop = {} loop.self = loop", b);   // cannot be converted: left out, the run still succeeds
        assertNull(b.get("loop"));
    }

    @Test
    void theManagersGlobalScopeIsVisible() throws Exception {
        ScriptEngineManager m = new ScriptEngineManager();
        m.put("greeting", "hello");
        assertEquals("hello world", m.getEngineByName("lua").eval("return greeting .. ' world'"));
    }

    @Test
    void printGoesToTheContextsWriter() throws Exception {
        ScriptEngine e = lua();
        StringWriter w = new StringWriter();
        e.getContext().setWriter(w);
        e.eval("print('héllo', 1, 2.5) io = nil print(('€'):rep(3))");
        assertEquals("héllo\t1\t2.5\n€€€\n", w.toString());
    }

    @Test
    void sandboxedByDefault() throws Exception {
        ScriptEngine e = lua();
        assertEquals(true, e.eval("return io == nil and os.execute == nil and string.dump == nil and require == nil"));
        ScriptException x = assertThrows(ScriptException.class, () -> e.eval("while true do end"));
        LuaLimitException limit = assertInstanceOf(LuaLimitException.class, x.getCause());
        assertTrue(limit.limit() == LuaLimitException.Limit.GAS || limit.limit() == LuaLimitException.Limit.TIME, limit.toString());
    }

    @Test
    void attributesSetCapabilitiesAndLimits() throws Exception {
        ScriptEngine e = lua();
        e.put(EngineSettings.CAPABILITIES, "base,string,docs");
        e.put(EngineSettings.GAS, 50_000);
        e.put(EngineSettings.TIMEOUT, Duration.ofSeconds(5));
        assertEquals(true, e.eval("return table == nil and math == nil and docs ~= nil"));
        ScriptException x = assertThrows(ScriptException.class, () -> e.eval("for i = 1, 1e9 do end"));
        assertEquals(LuaLimitException.Limit.GAS, ((LuaLimitException) x.getCause()).limit());
        assertEquals(1L, e.eval("return 1"), "gas is per run: the next run gets its own");
        assertThrows(IllegalStateException.class, () -> e.put(EngineSettings.GAS, 1));

        ScriptEngine small = lua();
        small.put(EngineSettings.OUTPUT, 10);
        small.getContext().setWriter(new StringWriter());
        x = assertThrows(ScriptException.class, () -> small.eval("print(('x'):rep(100))"));
        assertEquals(LuaLimitException.Limit.OUTPUT, ((LuaLimitException) x.getCause()).limit());

        ScriptEngine timed = lua();
        timed.put(EngineSettings.TIMEOUT, 200);
        timed.put(EngineSettings.GAS, Long.MAX_VALUE); // compiled, the loop can spend the default gas before 200 ms
        x = assertThrows(ScriptException.class, () -> timed.eval("while true do end"));
        assertEquals(LuaLimitException.Limit.TIME, ((LuaLimitException) x.getCause()).limit());
        assertEquals(1L, timed.eval("return 1"), "a run ended by time leaves the engine usable");
    }

    @Test
    void hostFunctionsThroughCapabilitiesPolicyAndAudit() throws Exception {
        ScriptEngine e = lua();
        MemoryAuditSink log = new MemoryAuditSink();
        e.put(EngineSettings.CAPABILITIES, Capabilities.standard().toBuilder()
                .grant("vendor.name", "A vendor's name", call -> "ACME " + call.stringArg(0)).build());
        e.put(EngineSettings.POLICY, HostCallPolicy.allowAll());
        e.put(EngineSettings.AUDIT, log);
        assertEquals("ACME 7", e.eval("return vendor.name('7')"));
        assertEquals(1, log.events().stream().filter(HostCallEvent.class::isInstance).count());
    }

    @Test
    void badSettingsAreScriptExceptions() {
        ScriptEngine e = lua();
        e.put(EngineSettings.CAPABILITIES, "base,files");
        ScriptException x = assertThrows(ScriptException.class, () -> e.eval("return 1"));
        assertTrue(x.getMessage().contains("unknown capability bundle 'files'"), x.getMessage());
        ScriptEngine g = lua();
        g.put(EngineSettings.GAS, "lots");
        x = assertThrows(ScriptException.class, () -> g.eval("return 1"));
        assertTrue(x.getMessage().contains("luavm.gas: a number expected, got 'lots'"), x.getMessage());
    }

    @Test
    void errorsAreScriptExceptionsWithFileAndLine() {
        ScriptEngine e = lua();
        e.put(ScriptEngine.FILENAME, "job.lua");
        ScriptException x = assertThrows(ScriptException.class, () -> e.eval("local a = 1\nerror('boom')"));
        assertEquals("job.lua", x.getFileName());
        assertEquals(2, x.getLineNumber());
        assertTrue(x.getMessage().startsWith("job.lua:2: boom"), x.getMessage());
        x = assertThrows(ScriptException.class, () -> e.eval("return +"));
        assertTrue(x.getMessage().contains("unexpected symbol near"), x.getMessage());
    }

    @Test
    void argvIsTheChunksVarargs() throws Exception {
        ScriptEngine e = lua();
        e.put(ScriptEngine.ARGV, new Object[] {"a", 2});
        assertEquals("a2", e.eval("local x, y = ... return x .. y"));
    }

    @Test
    void compilable() throws Exception {
        ScriptEngine e = lua();
        CompiledScript c = ((Compilable) e).compile("counter = (counter or 0) + step return counter");
        e.put("step", 5);
        assertEquals(5L, c.eval());
        assertEquals(10L, c.eval());
        assertEquals(e, c.getEngine());
        assertThrows(ScriptException.class, () -> ((Compilable) e).compile("return +"));
    }

    public interface Pricing {
        long price(String sku, int qty);

        default String label(String sku) {
            return sku + ": " + price(sku, 1);
        }
    }

    @Test
    void invocable() throws Exception {
        ScriptEngine e = lua();
        e.eval("""
                function price(sku, qty) return #sku * qty end
                util = {}
                function util.add(a, b) return a + b end
                account = {balance = 10}
                function account:deposit(n) self.balance = self.balance + n return self.balance end
                function account:price(sku, qty) return 100 * qty end
                """);
        Invocable inv = (Invocable) e;
        assertEquals(9L, inv.invokeFunction("price", "abc", 3));
        assertEquals(7L, inv.invokeFunction("util.add", 3, 4));
        assertThrows(NoSuchMethodException.class, () -> inv.invokeFunction("nope"));
        assertEquals(15L, inv.invokeMethod("account", "deposit", 5));
        assertEquals(20L, inv.invokeMethod("account", "deposit", 5), "a global named by a string is the table itself");
        Object copy = e.get("account");
        assertEquals(25L, inv.invokeMethod(copy, "deposit", 5));
        assertThrows(NoSuchMethodException.class, () -> inv.invokeMethod("account", "withdraw", 1));
        assertThrows(NoSuchMethodException.class, () -> inv.invokeMethod("nobody.there", "deposit", 1));

        Pricing p = inv.getInterface(Pricing.class);
        assertEquals(6L, p.price("ab", 3));
        assertEquals("abc: 3", p.label("abc"));
        assertEquals(300L, inv.getInterface("account", Pricing.class).price("x", 3));
        assertNull(inv.getInterface(Runnable.class), "no global function 'run'");
        ScriptException x = assertThrows(ScriptException.class, () -> inv.invokeFunction("util.add", 1, "x"));
        assertTrue(x.getMessage().contains("attempt to perform arithmetic"), x.getMessage());
    }

    /** The snippets of README.md and docs/API.md ("Three ways in", "JSR-223"), kept true by running them. */
    @Test
    void theDocumentedSnippets() throws Exception {
        ScriptEngine lua = new ScriptEngineManager().getEngineByName("lua");
        StringWriter w = new StringWriter();
        lua.getContext().setWriter(w);
        lua.put("order", Map.of("id", "A-1", "total", 1250));
        assertEquals(2500L, lua.eval("return order.total * 2"));
        ((Invocable) lua).invokeFunction("print", "hi");
        assertEquals("hi\n", w.toString());

        lua = new ScriptEngineManager().getEngineByName("lua");
        lua.put(EngineSettings.GAS, 1_000_000);
        lua.put(EngineSettings.CAPABILITIES, "standard,docs");
        lua.put("x", 5);
        lua.eval("y = x + 1");
        assertEquals(6L, lua.get("y"));
        Invocable inv = (Invocable) lua;
        lua.eval("function price(sku, qty) return #sku * qty end");
        assertEquals(9L, inv.invokeFunction("price", "abc", 3));
        CompiledScript job = ((Compilable) lua).compile("return x * 2");
        assertEquals(10L, job.eval());
        assertEquals(10L, job.eval());
        assertEquals(1_000_000L, ((LuaScriptEngine) lua).sandbox().limits().runGas());
    }

    @Test
    void enginesAreSeparateSandboxes() throws Exception {
        ScriptEngineManager m = new ScriptEngineManager();
        ScriptEngine a = m.getEngineByName("lua");
        ScriptEngine b = m.getEngineByName("lua");
        a.eval("shared = 1; string.upper = nil");
        assertEquals(true, b.eval("return shared == nil and string.upper ~= nil"));
    }
}
