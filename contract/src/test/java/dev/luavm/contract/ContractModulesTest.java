package dev.luavm.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.Capabilities;
import dev.luavm.audit.HostCallEvent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 23 item 6: a contract's {@code modules:} section grants host functions to a reviewed module's code only. */
class ContractModulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TestHost host = new TestHost();

    /** A module 'billing' that posts to the ledger; the script may require it but not post itself. */
    private static final String MODULES = "modules:\n"
            + "  billing:\n"
            + "    source: |\n"
            + "      local M = {}\n"
            + "      function M.post(name) return app.ledger.post({name = name}) end\n"
            + "      return M\n"
            + "    functions: [{name: app.ledger.post, max_calls: 1}]";

    /** The test contract with the package library and {@link #MODULES}, unless a replacement gives modules of its own. */
    private static String contract(String... replacements) {
        List<String> all = new java.util.ArrayList<>();
        all.add("libraries: [base, string, table, math, package]");
        all.addAll(List.of(replacements));
        if (all.stream().noneMatch(r -> r.startsWith("modules:"))) all.add(MODULES);
        return TestHost.contract(all.toArray(new String[0]));
    }

    private ContractRunner runner(String text) {
        return Contract.parse("c.yaml", text).bind(host.registry());
    }

    private static Outcome run(ContractRunner r, String script) throws Exception {
        return r.run("job.lua", script.getBytes(StandardCharsets.UTF_8), JSON.readTree("{\"name\": \"a\"}"));
    }

    @Test
    void theModuleMayCallItsFunctionsAndTheScriptMayNot() throws Exception {
        ContractRunner r = runner(contract());
        Outcome ok = run(r, "local input = ... require('billing').post(input.name) return {value = 'posted'}");
        assertEquals(Category.OK, ok.category(), ok.message());
        assertEquals(1, host.calls.get());

        Outcome direct = run(r, "app.ledger.post({name = 'x'}) return {value = 'posted'}");
        assertEquals(Category.BLOCKED_CAPABILITY, direct.category(), direct.message());
        assertEquals(1, host.calls.get(), "the script's own call never ran");
        HostCallEvent refused = direct.audit().stream().filter(e -> e instanceof HostCallEvent)
                .map(e -> (HostCallEvent) e).findFirst().orElseThrow();
        assertEquals(HostCallEvent.Verdict.DENIED, refused.verdict());
        assertEquals("granted to module 'billing', called by code of no module", refused.reason());

        // a forged chunk name is not the module
        Outcome forged = run(r, "load('return app.ledger.post({name = 1})', '@billing')() return {value = 'x'}");
        assertEquals(Category.BLOCKED_CAPABILITY, forged.category(), forged.message());
        // the contract's call bound holds for the module's calls too
        Outcome twice = run(r, "local b = require('billing') b.post('a') b.post('b') return {value = 'x'}");
        assertEquals(Category.BLOCKED_CAPABILITY, twice.category(), twice.message());
    }

    @Test
    void runsWithModulesReplayIdentically(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path log = dir.resolve("modules.jsonl");
        ContractRunner r = runner(contract());
        List<String> scripts = List.of(
                "local input = ... require('billing').post(input.name) return {value = 'posted'}",
                "app.ledger.post({name = 'x'}) return {value = 'posted'}",
                "local ok = pcall(load('return app.ledger.post({})', '@billing')) return {value = tostring(ok)}");
        List<Category> categories = new java.util.ArrayList<>();
        for (String script : scripts) {
            try (ContractLog l = ContractLog.append(log)) {
                categories.add(l.run(r, List.of("test"), "job.lua", script.getBytes(StandardCharsets.UTF_8),
                        "{\"name\": \"a\"}".getBytes(StandardCharsets.UTF_8), ContractRunner.Settings.DEFAULT).category());
            }
        }
        assertEquals(List.of(Category.OK, Category.BLOCKED_CAPABILITY, Category.BLOCKED_CAPABILITY), categories);
        for (List<ContractReplay.Block> blocks : List.of(
                ContractReplay.replay(log, names -> host.registry(), dev.luavm.LuaVM.create()),
                ContractReplay.replay(log, null, dev.luavm.LuaVM.create()))) {
            assertEquals(3, blocks.size());
            for (ContractReplay.Block b : blocks) {
                assertTrue(b.identical(), b.line() + ": " + b.problem() + "\n" + b.expected() + "\n" + b.got());
            }
        }
    }

    @Test
    void theGrantIsBoundInTheCapabilitiesAndTheSummarySaysSo() {
        ContractRunner r = runner(contract());
        Capabilities.Grant g = r.capabilities().hostFunctions().get("app.ledger.post");
        assertEquals("billing", g.module());
        assertNull(r.capabilities().hostFunctions().get("lookup").module());
        Contract c = r.contract();
        assertEquals(1, c.modules().size());
        assertEquals("billing", c.modules().get(0).name());
        assertTrue(c.modules().get(0).source().contains("function M.post"));
        List<String> lines = ContractSummary.lines(c, host.registry());
        assertTrue(lines.stream().anyMatch(l -> l.contains("module billing") && l.contains("3 lines of Lua; may call app.ledger.post (unsafe, at most 1 calls per run)")),
                lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("reaches only through the reviewed modules, never by calling them itself: "
                + "app.ledger.post (module billing)")), lines.toString());
    }

    @Test
    void malformedModulesFailLoadingNamingTheField() {
        ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {'bad name': {source: 'return {}'}}")));
        assertEquals("modules.bad name", e.field());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {billing: {functions: [lookup]}}")));
        assertTrue(e.problem().contains("'source' missing"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {billing: {source: 'return {}', file: x.lua}}")));
        assertEquals("modules.billing.file", e.field());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {billing: {source: '   '}}")));
        assertEquals("modules.billing.source", e.field());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: [billing]")));
        assertEquals("modules", e.field());
        // a function goes to the script or to one module
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {billing: {source: 'return {}', functions: [lookup]}}")));
        assertEquals("modules.billing.functions[0]", e.field());
        assertTrue(e.problem().contains("'lookup' is granted already (in functions)"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract(
                "modules: {a: {source: 'return {}', functions: [secret]}, b: {source: 'return {}', functions: [secret]}}")));
        assertEquals("modules.b.functions[0]", e.field());
    }

    @Test
    void bindingChecksTheModulesFunctionsAsTheScripts() {
        ContractException e = assertThrows(ContractException.class, () -> runner(contract(
                "modules: {billing: {source: 'return {}', functions: [send_mail]}}")));
        assertEquals("modules.billing.functions[0]", e.field());
        assertTrue(e.problem().contains("'send_mail' is not in the host's registry"), e.getMessage());
        e = assertThrows(ContractException.class, () -> runner(contract(
                "modules: {billing: {source: 'return {}', functions: [fetch]}}")));
        assertTrue(e.problem().contains("'fetch' has the effect 'network', which the contract forbids"), e.getMessage());
        e = assertThrows(ContractException.class, () -> runner(TestHost.contract(MODULES)));
        assertEquals("modules", e.field());
        assertTrue(e.problem().contains("needs the 'package' library"), e.getMessage());
    }

    @Test
    void aFunctionTheHostBindsToAModuleStaysBoundUnderAContract() {
        Capabilities registry = host.registry().toBuilder()
                .grantToModule("vault", "vault.open", "Opens the vault", call -> true).build();
        ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml",
                TestHost.contract("functions: [lookup, vault.open]")).bind(registry));
        assertEquals("functions[1]", e.field());
        assertTrue(e.problem().contains("granted by the host to module 'vault' only"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", contract(
                "modules: {billing: {source: 'return {}', functions: [vault.open]}}")).bind(registry));
        assertTrue(e.problem().contains("granted by the host to module 'vault' only"), e.getMessage());
        ContractRunner r = Contract.parse("c.yaml", contract(
                "modules: {vault: {source: 'return {open = function() return vault.open() end}', functions: [vault.open]}}"))
                .bind(registry);
        assertEquals("vault", r.capabilities().hostFunctions().get("vault.open").module());
    }
}
