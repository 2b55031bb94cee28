package dev.luavm.contract;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plain lines of {@code luavm contract show}, each derived from what the runtime enforces. */
class ContractSummaryTest {
    private final TestHost host = new TestHost();

    @Test
    void derivedLinesSayWhatTheScriptCannotDo() {
        Contract c = Contract.parse("c.yaml", TestHost.contract("limits: {gas: 1000, memory: 1MiB, time: 500ms, output: 1KiB, depth: 10}"));
        List<String> lines = ContractSummary.derived(c, host.registry());
        assertTrue(lines.contains("cannot call the network"), lines.toString());
        assertTrue(lines.contains("cannot read files or environment variables"), lines.toString());
        assertTrue(lines.contains("can call only: lookup, note"), lines.toString());
        assertTrue(lines.contains("stops after 500 ms"), lines.toString());
        assertTrue(lines.contains("uses only the libraries: base, string, table, math"), lines.toString());
        assertTrue(lines.contains("new capabilities and versions are approved by owner@example.com"), lines.toString());
    }

    @Test
    void withoutTheRegistryOnlyTheForbiddenListCounts() {
        Contract c = Contract.parse("c.yaml", TestHost.contract("forbidden: [network]"));
        List<String> lines = ContractSummary.derived(c, null);
        assertTrue(lines.contains("cannot call the network"), lines.toString());
        assertFalse(lines.stream().anyMatch(l -> l.contains("files")), lines.toString());
        // with the registry, no granted function touches files or the environment, so that is said too
        assertTrue(ContractSummary.derived(c, host.registry()).contains("cannot read files or environment variables"));
    }

    @Test
    void anEffectAGrantedFunctionHasIsNeverDeniedInPlainWords() {
        Contract c = Contract.parse("c.yaml", TestHost.contract("functions: [lookup, {name: fetch, safety: forbidden}, note]",
                "forbidden: []"));
        List<String> lines = ContractSummary.derived(c, host.registry());
        assertTrue(lines.contains("cannot call the network"), "fetch is forbidden, so nothing granted reaches the network");
        assertTrue(lines.contains("is refused (and logged) if it calls: fetch"), lines.toString());
        Contract open = Contract.parse("c.yaml", TestHost.contract("functions: [lookup, fetch]", "forbidden: []"));
        assertFalse(ContractSummary.derived(open, host.registry()).contains("cannot call the network"));
    }

    @Test
    void theTableShowsEveryField() {
        Contract c = Contract.parse("c.yaml", TestHost.contract("audit: [results]", "rollback: last-approved"));
        List<String> lines = ContractSummary.lines(c, host.registry());
        assertEquals("contract       c.yaml", lines.get(0));
        assertEquals("purpose        Test the contract", lines.get(1));
        assertEquals("input          name, n?", lines.get(2));
        assertEquals("output         value", lines.get(3));
        assertEquals("functions      lookup (safe), note (unsafe, at most 2 calls per run)", lines.get(4));
        assertTrue(lines.contains("limits         gas 10,000,000, memory 4 MiB, time 2 s, output 1 KiB, depth 100"), lines.toString());
        assertTrue(lines.contains("audit keeps    every host call, its results"), lines.toString());
        assertTrue(lines.contains("  - a failed run falls back to the last approved version, else manual review"), lines.toString());
        assertTrue(ContractSummary.lines(Contract.parse("c.yaml", TestHost.contract("audit: []")), host.registry())
                .contains("  - runs cannot be replayed from the log (host-call results are not kept)"));
    }
}
