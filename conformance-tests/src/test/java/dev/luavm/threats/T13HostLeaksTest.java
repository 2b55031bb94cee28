package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.LuaScriptException;
import dev.luavm.Sandbox;
import dev.luavm.host.HostFunctionException;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.List;

import static dev.luavm.threats.ThreatSupport.TIGHT;
import static dev.luavm.threats.ThreatSupport.VM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** T13 No Java class names, stack traces or host paths in anything Lua can see. */
class T13HostLeaksTest {
    private static final RuntimeException SECRET =
            new IllegalStateException("db at /srv/secret/db.sqlite failed in com.acme.internal.Dao");

    private static final Capabilities CAPS = Capabilities.standard().toBuilder()
            .grant("fail", "always fails", c -> { throw SECRET; })
            .grant("refuse", "fails with a message for the script", c -> { throw new HostFunctionException("vendor not found"); })
            .grant("file", "returns a host object", c -> new File("/srv/secret/file.txt"))
            .build();

    private static void assertClean(String text) {
        for (String bad : List.of("java", "Exception", "dev.luavm", "com.acme", "/srv", "secret", ".java:", "\tat ")) {
            assertFalse(text.contains(bad), () -> "'" + bad + "' leaks in: " + text);
        }
    }

    @Test
    void hostExceptionsReachLuaAsPlainMessages() {
        try (Sandbox sb = VM.sandbox(CAPS, TIGHT)) {
            List<Object> r = sb.evalAll("leak", "return pcall(fail)");
            assertEquals(false, r.get(0));
            assertClean(String.valueOf(r.get(1)));
            assertTrue(String.valueOf(r.get(1)).contains("host function 'fail' failed"), String.valueOf(r.get(1)));
            // the position is the calling Lua code's, as luaL_error gives it (none when pcall calls directly)
            assertEquals(List.of(false, "leak:1: vendor not found"), sb.evalAll("leak", "return pcall(function() return refuse() end)"));
            assertEquals(List.of(false, "vendor not found"), sb.evalAll("leak", "return pcall(refuse)"));
        }
    }

    @Test
    void theHostKeepsTheCause() {
        try (Sandbox sb = VM.sandbox(CAPS, TIGHT)) {
            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("leak", "fail()"));
            assertSame(SECRET, e.getCause());
            assertClean(e.getMessage());
            // also when the script catches and re-raises the same error value
            e = assertThrows(LuaScriptException.class, () -> sb.eval("leak", "local ok, m = pcall(fail) error(m, 0)"));
            assertSame(SECRET, e.getCause());
        }
    }

    @Test
    void valuesPrintWithoutJavaNames() {
        try (Sandbox sb = VM.sandbox(CAPS, TIGHT)) {
            String all = (String) sb.eval("leak", "return table.concat({tostring(print), tostring({}), tostring(file()), "
                    + "tostring(coroutine.create(print)), tostring(fail), type(file()), tostring(1/0), tostring(0/0)}, ' ')");
            assertClean(all);
        }
    }

    @Test
    void runtimeErrorsAndTracebacksHaveNoJavaFrames() {
        try (Sandbox sb = VM.sandbox(CAPS, TIGHT)) {
            for (String script : List.of("local t = nil return t.x", "return 1 + {}", "return ('x'):bad()",
                    "return string.rep()", "return file().x", "return #file()", "return setmetatable(file(), {})",
                    "return math.floor('x')", "return coroutine.resume(1)", "return table.concat({{}})",
                    "return string.format('%d', 'x')", "return select(-5)", "return fail()")) {
                LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("leak", script), script);
                assertClean(e.getMessage());
                assertClean(e.luaTraceback());
            }
        }
    }
}
