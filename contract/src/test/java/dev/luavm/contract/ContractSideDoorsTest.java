package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.LuaVM;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.RunEnded;
import dev.luavm.host.HostCallPolicy;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T24: a contract that withholds results also withholds what could carry them out another way.
 * The closed list of libraries, {@code os.exit}, and {@code error_detail}: what the message,
 * the limit, the printed outcome and the contract log's outcome line of each category may say.
 * The input below holds a secret; no outcome but {@code full} may show it.
 */
class ContractSideDoorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "SECRETsecret4242";
    private static final String IN = "{\"name\": \"" + SECRET + "\"}";
    private final TestHost host = new TestHost();

    private ContractRunner runner(String... replacements) {
        return Contract.parse("c.yaml", TestHost.contract(replacements)).bind(host.registry());
    }

    private static Outcome run(ContractRunner r, String script) {
        return run(r, script, IN);
    }

    private static Outcome run(ContractRunner r, String script, String input) {
        try {
            return r.run("job.lua", script.getBytes(StandardCharsets.UTF_8), JSON.readTree(input));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Nothing of the secret in anything that leaves: message, limit, the printed outcome. */
    private static void assertNoSecret(Outcome o) {
        String all = o.message() + " " + o.limit() + " " + o.toJson();
        assertFalse(all.contains(SECRET) || all.contains(SECRET.toLowerCase()) || all.contains("4242"), all);
    }

    // ------------------------------------------------------------------ the closed list of libraries

    @Test
    void aContractGrantsOnlyTheDocumentedLibraries() {
        for (String lib : List.of("os.exit", "docs", "files", "work", "none")) {
            ContractException e = assertThrows(ContractException.class,
                    () -> Contract.parse("c.yaml", TestHost.contract("libraries: [base, " + lib + "]")), lib);
            assertEquals("libraries[1]", e.field());
            assertEquals(5, e.line());
            assertTrue(e.problem().startsWith("'" + lib + "' is not a library bundle a contract may grant"), e.getMessage());
            assertTrue(e.problem().endsWith("the bundles a contract may grant: base, coroutine, string, table, math, utf8, os, "
                    + "io, package, debug, standard"), e.getMessage());
        }
        // every one on the list loads and binds
        Contract c = Contract.parse("c.yaml", TestHost.contract("libraries: [" + String.join(", ", Contract.LIBRARIES) + "]"));
        assertEquals(Contract.LIBRARIES, c.libraries());
        Outcome o = run(c.bind(host.registry()),
                "return {value = type(docs) .. type(os.exit) .. type(os.clock) .. type(debug) .. type(require) .. type(io.write)}");
        assertEquals("nilnilfunctiontablefunctionfunction", o.result().path("value").asText(), o.message());
    }

    @Test
    void ioUnderAContractReadsNoHostInputAndWritesWherePrintDoes() {
        ContractRunner r = runner("libraries: [base, io, string]", "error_detail: full");
        Outcome o = run(r, "io.write('a') io.stderr:write('b') io.stdout:write('c') print('d') "
                + "return {value = tostring(io.stdin) .. ' ' .. tostring(pcall(io.read))}");
        assertEquals(Category.OK, o.category(), o.message());
        assertEquals("abcd\n", o.output());
        assertTrue(o.result().path("value").asText().startsWith("nil "), o.result().toString());
        // stderr counts against the output limit like the rest
        Outcome flood = run(r, "while true do io.stderr:write(('x'):rep(100)) end");
        assertEquals(Category.LIMIT, flood.category());
        assertEquals("output", flood.limit());
    }

    @Test
    void osExitIsACallToNil() {
        Outcome withOs = run(runner("libraries: [base, os]", "error_detail: full"), "os.exit(0)");
        assertEquals(Category.LOGIC_ERROR, withOs.category());
        assertEquals("job.lua:1: attempt to call a nil value (field 'exit')", withOs.message());
        Outcome without = run(runner("libraries: [base]", "error_detail: full"), "os.exit(0)");
        assertEquals(Category.LOGIC_ERROR, without.category());
        assertEquals("job.lua:1: attempt to index a nil value (global 'os')", without.message());
        Outcome located = run(runner("libraries: [base, os]"), "local i = ...\nos.exit(1)");
        assertEquals("job.lua:2: attempt to call a nil value (message withheld)", located.message());
        for (Outcome o : List.of(withOs, without, located)) assertFalse(o.toJson().toString().contains("Exception"), o.message());
    }

    // ------------------------------------------------------------------ error_detail

    @Test
    void errorDetailIsReadWithLocationTheDefault() {
        assertEquals(ErrorDetail.LOCATION, Contract.parse("c.yaml", TestHost.contract()).errorDetail());
        assertEquals(ErrorDetail.NONE, Contract.parse("c.yaml", TestHost.contract("error_detail: none")).errorDetail());
        assertEquals(ErrorDetail.FULL, Contract.parse("c.yaml", TestHost.contract("error_detail: full")).errorDetail());
        ContractException e = assertThrows(ContractException.class,
                () -> Contract.parse("c.yaml", TestHost.contract("error_detail: verbose")));
        assertEquals("error_detail", e.field());
        assertTrue(e.problem().contains("'verbose' is not one of: none, location, full"), e.getMessage());
        e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml", TestHost.contract("error_detail: [full]")));
        assertEquals("error_detail", e.field());
    }

    @Test
    void anErrorsTextNeverLeavesUnderLocation() {
        String script = "local input = ...\nlocal s = input.name:rep(200)\nerror(s)";
        Outcome full = run(runner("error_detail: full"), script);
        assertTrue(full.message().contains(SECRET.repeat(20)), full.message());
        Outcome loc = run(runner(), script);
        assertEquals(Category.LOGIC_ERROR, loc.category());
        assertEquals("job.lua:3: error (message withheld)", loc.message());
        assertNoSecret(loc);
        Outcome none = run(runner("error_detail: none"), script);
        assertEquals(Category.LOGIC_ERROR, none.category());
        assertEquals(Disclosure.WITHHELD, none.message());
        assertNoSecret(none);
        // the log is the operator's record: it keeps the error in full, whatever error_detail says
        RunEnded end = (RunEnded) loc.audit().get(loc.audit().size() - 1);
        assertTrue(end.error().contains(SECRET), end.error());
    }

    @Test
    void aForgedPositionOrKindCarriesNothing() {
        ContractRunner r = runner();
        // a position written by the script: the line is bounded by the script's length, the text dropped
        assertEquals("job.lua:?: error (message withheld)",
                run(r, "local i = ... error('job.lua:' .. #i.name * 1000 .. ': ' .. i.name, 0)").message());
        assertEquals("job.lua:1: error (message withheld)", run(r, "local i = ... error('job.lua:1: ' .. i.name, 0)").message());
        // a chunk named after the data, a local named after the data
        Outcome loaded = run(r, "local i = ... load('local ' .. i.name .. ' = nil return ' .. i.name .. '.x', '=' .. i.name)()");
        assertEquals("job.lua:?: attempt to index a nil value (message withheld)", loaded.message());
        assertNoSecret(loaded);
        // a type name taken from the metatable's __name
        Outcome named = run(r, "local i = ... local t = setmetatable({}, {__name = i.name}) t()");
        assertEquals("job.lua:1: attempt to call a value (message withheld)", named.message());
        assertNoSecret(named);
        // a kind spelled by the script is one of the fixed kinds, never more
        Outcome spelled = run(r, "local i = ... error('attempt to compare ' .. i.name .. ' with nil')");
        assertEquals("job.lua:1: attempt to compare (message withheld)", spelled.message());
        // an error value that is not a string, and a rethrown error: its innermost kind
        assertEquals("job.lua:?: error (message withheld)", run(r, "local i = ... error({i.name})").message());
        Outcome rethrown = run(r, "local i = ...\nlocal ok, e = pcall(function() return i.missing.x end)\nerror(e)");
        assertEquals("job.lua:3: attempt to index a nil value (message withheld)", rethrown.message());
        Outcome arith = run(r, "local i = ...\nreturn {value = i.name + 1}");
        assertEquals("job.lua:2: attempt to perform arithmetic on a string value (message withheld)", arith.message());
        assertNoSecret(arith);
    }

    @Test
    void aLongScriptNameIsShownAsTheRuntimeShowsIt() {
        String name = "@/var/lib/app/scripts/" + "x".repeat(80) + "/normalize.lua";
        Outcome o = runner().run(name, "local i = ...\nerror(i.name)".getBytes(StandardCharsets.UTF_8), JSON.valueToTree(
                java.util.Map.of("name", SECRET)));
        assertEquals("..." + name.substring(name.length() - 56) + ":2: error (message withheld)", o.message());
        assertEquals("normalize.lua:2: error (message withheld)", runner().run("=normalize.lua",
                "local i = ...\nerror(i.name)".getBytes(StandardCharsets.UTF_8), JSON.valueToTree(java.util.Map.of("name", SECRET))).message());
    }

    @Test
    void aSyntaxErrorShowsItsLineOnly() {
        assertEquals("job.lua:2: syntax error (message withheld)", run(runner(), "local x = 1\nreturn {").message());
        assertEquals("job.lua:2: unexpected symbol near <eof>", run(runner("error_detail: full"), "local x = 1\nreturn {").message());
        assertEquals(Disclosure.WITHHELD, run(runner("error_detail: none"), "return {").message());
    }

    @Test
    void aBadOutputNamesSchemaPathsNeverTheResultsKeysOrValues() {
        String keys = "local i = ... return {value = 'v', [i.name] = 1, [i.name .. 'x'] = 2}";
        Outcome full = run(runner("error_detail: full"), keys);
        assertTrue(full.message().contains(SECRET), full.message());
        Outcome loc = run(runner(), keys);
        assertEquals(Category.BAD_OUTPUT, loc.category());
        assertEquals("the result does not match the contract's output schema at #/additionalProperties", loc.message());
        assertNoSecret(loc);
        Outcome type = run(runner(), "local i = ... return {value = {[i.name] = true}}");
        assertEquals("the result does not match the contract's output schema at #/properties/value/type", type.message());
        assertNoSecret(type);
        // no JSON form: why, never where (the path is made of the result's keys)
        Outcome fn = run(runner(), "local i = ... return {value = 'v', [i.name] = print}");
        assertEquals(Category.BAD_OUTPUT, fn.category());
        assertEquals("the result is not JSON: a function or coroutine, which JSON cannot hold", fn.message());
        assertNoSecret(fn);
        Outcome nan = run(runner(), "local i = ... return {[i.name] = 0/0}");
        assertEquals("the result is not JSON: NaN or an infinity, which JSON cannot hold", nan.message());
        Outcome none = run(runner("error_detail: none"), keys);
        assertEquals(Category.BAD_OUTPUT, none.category());
        assertEquals(Disclosure.WITHHELD, none.message());
        assertEquals(Disclosure.WITHHELD, run(runner("error_detail: none"), "return {value = print}").message());
    }

    @Test
    void malformedInputNamesSchemaPathsToo() {
        ContractRunner r = runner("input: {type: object, additionalProperties: false, required: [name], properties: {name: {type: string}}}");
        String input = "{\"name\": 1, \"" + SECRET + "\": \"" + SECRET + "\"}";
        Outcome o = run(r, "return {value = 'v'}", input);
        assertEquals(Category.MALFORMED_INPUT, o.category());
        assertEquals("input does not match the contract's input schema at #/additionalProperties, #/properties/name/type",
                o.message());
        assertNoSecret(o);
        Outcome deep = run(r, "return {}", "{\"name\": \"x\", \"" + SECRET + "\": " + "[".repeat(150) + "]".repeat(150) + "}");
        assertEquals(Category.MALFORMED_INPUT, deep.category());
        assertNoSecret(deep);
        Outcome full = run(runner("error_detail: full", "input: {type: object, properties: {name: {type: integer}}}"),
                "return {}", IN);
        assertTrue(full.message().contains("/name: string found, integer expected"), full.message());
        assertEquals(Disclosure.WITHHELD, run(runner("error_detail: none"), "return {}", "[1]").message());
    }

    @Test
    void aBlockedCallNamesTheFunctionAndVerdictNotTheReasonOrHowOften() {
        HostCallPolicy quoting = req -> HostCallPolicy.Decision.deny("refused '" + req.args().get(0) + "'");
        Contract c = Contract.parse("c.yaml", TestHost.contract("functions: [lookup, note, {name: fetch, safety: forbidden}]"));
        ContractRunner r = ContractRunner.bind(c, host.registry(), quoting, LuaVM.create());
        String script = "local i = ... for k = 1, 5 do pcall(note, i.name) end pcall(fetch, i.name) pcall(note, 'x') error(i.name)";
        Outcome o = run(r, script);
        assertEquals(Category.BLOCKED_CAPABILITY, o.category());
        assertEquals("blocked call: fetch forbidden, note denied; the run then ended: job.lua:1: error (message withheld)",
                o.message());
        assertNoSecret(o);
        ContractRunner full = ContractRunner.bind(Contract.parse("c.yaml", TestHost.contract(
                "functions: [lookup, note, {name: fetch, safety: forbidden}]", "error_detail: full")), host.registry(), quoting,
                LuaVM.create());
        assertTrue(run(full, script).message().contains("note denied (refused '" + SECRET + "')"));
    }

    @Test
    void aLimitSaysWhichUnlessNone() {
        String limits = "limits: {gas: 100000, memory: 4MiB, time: 10s, output: 1KiB, depth: 100}";
        Outcome loc = run(runner(limits), "while true do end");
        assertEquals("gas", loc.limit());
        assertEquals("gas limit exceeded", loc.message());
        Outcome none = run(runner(limits, "error_detail: none"), "while true do end");
        assertEquals(Category.LIMIT, none.category());
        assertNull(none.limit());
        assertEquals(Disclosure.WITHHELD, none.message());
        Outcome depth = run(runner(), "local i = ... local function f(n) return 1 + f(n) end f(i.name)");
        assertEquals("depth", depth.limit());
        assertEquals("depth limit exceeded", depth.message());
    }

    @Test
    void usageLeavesOnlyUnderFull() {
        String script = "local i = ... for k = 1, #i.name * 1000 do end return {value = 'v'}";
        for (String detail : List.of("location", "none")) {
            Outcome o = run(runner("error_detail: " + detail), script);
            assertEquals(Category.OK, o.category());
            assertTrue(o.toJson().path("usage").isNull(), o.toJson().toString());
            assertTrue(o.usage().gas() > 16_000, "the host's own record stays exact");
            Outcome failed = run(runner("error_detail: " + detail), script.replace("return", "error()"));
            assertTrue(failed.toJson().path("usage").isNull(), failed.toJson().toString());
        }
        JsonNode full = run(runner("error_detail: full"), script).toJson();
        assertTrue(full.path("usage").path("gas").asLong() > 16_000, full.toString());
    }

    @Test
    void theContractLogsOutcomeLineSaysNoMoreAndReplaysIdentically(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        String[] scripts = {
            "local i = ... error(i.name:rep(10))",
            "local i = ... return {value = 'v', [i.name] = 1}",
            "local i = ... return {value = {[i.name] = print}}",
            "local i = ...\nreturn {",
            "local i = ... local t = setmetatable({}, {__name = i.name}) t()",
        };
        for (String detail : List.of("location", "none", "full")) {
            ContractRunner r = runner("error_detail: " + detail, "audit: [arguments, results]");
            Path file = dir.resolve(detail + ".jsonl");
            try (ContractLog log = ContractLog.append(file)) {
                for (String s : scripts) {
                    log.run(r, List.of("test"), "job.lua", s.getBytes(StandardCharsets.UTF_8), IN.getBytes(StandardCharsets.UTF_8),
                            ContractRunner.Settings.DEFAULT);
                }
            }
            for (String line : Files.readAllLines(file)) {
                if (line.contains("\"contract_outcome\"") && !detail.equals("full")) {
                    assertFalse(line.contains(SECRET), line);
                }
            }
            List<ContractReplay.Block> blocks = ContractReplay.replay(file, names -> host.registry(), LuaVM.create());
            assertEquals(scripts.length, blocks.size());
            for (ContractReplay.Block b : blocks) assertTrue(b.identical(), detail + ": " + b.problem() + "\n" + b.expected() + "\n" + b.got());
        }
    }

    @Test
    void replayCatchesAnEditedMessage(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("run.jsonl");
        try (ContractLog log = ContractLog.append(file)) {
            log.run(runner(), List.of("test"), "job.lua", "local i = ...\nerror(i.name)".getBytes(StandardCharsets.UTF_8),
                    IN.getBytes(StandardCharsets.UTF_8), ContractRunner.Settings.DEFAULT);
        }
        String text = Files.readString(file);
        assertTrue(text.contains("job.lua:2: error (message withheld)"), text);
        String edited = text.replace("job.lua:2: error (message withheld)", "job.lua:1: error (message withheld)");
        Files.writeString(file, edited);
        // the log's seals see the edit: the whole log is refused, naming the line
        dev.luavm.audit.jsonl.AuditLogException refused = org.junit.jupiter.api.Assertions.assertThrows(
                dev.luavm.audit.jsonl.AuditLogException.class, () -> ContractReplay.replay(file, names -> host.registry(), LuaVM.create()));
        assertTrue(refused.getMessage().contains("the seal does not match its line"), refused.getMessage());
        // rewritten consistently (an unkeyed chain anyone can recompute), the replay still sees it
        Files.writeString(file, Rechain.of(edited));
        ContractReplay.Block b = ContractReplay.replay(file, names -> host.registry(), LuaVM.create()).get(0);
        assertFalse(b.identical());
    }

    @Test
    void theRunsOwnEndIsTheOnlyPlaceTheFullErrorStays() {
        Outcome o = run(runner(), "local i = ... error(i.name)");
        int withSecret = 0;
        for (AuditEvent e : o.audit()) if (e.toString().contains(SECRET)) withSecret++;
        assertEquals(1, withSecret, o.audit().toString());   // RunEnded's error: the operator's record
        assertNoSecret(o);
    }
}
