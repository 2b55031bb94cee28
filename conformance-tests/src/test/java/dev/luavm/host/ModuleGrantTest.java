package dev.luavm.host;

import dev.luavm.Capabilities;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 23 item 6: grants bound to a module, the API around them (the attacks are in T26ModuleProvenanceTest). */
class ModuleGrantTest {
    private final AtomicInteger writes = new AtomicInteger();

    private Capabilities caps() {
        return Capabilities.standard().toBuilder().bundle("package")
                .grantToModule("billing", "ledger.write", "Write one ledger line", call -> {
                    writes.incrementAndGet();
                    return "line " + call.arg(0);
                })
                .declare("ledger.read", "Read the ledger").safe().module("billing")
                .param("n", "integer", "line number")
                .grant(call -> "read " + call.arg(0))
                .grant("clock", "Anyone may call this", call -> 42L)
                .build();
    }

    private static final Map<String, String> MODULES = Map.of(
            "billing", "local M = {} function M.post(n) return ledger.write(n), ledger.read(n) end return M",
            "report", "return { peek = function(n) return ledger.read(n) end }");

    @Test
    void onlyTheModulesCodeRunsTheFunctionAndEveryRefusalIsAudited() {
        MemoryAuditSink audit = new MemoryAuditSink();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps()).modules(MODULES::get).audit(audit).build()) {
            assertEquals(List.of("line 7", "read 7"), sb.evalAll("main", "return require('billing').post(7)"));
            assertEquals(1, writes.get());

            LuaScriptException e = assertThrows(LuaScriptException.class, () -> sb.eval("main", "return ledger.write(1)"));
            assertEquals("main:1: permission denied: ledger.write (granted to module 'billing')", e.getMessage());
            e = assertThrows(LuaScriptException.class, () -> sb.eval("main", "return require('report').peek(1)"));
            assertEquals("report:1: permission denied: ledger.read (granted to module 'billing')", e.getMessage());
            assertEquals(1, writes.get(), "a refused call never runs");
            assertEquals(42L, sb.eval("return clock()"), "a plain grant is anyone's");

            List<HostCallEvent> calls = audit.events(HostCallEvent.class);
            HostCallEvent refused = calls.get(calls.size() - 2);
            assertEquals("ledger.read", refused.function());
            assertEquals(HostCallEvent.Verdict.DENIED, refused.verdict());
            assertEquals(HostCallEvent.Outcome.REFUSED, refused.outcome());
            assertEquals("granted to module 'billing', called by module 'report'", refused.reason());
            assertEquals(List.of(1L), refused.args(), "the refused call's arguments are in the log");
        }
    }

    @Test
    void describeNamesTheModule() {
        List<String> lines = caps().describe();
        assertTrue(lines.contains("ledger.write() [UNSAFE; module billing] - Write one ledger line"), lines.toString());
        assertTrue(lines.contains("ledger.read(n: integer) [SAFE; module billing] - Read the ledger"), lines.toString());
        assertEquals("billing", caps().hostFunctions().get("ledger.write").module());
        assertNull(caps().hostFunctions().get("clock").module());
    }

    @Test
    void badModuleNamesAreRefusedAtTheGrant() {
        for (String bad : new String[] {"", ".billing", "billing.", "a..b", "bill ing", "../billing", "billing/x", "@billing"}) {
            assertThrows(IllegalArgumentException.class,
                    () -> Capabilities.builder().grantToModule(bad, "f", "d", c -> null), bad);
            assertThrows(IllegalArgumentException.class,
                    () -> Capabilities.builder().declare("f", "d").module(bad), bad);
        }
        assertThrows(NullPointerException.class, () -> Capabilities.builder().grantToModule(null, "f", "d", c -> null));
        assertThrows(NullPointerException.class, () -> Capabilities.builder().grantToModule("m", "f", "d", null));
        assertThrows(IllegalArgumentException.class, () -> Capabilities.builder().grantToModule("m", "not a name", "d", c -> null));
        Capabilities.builder().grantToModule("acme.ledger-v2", "f", "d", c -> null);
    }

    @Test
    void aModuleFileIsTheModuleItsPlaceNames() {
        assertEquals("billing", ModuleIdentity.ofFile(Path.of("billing.lua")));
        assertEquals("acme.ledger", ModuleIdentity.ofFile(Path.of("acme/ledger.lua")));
        assertEquals("acme.ledger", ModuleIdentity.ofFile(Path.of("acme/ledger/init.lua")));
        assertEquals("init", ModuleIdentity.ofFile(Path.of("init.lua")));
        assertNull(ModuleIdentity.ofFile(Path.of("billing.txt")));
        assertNull(ModuleIdentity.ofFile(Path.of("a.b.lua")), "a dot in the file's own name");
        assertNull(ModuleIdentity.ofFile(Path.of("a.b/c.lua")), "a dot in a directory's name");
        assertNull(ModuleIdentity.ofFile(Path.of(".lua")));
        assertNull(ModuleIdentity.ofFile(Path.of("/abs/billing.lua")));
    }
}
