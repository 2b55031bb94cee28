package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.VM;
import static dev.luavm.threats.ThreatSupport.run;
import static dev.luavm.threats.ThreatSupport.run1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** T10 Nothing exists unless granted; load is text-only and its default env is the sandbox's. */
class T10CapabilitiesTest {
    /** Everything the standard capabilities may put in _G. */
    private static final Set<String> STANDARD_GLOBALS = Set.of(
            "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load", "next", "pairs",
            "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber",
            "tostring", "type", "xpcall", "coroutine", "string", "table", "math", "utf8", "os");

    @Test
    void standardGlobalsAreAWhitelist() {
        @SuppressWarnings("unchecked")
        List<Object> names = (List<Object>) run1("local t = {} for k in pairs(_G) do t[#t + 1] = k end table.sort(t) return t");
        Set<String> extra = new TreeSet<>();
        for (Object n : names) if (!STANDARD_GLOBALS.contains(n)) extra.add(String.valueOf(n));
        assertTrue(extra.isEmpty(), "unexpected globals: " + extra);
    }

    @Test
    void dangerousNamesAreAbsent() {
        for (String expr : List.of("io", "dofile", "loadfile", "require", "package", "debug", "string.dump",
                "os.execute", "os.exit", "os.getenv", "os.remove", "os.rename", "os.tmpname", "os.setlocale",
                "luajava", "java", "load_java", "loadstring", "module", "setfenv", "getfenv", "newproxy", "jit")) {
            assertNull(run1("return " + expr), expr + " must not exist");
        }
    }

    @Test
    void collectgarbageIfPresentIsHarmless() {
        assertEquals(true, run1("if collectgarbage == nil then return true end "
                + "collectgarbage() collectgarbage('collect') collectgarbage('step') "
                + "return type(collectgarbage('count')) == 'number'"));
    }

    @Test
    void binaryChunksAreRejected() {
        List<Object> r = run("return load('\\27Lua\\83\\0\\25\\147\\r\\n\\26\\n')");
        assertNull(r.get(0));
        assertTrue(String.valueOf(r.get(1)).contains("binary"), String.valueOf(r.get(1)));
        r = run("return load('return 1', 'x', 'b')");
        assertNull(r.get(0));
        assertEquals(1L, run1("return load('return 1', 'x', 't')()"));
    }

    @Test
    void loadDefaultEnvIsTheSandboxGlobals() {
        assertEquals(5L, run1("x = 5 return load('return x')()"));
        assertEquals(true, run1("return load('return _G')() == _G"));
        assertEquals(7L, run1("return load('return y', 'c', 't', {y = 7})()"));
    }

    @Test
    void noneIsTheBareLanguage() {
        try (Sandbox sb = VM.sandbox(Capabilities.none(), TIGHT)) {
            assertEquals(3L, sb.eval("return 1 + 2"));
            assertEquals(true, sb.eval("return print == nil and type == nil and string == nil and _G == nil"));
            assertEquals(2L, sb.eval("return #'ab'"));
        }
    }

    @Test
    void bundlesAreGrantedOneByOne() {
        try (Sandbox sb = VM.sandbox(Capabilities.builder().bundle("string").build(), TIGHT)) {
            assertEquals("ABC", sb.eval("return ('abc'):upper()"));
            assertEquals(true, sb.eval("return print == nil and table == nil and math == nil"));
        }
    }

    @Test
    void hostFunctionsOnlyWhenGranted() {
        Capabilities caps = Capabilities.standard().toBuilder()
                .grant("invoice.lookup", "Look up an invoice", call -> "found " + call.arg(0))
                .build();
        try (Sandbox sb = VM.sandbox(caps, TIGHT)) {
            assertEquals("found 7", sb.eval("return invoice.lookup(7)"));
            assertEquals(1L, sb.eval("local n = 0 for k in pairs(invoice) do n = n + 1 end return n"));
        }
        assertEquals(List.of("bundle base", "bundle coroutine", "bundle string", "bundle table", "bundle math",
                "bundle utf8", "bundle os", "invoice.lookup - Look up an invoice"), caps.describe());
    }

    @Test
    void noReflectionThroughValues() {
        assertEquals(true, run1("return getmetatable('').__index == string and getmetatable(print) == nil "
                + "and getmetatable(coroutine.create(print)) == nil"));
    }
}
