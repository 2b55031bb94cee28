package dev.luavm.contract;

import dev.luavm.host.Safety;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every field of the contract file: what it accepts, and the error (file, line, field) for what it does not. */
class ContractFileTest {
    private static Contract parse(String... replacements) {
        return Contract.parse("c.yaml", TestHost.contract(replacements));
    }

    private static ContractException bad(String... replacements) {
        return assertThrows(ContractException.class, () -> parse(replacements));
    }

    private static void assertError(ContractException e, int line, String field, String problemPart) {
        assertEquals("c.yaml", e.file(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.problem().contains(problemPart), e.getMessage());
        assertTrue(e.getMessage().startsWith("c.yaml:" + line + ": " + (field == null ? "" : field + ": ")), e.getMessage());
    }

    @Test
    void aValidContractReadsEveryField() {
        Contract c = parse();
        assertEquals("Test the contract", c.purpose());
        assertEquals(2, c.functions().size());
        assertEquals(new FunctionRule("lookup", null, Long.MAX_VALUE), c.functions().get(0));
        assertEquals(new FunctionRule("note", null, 2), c.functions().get(1));
        assertEquals(java.util.List.of("base", "string", "table", "math"), c.libraries());
        assertEquals(java.util.List.of("network", "filesystem", "environment"), c.forbidden());
        assertEquals("test data only", c.dataBoundary());
        assertEquals(new ContractLimits(10_000_000, 4 << 20, Duration.ofSeconds(2), 1024, 100), c.limits());
        assertEquals(AuditRule.ALL, c.audit());
        assertEquals("owner@example.com", c.approvalOwner());
        assertEquals(Rollback.MANUAL_REVIEW, c.rollback());
    }

    @Test
    void jsonIsAccepted() {
        String json = """
                {"purpose": "p", "input": {"type": "object"}, "output": {"type": "object"},
                 "functions": ["lookup"], "libraries": ["base"],
                 "limits": {"gas": 1000, "memory": "1MiB", "time": "500ms", "output": 0, "depth": 50},
                 "approval_owner": "me", "rollback": "last-approved",
                 "surprise": 1}
                """;
        ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.json", json));
        assertEquals(5, e.line());
        assertEquals("surprise", e.field());
        Contract c = Contract.parse("c.json", json.replace(",\n \"surprise\": 1", ""));
        assertEquals(Rollback.LAST_APPROVED, c.rollback());
        assertEquals(Duration.ofMillis(500), c.limits().time());
        assertEquals(0, c.limits().outputBytes());
        assertEquals(java.util.List.of(), c.forbidden());
        assertNull(c.dataBoundary());
        assertEquals(AuditRule.ALL, c.audit());
    }

    @Test
    void unknownTopLevelFieldIsNamedWithItsLine() {
        assertError(bad("colour: blue"), 12, "colour", "unknown field");
        assertError(bad("Purpose: x"), 12, "Purpose", "unknown field");
    }

    @Test
    void everyRequiredFieldIsRequired() {
        for (String f : ContractReader.REQUIRED) {
            ContractException e = bad(f + ": DELETE");
            assertEquals(f, e.field(), e.getMessage());
            assertTrue(e.problem().contains("required field missing"), e.getMessage());
        }
        assertEquals("purpose", bad("purpose: null").field());
    }

    @Test
    void optionalFieldsHaveDefaults() {
        Contract c = parse("forbidden: DELETE", "data_boundary: DELETE", "audit: DELETE");
        assertEquals(java.util.List.of(), c.forbidden());
        assertNull(c.dataBoundary());
        assertEquals(AuditRule.ALL, c.audit());
    }

    @Test
    void purposeAndOwnerAreOneLineOfText() {
        assertError(bad("purpose: 42"), 1, "purpose", "expected text, got an integer");
        assertError(bad("purpose: ''"), 1, "purpose", "must not be empty");
        assertError(bad("purpose: [a]"), 1, "purpose", "expected text, got a list");
        assertError(bad("approval_owner: {who: me}"), 10, "approval_owner", "expected text, got a mapping");
        assertError(bad("approval_owner: \"a\\nb\""), 10, "approval_owner", "one line");
        assertError(bad("data_boundary: 3"), 7, "data_boundary", "expected text");
    }

    @Test
    void schemasMustBeValidJsonSchemas() {
        assertError(bad("input: [1]"), 2, "input", "expected a JSON Schema");
        assertError(bad("input: {type: strin}"), 2, "input", "not a valid JSON Schema");
        assertError(bad("output: {type: object, required: name}"), 3, "output", "not a valid JSON Schema");
        assertError(bad("output: 7"), 3, "output", "expected a JSON Schema");
    }

    @Test
    void schemasCannotReachOutForReferences() {
        assertError(bad("input: {$ref: 'http://localhost:9/schema.json'}"), 2, "input", "not allowed to be loaded");
        assertError(bad("input: {$ref: 'file:///etc/passwd'}"), 2, "input", "not allowed to be loaded");
        parse("input: {$defs: {n: {type: string}}, type: object, properties: {name: {$ref: '#/$defs/n'}}}");
    }

    @Test
    void functionsAreNamesOrEntries() {
        Contract c = parse("functions: [lookup, {name: note, safety: forbidden}, {name: app.ledger.post, safety: UNSAFE, max_calls: 0}]");
        assertEquals(Safety.FORBIDDEN, c.functions().get(1).safety());
        assertEquals(Safety.UNSAFE, c.functions().get(2).safety());
        assertEquals(0, c.functions().get(2).maxCallsPerRun());
        assertError(bad("functions: lookup"), 4, "functions", "expected a list");
        assertError(bad("functions: [3]"), 4, "functions[0]", "expected a function name");
        assertError(bad("functions: [lookup, lookup]"), 4, "functions[1]", "listed twice");
        assertError(bad("functions: ['os.execute()']"), 4, "functions[0]", "not a function name");
        assertError(bad("functions: [{name: note, safety: maybe}]"), 4, "functions[0].safety", "not one of: safe, unsafe, forbidden");
        assertError(bad("functions: [{name: note, max_calls: -1}]"), 4, "functions[0].max_calls", "non-negative integer");
        assertError(bad("functions: [{name: note, max_calls: many}]"), 4, "functions[0].max_calls", "non-negative integer");
        assertError(bad("functions: [{name: note, effects: [x]}]"), 4, "functions[0].effects", "unknown field");
        assertError(bad("functions: [{safety: safe}]"), 4, "functions[0]", "'name' missing");
    }

    @Test
    void functionEntriesOnTheirOwnLinesAreFoundByLine() {
        String text = TestHost.contract("functions:\n  - lookup\n  - name: note\n    safety: sometimes");
        ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", text));
        assertEquals(7, e.line(), e.getMessage());
        assertEquals("functions[1].safety", e.field());
    }

    @Test
    void librariesAreAListOfNames() {
        assertError(bad("libraries: base"), 5, "libraries", "expected a list");
        assertError(bad("libraries: [base, base]"), 5, "libraries[1]", "listed twice");
        assertError(bad("libraries: [base, 'io.*']"), 5, "libraries[1]", "'io.*' is not a library bundle a contract may grant");
        assertError(bad("libraries: [base, 5]"), 5, "libraries[1]", "expected text");
        assertEquals(java.util.List.of(), parse("libraries: []").libraries());
    }

    @Test
    void forbiddenIsAListOfEffectTags() {
        assertEquals(java.util.List.of("network", "writes:ledger", "my-own-tag"),
                parse("forbidden: [network, 'writes:ledger', my-own-tag]").forbidden());
        assertError(bad("forbidden: network"), 6, "forbidden", "expected a list");
        assertError(bad("forbidden: [Network Access]"), 6, "forbidden[0]", "not an effect tag");
        assertError(bad("forbidden: [network, network]"), 6, "forbidden[1]", "listed twice");
    }

    @Test
    void limitsAreAllRequiredAndChecked() {
        assertError(bad("limits: 5"), 8, "limits", "expected a mapping");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 1s, output: 1KiB, depth: 10, cpu: 2}"), 8, "limits.cpu", "unknown field");
        for (String f : new String[] {"gas", "memory", "time", "output", "depth"}) {
            String limits = "limits: {gas: 1, memory: 1MiB, time: 1s, output: 1KiB, depth: 10}".replaceAll(f + ": [^,}]+,? ?", "");
            assertError(bad(limits), 8, "limits." + f, "required limit missing");
        }
        assertError(bad("limits: {gas: 0, memory: 1MiB, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.gas", "out of range");
        assertError(bad("limits: {gas: lots, memory: 1MiB, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.gas", "whole number");
        assertError(bad("limits: {gas: 1.5, memory: 1MiB, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.gas", "whole number");
        assertError(bad("limits: {gas: 1, memory: 1 parsec, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.memory", "not a size");
        assertError(bad("limits: {gas: 1, memory: 0, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.memory", "at least 64 KiB");
        assertError(bad("limits: {gas: 1, memory: 65535, time: 1s, output: 1KiB, depth: 10}"), 8, "limits.memory", "at least 64 KiB");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 500, output: 1KiB, depth: 10}"), 8, "limits.time", "with its unit");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 5 fortnights, output: 1KiB, depth: 10}"), 8, "limits.time", "not a duration");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 0ms, output: 1KiB, depth: 10}"), 8, "limits.time", "longer than zero");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 25h, output: 1KiB, depth: 10}"), 8, "limits.time", "longer than a day");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 1s, output: [], depth: 10}"), 8, "limits.output", "expected a size");
        assertError(bad("limits: {gas: 1, memory: 1MiB, time: 1s, output: 1KiB, depth: 5}"), 8, "limits.depth", "out of range");
        ContractLimits l = parse("limits: {gas: '1_000_000', memory: 64k, time: 2m, output: 512B, depth: 200}").limits();
        assertEquals(new ContractLimits(1_000_000, 64 << 10, Duration.ofMinutes(2), 512, 200), l);
        assertEquals(3L << 30, parse("limits: {gas: 1, memory: 3GiB, time: 1h, output: 1, depth: 10}").limits().memoryBytes());
    }

    @Test
    void auditListsWhatIsKept() {
        assertEquals(new AuditRule(false, true, false), parse("audit: [results]").audit());
        assertEquals(new AuditRule(false, false, false), parse("audit: []").audit());
        assertError(bad("audit: [arguments, secrets]"), 9, "audit[1]", "not one of: arguments, results, output");
        assertError(bad("audit: all"), 9, "audit", "expected a list");
    }

    @Test
    void rollbackIsOneOfTwoRules() {
        assertEquals(Rollback.LAST_APPROVED, parse("rollback: last-approved").rollback());
        assertError(bad("rollback: retry"), 11, "rollback", "not one of: manual-review, last-approved");
        assertError(bad("rollback: true"), 11, "rollback", "expected text");
    }

    @Test
    void syntaxErrorsAndDuplicateKeysNameTheLine() {
        ContractException e = assertThrows(ContractException.class,
                () -> Contract.parse("c.yaml", TestHost.contract() + "purpose: again\n"));
        assertEquals(12, e.line(), e.getMessage());
        assertTrue(e.problem().contains("duplicate field 'purpose'"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", "purpose: [unclosed\nrollback: x\n"));
        assertTrue(e.problem().startsWith("syntax error"), e.getMessage());
        assertTrue(e.line() > 0, e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", ""));
        assertTrue(e.problem().contains("empty"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", "- a\n- b\n"));
        assertTrue(e.problem().contains("mapping of fields"), e.getMessage());
    }

    @Test
    void theWorkedExampleLoads() {
        Contract c = Contract.load(java.nio.file.Path.of(System.getProperty("user.dir")).getParent()
                .resolve("examples/invoice-contract/contract.yaml"));
        assertEquals("finance-controls@example.com", c.approvalOwner());
        assertEquals(Duration.ofMillis(500), c.limits().time());
        assertFalse(c.functions().isEmpty());
    }
}
