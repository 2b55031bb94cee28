package dev.luavm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.luavm.cli.InvoiceContractFixturesTest.EXAMPLE;
import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code luavm run --contract} and {@code luavm contract show|check}. */
@Timeout(60)
class ContractCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTRACT = EXAMPLE.resolve("contract.yaml").toString();
    private static final String SCRIPT = EXAMPLE.resolve("normalize.lua").toString();
    private static final String INPUT = EXAMPLE.resolve("input.json").toString();

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void theExampleRunsAndPrintsOneJsonObject() throws IOException {
        MainTest.Outcome o = luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT);
        assertEquals(0, o.status(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().endsWith("}\n") && o.out().indexOf('\n') == o.out().length() - 1, o.out());
        JsonNode n = JSON.readTree(o.out());
        assertEquals("ok", n.path("category").asText());
        assertEquals(JSON.readTree("{\"normalized_vendor\":\"Acme Corporation\",\"expense_category\":\"software\","
                + "\"confidence\":0.9,\"review_note\":\"\"}"), n.path("result"));
        assertTrue(n.path("usage").isNull(), "the example's error_detail is location: usage figures stay with the host");
        assertTrue(n.path("message").isNull());
        Path full = file("full.yaml", Files.readString(Path.of(CONTRACT)).replace("error_detail: location", "error_detail: full"));
        n = JSON.readTree(luavm("run", "--contract", full.toString(), "--input", INPUT, SCRIPT).out());
        assertTrue(n.path("usage").path("gas").asLong() > 0, n.toString());
    }

    @Test
    void aFailedRunPrintsNoScriptChosenText() throws IOException {
        String secret = "Initech Confidential 7731";
        Path in = file("in.json", "{\"vendor_name\": \"" + secret + "\", \"line_item_description\": \"paper\", \"amount\": 1, "
                + "\"currency\": \"EUR\"}");
        Path script = file("leak.lua", "local input = ...\nerror(input.vendor_name:rep(100))\n");
        MainTest.Outcome o = luavm("run", "--contract", CONTRACT, "--input", in.toString(), script.toString());
        assertEquals(1, o.status(), o.err());
        assertEquals("{\"category\":\"logic-error\",\"result\":null,\"usage\":null,\"message\":\"leak.lua:2: error (message "
                + "withheld) (result withheld; the item is marked for manual review)\"}\n", o.out());
        Path keys = file("keys.lua", "local input = ...\nreturn {[input.vendor_name] = 1}\n");
        o = luavm("run", "--contract", CONTRACT, "--input", in.toString(), keys.toString());
        assertEquals(7, o.status(), o.err());
        assertTrue(o.out().contains("the result does not match the contract's output schema at #/additionalProperties, #/required"),
                o.out());
        assertTrue(!o.out().contains("Initech") && !o.out().contains("7731") && o.err().isEmpty(), o.out() + o.err());
        Path none = file("none.yaml", Files.readString(Path.of(CONTRACT)).replace("error_detail: location", "error_detail: none"));
        o = luavm("run", "--contract", none.toString(), "--input", in.toString(), keys.toString());
        assertEquals("{\"category\":\"bad-output\",\"result\":null,\"usage\":null,\"message\":\"details withheld "
                + "(error_detail: none) (result withheld; the item is marked for manual review)\"}\n", o.out());
    }

    @Test
    void aContractGrantingOsExitOrDocsDoesNotLoad() throws IOException {
        for (String lib : new String[] {"os.exit", "docs", "debug, package, io, os.exit"}) {
            Path c = file("c.yaml", Files.readString(Path.of(CONTRACT)).replace("libraries: [base, string, table, math]",
                    "libraries: [base, string, table, math, " + lib + "]"));
            MainTest.Outcome o = luavm("contract", "check", c.toString());
            assertEquals(2, o.status(), lib + ": " + o.out());
            assertTrue(o.err().contains("is not a library bundle a contract may grant"), o.err());
            assertEquals(2, luavm("run", "--contract", c.toString(), "--input", INPUT, SCRIPT).status());
        }
        // nor does the MCP server serve one: the list is checked when the contract loads
        Path exiting = file("exit.yaml", Files.readString(Path.of(CONTRACT)).replace("libraries: [base, string, table, math]",
                "libraries: [base, os.exit]"));
        MainTest.Outcome mcp = luavm("mcp", "--contract", exiting.toString());
        assertEquals(1, mcp.status(), mcp.err());
        assertTrue(mcp.err().contains("libraries[1]: 'os.exit' is not a library bundle a contract may grant"), mcp.err());
        Path exit = file("exit.lua", "os.exit(0)\n");
        Path withOs = file("os.yaml", Files.readString(Path.of(CONTRACT)).replace("libraries: [base, string, table, math]",
                "libraries: [base, string, table, math, os]"));
        MainTest.Outcome o = luavm("run", "--contract", withOs.toString(), "--input", INPUT, exit.toString());
        assertEquals(1, o.status(), o.out());
        assertTrue(o.out().contains("\"message\":\"exit.lua:1: attempt to call a nil value (message withheld)"), o.out());
    }

    @Test
    void aContractsFilesystemPicksFromTheMountsOffered() throws IOException {
        Path rates = Files.createDirectories(dir.resolve("rates"));
        Files.writeString(rates.resolve("eur.txt"), "1.08");
        String contract = Files.readString(Path.of(CONTRACT))
                .replaceFirst("(?m)^libraries: .*$", "libraries: [base, string, table, math, io]")
                .replaceFirst("(?m)^forbidden: .*$", "forbidden: [network, environment, process, cross-tenant, writes:fs]")
                + "\nfilesystem:\n  mounts:\n    - { path: /rates, mode: read-only }\n";
        Path c = file("fs.yaml", contract);
        Path script = file("fs.lua", "local r = io.open('/rates/eur.txt'):read('n')\n"
                + "local w, m = io.open('/rates/x', 'w')\n"
                + "return {normalized_vendor = tostring(r), expense_category = 'software', confidence = 1, review_note = m}");
        MainTest.Outcome o = luavm("run", "--contract", c.toString(), "--input", INPUT, "--mount", "/rates=" + rates + ":rw",
                script.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        JsonNode n = JSON.readTree(o.out());
        assertEquals("1.08", n.path("result").path("normalized_vendor").asText());
        assertEquals("/rates/x: Read-only file system", n.path("result").path("review_note").asText());
        // without the host offering it, the contract does not bind
        MainTest.Outcome none = luavm("run", "--contract", c.toString(), "--input", INPUT, script.toString());
        assertEquals(2, none.status());
        assertTrue(none.err().contains("'/rates' is not a mount the host offers"), none.err());
    }

    @Test
    void eachCategoryHasItsExitStatus() throws IOException {
        Path in = file("in.json", "{\"vendor_name\": \"x\", \"line_item_description\": \"paper\", \"amount\": 1, \"currency\": \"EUR\"}");
        assertEquals(1, luavm("run", "--contract", CONTRACT, "--input", in.toString(), file("e.lua", "error('boom')").toString()).status());
        assertEquals(7, luavm("run", "--contract", CONTRACT, "--input", in.toString(), file("b.lua", "return 1").toString()).status());
        assertEquals(6, luavm("run", "--contract", CONTRACT, "--input", in.toString(),
                file("f.lua", "for i = 1, 4 do emit_review_note('n') end").toString()).status());   // the fourth call passes max_calls
        assertEquals(5, luavm("run", "--contract", CONTRACT, "--input", file("bad.json", "{not json").toString(), SCRIPT).status());
        MainTest.Outcome limit = luavm("run", "--contract", CONTRACT, "--input", in.toString(),
                file("l.lua", "local s = string.rep('x', 1 << 20) local t = {} for i = 1, 100 do t[i] = s .. i end").toString());
        assertEquals(3, limit.status());
        assertTrue(limit.out().contains("\"message\":\"memory limit exceeded"), limit.out());
    }

    @Test
    void theAuditOptionWritesAReplayableLog() throws IOException {
        Path log = dir.resolve("run.jsonl");
        assertEquals(0, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--audit", log.toString()).status());
        assertEquals(0, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--audit", log.toString()).status());
        MainTest.Outcome o = luavm("replay", log.toString());
        assertEquals(0, o.status(), o.err());
        assertEquals(2, o.out().lines().count());   // two blocks, two outcome lines
        assertTrue(o.out().startsWith("{\"type\":\"contract_outcome\",\"category\":\"ok\""), o.out());
    }

    @Test
    void usageAndLoadingErrorsExitWithTwo() throws IOException {
        assertEquals(2, luavm("run", "--input", INPUT, SCRIPT).status());
        assertEquals(2, luavm("run", "--contract", CONTRACT, SCRIPT).status());
        assertEquals(2, luavm("run", "--contract", CONTRACT, "--input", INPUT).status());
        assertEquals(2, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--bogus").status());
        assertEquals(2, luavm("run", "--contract", CONTRACT, "--input", "missing.json", SCRIPT).status());
        Path bad = file("c.yaml", Files.readString(Path.of(CONTRACT)).replace("rollback: manual-review", "rollback: pray"));
        MainTest.Outcome o = luavm("run", "--contract", bad.toString(), "--input", INPUT, SCRIPT);
        assertEquals(2, o.status());
        assertTrue(o.err().startsWith("luavm run: " + bad + ":53: rollback: 'pray' is not one of"), o.err());
        assertEquals(2, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--host", "no.such.Host").status());
    }

    @Test
    void theHostIsFoundByNameOrClass() {
        assertEquals(0, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--host", "invoice").status());
        assertEquals(0, luavm("run", "--contract", CONTRACT, "--input", INPUT, SCRIPT, "--host",
                "dev.luavm.examples.InvoiceHost").status());
    }

    @Test
    void contractShowPrintsThePlainLines() {
        MainTest.Outcome o = luavm("contract", "show", CONTRACT);
        assertEquals(0, o.status(), o.err());
        for (String line : new String[] {"cannot call the network", "cannot read files or environment variables",
                "can call only: lookup_vendor_alias, get_category_rules, emit_review_note", "stops after 500 ms"}) {
            assertTrue(o.out().contains("  - " + line + "\n"), line + " in\n" + o.out());
        }
        assertTrue(o.out().startsWith("contract       " + CONTRACT + "\n"), o.out());
    }

    @Test
    void theReadmeShowsTheCurrentOutput() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        MainTest.Outcome o = luavm("contract", "show", "examples/invoice-contract/contract.yaml".replace("examples/", EXAMPLE.getParent() + "/"));
        String shown = o.out().replace(EXAMPLE.getParent() + "/", "examples/");
        assertTrue(readme.contains(shown), "README's luavm contract show output is stale; it is now:\n" + shown);
        assertTrue(readme.contains("```yaml\n" + Files.readString(Path.of(CONTRACT)) + "```\n"), "README's copy of contract.yaml is stale");
    }

    @Test
    void contractCheckBindsToTheHost() throws IOException {
        MainTest.Outcome ok = luavm("contract", "check", CONTRACT);
        assertEquals(0, ok.status(), ok.err());
        assertTrue(ok.out().startsWith("ok: "), ok.out());
        Path bad = file("c.yaml", Files.readString(Path.of(CONTRACT)).replace("  - get_category_rules ", "  - get_exchange_rates "));
        MainTest.Outcome o = luavm("contract", "check", bad.toString());
        assertEquals(2, o.status());
        assertTrue(o.err().contains(":28: functions[1]: 'get_exchange_rates' is not in the host's registry"), o.err());
        Path net = file("n.yaml", Files.readString(Path.of(CONTRACT)).replace("{ name: send_vendor_email, safety: forbidden }", "send_vendor_email"));
        o = luavm("contract", "check", net.toString());
        assertTrue(o.err().contains("'send_vendor_email' has the effect 'network', which the contract forbids"), o.err());
        assertEquals(2, luavm("contract", "explain", CONTRACT).status());
    }
}
