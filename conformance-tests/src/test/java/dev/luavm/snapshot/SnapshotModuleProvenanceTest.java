package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Grants bound to a module ({@code grantToModule}) across a snapshot: the module's functions keep
 * their provenance when the snapshot is sealed under the runtime's key and the restoring host
 * gives the same module code; a snapshot whose module code the host no longer gives is refused;
 * and no snapshot can make code belong to a module, or change a module's variables, without the
 * key: an unsealed snapshot holding module functions is refused, and so is a sealed one whose
 * bytes were changed (its seal no longer verifies).
 */
class SnapshotModuleProvenanceTest {
    static final byte[] KEY = "a host secret of 32 bytes, for..".getBytes(StandardCharsets.UTF_8);

    static LuaVM vm() {
        return LuaVM.builder().snapshotKey(KEY).build();
    }

    static Capabilities caps() {
        return Capabilities.standard().toBuilder().bundle("package")
                .grantToModule("billing", "ledger.write", "Write one ledger line", call -> "line " + call.arg(0))
                .build();
    }

    static final String BILLING = "local M = {} local limit = 10 function M.post(n) if n > limit then error('over') end"
            + " return ledger.write(n) end return M";

    @Test
    void resolverModulesKeepTheirGrant() {
        Map<String, String> modules = new HashMap<>(Map.of("billing", BILLING));
        Sandbox sb = vm().sandbox().capabilities(caps()).modules(modules::get).build();
        sb.eval("billing = require('billing') forged = load(" + lua(BILLING) + ", '@billing')()");
        assertEquals("line 1", sb.eval("return billing.post(1)"));
        assertThrows(LuaScriptException.class, () -> sb.eval("return forged.post(1)"));
        byte[] snap = sb.snapshot();

        Sandbox back = vm().sandbox().capabilities(caps()).modules(modules::get).restoreFrom(snap).build();
        assertEquals("line 2", back.eval("return billing.post(2)"));
        LuaScriptException e = assertThrows(LuaScriptException.class, () -> back.eval("return forged.post(3)"));
        assertTrue(e.getMessage().contains("granted to module 'billing'"), e.getMessage());

        modules.put("billing", BILLING + " -- changed since");
        LuaSnapshotException changed = assertThrows(LuaSnapshotException.class,
                () -> vm().sandbox().capabilities(caps()).modules(modules::get).restoreFrom(snap).build());
        assertTrue(changed.getMessage().contains("module 'billing'"), changed.getMessage());
        assertThrows(LuaSnapshotException.class, () -> vm().sandbox().capabilities(caps()).restoreFrom(snap).build());
    }

    @Test
    void fileModulesKeepTheirGrant(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("billing.lua"), "#!/usr/bin/env lua\n" + BILLING);
        Sandbox sb = vm().sandbox().capabilities(caps()).moduleDirectories(List.of(dir)).build();
        sb.eval("billing = require('billing')");
        byte[] snap = sb.snapshot();
        Sandbox back = vm().sandbox().capabilities(caps()).moduleDirectories(List.of(dir)).restoreFrom(snap).build();
        assertEquals("line 5", back.eval("return billing.post(5)"));
        Files.writeString(dir.resolve("billing.lua"), BILLING + "\n-- edited");
        assertThrows(LuaSnapshotException.class,
                () -> vm().sandbox().capabilities(caps()).moduleDirectories(List.of(dir)).restoreFrom(snap).build());
    }

    @Test
    void withoutTheKeyNoModuleFunctionIsRestored() {
        Map<String, String> modules = Map.of("billing", BILLING);
        Sandbox plain = LuaVM.create().sandbox().capabilities(caps()).modules(modules::get).build();
        plain.eval("billing = require('billing')");
        byte[] unsealed = plain.snapshot();
        LuaSnapshotException e = assertThrows(LuaSnapshotException.class,
                () -> vm().sandbox().capabilities(caps()).modules(modules::get).restoreFrom(unsealed).build());
        assertTrue(e.getMessage().contains("sealed"), e.getMessage());

        // sealed, then changed (a forger raising the module's limit, say): the seal no longer verifies
        Sandbox sb = vm().sandbox().capabilities(caps()).modules(modules::get).build();
        sb.eval("billing = require('billing')");
        byte[] sealed = sb.snapshot();
        for (int at : new int[] {20, sealed.length / 2, sealed.length - 60}) {
            byte[] forged = sealed.clone();
            forged[at] ^= 1;
            CorruptedSnapshotTest.reseal(forged);
            assertThrows(LuaSnapshotException.class,
                    () -> vm().sandbox().capabilities(caps()).modules(modules::get).restoreFrom(forged).build());
        }
        // a state without module functions needs no seal
        Sandbox other = LuaVM.create().sandbox().capabilities(caps()).build();
        other.eval("x = 1");
        assertEquals(1L, vm().sandbox().capabilities(caps()).restoreFrom(other.snapshot()).build().eval("return x"));
    }

    static String lua(String s) {
        return "'" + s.replace("'", "\\'") + "'";
    }
}
