package dev.luavm.contract;

import dev.luavm.LuaVM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

/** A contract log of every outcome category, replayed with and without the host's registry; tampering is caught. */
class ContractReplayTest {
    @TempDir
    Path dir;

    private final TestHost host = new TestHost();
    private static final String IN = "{\"name\": \"acme\"}";

    private Outcome logRun(Path log, ContractRunner runner, String script, String input) throws IOException {
        try (ContractLog l = ContractLog.append(log)) {
            return l.run(runner, List.of("test"), "job.lua", script.getBytes(StandardCharsets.UTF_8),
                    input.getBytes(StandardCharsets.UTF_8), ContractRunner.Settings.DEFAULT);
        }
    }

    private ContractRunner runner(String... replacements) {
        return Contract.parse("c.yaml", TestHost.contract(replacements)).bind(host.registry());
    }

    @Test
    void everyCategoryReplaysToTheSameOutcomeLine() throws IOException {
        Path log = dir.resolve("all.jsonl");
        ContractRunner r = runner("functions: [lookup, {name: note, max_calls: 1}, {name: fetch, safety: forbidden}]",
                "limits: {gas: 200000, memory: 4MiB, time: 10s, output: 1KiB, depth: 100}");
        List<Category> categories = List.of(
                logRun(log, r, "local input = ... print('hi') return {value = lookup(input.name)}", IN).category(),
                logRun(log, r, "return {value = 'x'}", "{\"n\": 1}").category(),
                logRun(log, r, "return {value = 'x'}", "{not json").category(),
                logRun(log, r, "pcall(fetch, 'u') return {value = 'x'}", IN).category(),
                logRun(log, r, "note('a') pcall(note, 'b') return {value = 'x'}", IN).category(),
                logRun(log, r, "while true do end", IN).category(),
                logRun(log, r, "local input = ... return input.name.x.y", IN).category(),
                logRun(log, r, "return {", IN).category(),
                logRun(log, r, "return {value = 7}", IN).category(),
                logRun(log, r, "return {value = print}", IN).category());
        assertEquals(List.of(Category.OK, Category.MALFORMED_INPUT, Category.MALFORMED_INPUT, Category.BLOCKED_CAPABILITY,
                Category.BLOCKED_CAPABILITY, Category.LIMIT, Category.LOGIC_ERROR, Category.LOGIC_ERROR, Category.BAD_OUTPUT,
                Category.BAD_OUTPUT),
                categories);
        List<ContractReplay.Block> withHost = ContractReplay.replay(log, names -> host.registry(), LuaVM.create());
        List<ContractReplay.Block> withoutHost = ContractReplay.replay(log, null, LuaVM.create());
        assertEquals(categories.size(), withHost.size());
        for (List<ContractReplay.Block> blocks : List.of(withHost, withoutHost)) {
            for (ContractReplay.Block b : blocks) {
                assertTrue(b.identical(), b.line() + ": " + b.problem() + "\n" + b.expected() + "\n" + b.got());
                assertEquals(b.expected(), b.got());
            }
        }
        assertTrue(withoutHost.get(0).notes().contains("no host registry at hand: host calls answered by stubs"));
        assertTrue(ContractReplay.isContractLog(log));
    }

    @Test
    void aChangedContractTextIsCaught() throws IOException {
        Path log = dir.resolve("c.jsonl");
        logRun(log, runner(), "local input = ... return {value = lookup(input.name)}", IN);
        String text = Files.readString(log);
        String edited = text.replace("required: [value]", "required: [valu]");
        Files.writeString(log, edited);
        dev.luavm.audit.jsonl.AuditLogException e = assertThrows(dev.luavm.audit.jsonl.AuditLogException.class,
                () -> ContractReplay.replay(log, names -> host.registry(), LuaVM.create()));
        assertEquals(3, e.line(), e.getMessage()); // line 2 was edited: line 3's link to it breaks
        Files.writeString(log, Rechain.of(edited)); // rewritten consistently, as anyone can without a key
        ContractReplay.Block b = ContractReplay.replay(log, names -> host.registry(), LuaVM.create()).get(0);
        assertFalse(b.identical());
        assertEquals("the contract text does not match its recorded SHA-256", b.problem());
    }

    @Test
    void aRunCutShortIsReportedNotReplayed() throws IOException {
        Path log = dir.resolve("cut.jsonl");
        logRun(log, runner(), "local input = ... return {value = lookup(input.name)}", IN);
        List<String> lines = Files.readAllLines(log);
        Files.write(log, lines.subList(0, lines.size() - 2));   // the process died before the outcome line
        dev.luavm.audit.jsonl.AuditLogException e = assertThrows(dev.luavm.audit.jsonl.AuditLogException.class,
                () -> ContractReplay.replay(log, null, LuaVM.create()));
        assertTrue(e.getMessage().contains("it has no log_closed"), e.getMessage());
        Files.writeString(log, Rechain.of(String.join("\n", lines.subList(0, lines.size() - 2))));
        ContractReplay.Block b = ContractReplay.replay(log, null, LuaVM.create()).get(0);
        assertTrue(b.problem().contains("no outcome line"), b.problem());
        assertNull(b.got());
    }

    @Test
    void aLogWithoutKeptResultsSaysSo() throws IOException {
        Path log = dir.resolve("nothing-kept.jsonl");
        ContractRunner r = runner("audit: []");
        logRun(log, r, "local input = ... return {value = lookup(input.name)}", IN);
        ContractReplay.Block b = ContractReplay.replay(log, names -> host.registry(), LuaVM.create()).get(0);
        // the host's answers were logged as "<not kept>", so a replay feeds the script those instead
        assertTrue(!b.identical() || !b.notes().isEmpty(), String.valueOf(b));
        assertTrue(ContractSummary.derived(r.contract(), host.registry())
                .contains("runs cannot be replayed from the log (host-call results are not kept)"));
    }
}
