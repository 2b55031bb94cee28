package dev.luavm.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 item 2 from a reviewer's chair: {@code luavm --audit} writes a sealed log, and
 * {@code luavm replay} says so when any line of it was truncated, deleted, moved or edited (exit 1,
 * naming the line), replays it identically when it is whole (exit 0), runs it under its own
 * ceiling (exit 4, naming the ceiling), and reads a keyed log only with its key.
 */
@Timeout(300)
class ReplayAttackTest {
    static final String SCRIPT = String.join("\n",
            "local line = io.read('l')",
            "local t = {} for i = 1, 5 do t[i] = os.clock() end",
            "print(x, line, os.time() > 0, t[5] >= t[1], math.random(1, 100))",
            "return 'done'");

    @TempDir
    Path dir;
    Path script;

    @BeforeEach
    void setUp() throws IOException {
        script = dir.resolve("s.lua");
        Files.writeString(script, SCRIPT);
    }

    private Path record(String name, String... extra) {
        Path log = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("-e", "x = 41 + 1", "--audit", log.toString()));
        args.addAll(Arrays.asList(extra));
        args.add(script.toString());
        MainTest.Outcome o = luavm("hello\n", false, args.toArray(String[]::new));
        assertEquals(0, o.status(), o.err());
        return log;
    }

    private Path write(String name, List<String> lines) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
        return p;
    }

    private static void unusable(Path log, String what, String... replayArgs) {
        List<String> args = new ArrayList<>(List.of("replay", log.toString()));
        args.addAll(Arrays.asList(replayArgs));
        MainTest.Outcome o = luavm(args.toArray(String[]::new));
        assertEquals(1, o.status(), what + ": " + o.err());
        assertTrue(o.err().startsWith("luavm replay: cannot replay " + log + ": "), what + ": " + o.err());
        assertTrue(o.err().contains("line ") || o.err().contains("the log is empty"), what + ": " + o.err());
        assertEquals("", o.out(), what + ": nothing of a refused log runs");
    }

    @Test
    void aWholeLogReplaysAndEveryTruncationDeletionSwapOrDuplicateIsRefused() throws IOException {
        Path log = record("run.jsonl");
        MainTest.Outcome ok = luavm("replay", log.toString());
        assertEquals(0, ok.status(), ok.err());
        assertEquals("42\thello\ttrue\ttrue\t", ok.out().substring(0, ok.out().lastIndexOf('\t') + 1));
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertTrue(lines.size() > 12, "two runs with their recordings: " + lines.size() + " lines");
        for (int k = 0; k < lines.size(); k++) {
            unusable(write("cut.jsonl", lines.subList(0, k)), "cut after line " + k);
            List<String> deleted = new ArrayList<>(lines);
            deleted.remove(k);
            unusable(write("deleted.jsonl", deleted), "line " + (k + 1) + " deleted");
            List<String> dup = new ArrayList<>(lines);
            dup.add(k, lines.get(k));
            unusable(write("dup.jsonl", dup), "line " + (k + 1) + " duplicated");
            if (k + 1 < lines.size()) {
                List<String> swapped = new ArrayList<>(lines);
                swapped.set(k, lines.get(k + 1));
                swapped.set(k + 1, lines.get(k));
                unusable(write("swapped.jsonl", swapped), "lines " + (k + 1) + ", " + (k + 2) + " swapped");
            }
            List<String> junk = new ArrayList<>(lines);
            junk.add(k, "{not json");
            unusable(write("junk.jsonl", junk), "junk at line " + (k + 1));
        }
        MainTest.Outcome cut = luavm("replay", write("cut.jsonl", lines.subList(0, lines.size() - 1)).toString());
        assertEquals("luavm replay: cannot replay " + dir.resolve("cut.jsonl") + ": line " + (lines.size() - 1) + ": the log is cut after line "
                + (lines.size() - 1) + ": it has no log_closed (the log was truncated, or its writer did not finish)\n", cut.err());
    }

    @Test
    void editedFieldsAreRefusedAndConsistentRewritesStillFail() throws IOException {
        Path log = record("run.jsonl");
        String text = Files.readString(log);
        List<String> edits = List.of(
                text.replaceFirst("\"timeoutMillis\":\\d+", "\"timeoutMillis\":86400000"),
                text.replaceFirst("\"bundle io\",", ""),
                text.replaceFirst("(\"usage\":\\{\"gas\":)\\d+", "$11"),
                text.replaceFirst("\"outputSha256\":\"[0-9a-f]{64}\"", "\"outputSha256\":\"" + "1".repeat(64) + "\""),
                text.replaceFirst("\"kind\":\"STDIN\",\"seq\":1,\"values\":\\[\\{\"bytes\":\"[^\"]*\"\\}\\]",
                        "\"kind\":\"STDIN\",\"seq\":1,\"values\":[{\"bytes\":\"Ynll\"}]"),
                text.replaceFirst("\"randomSeed\":-?\\d+", "\"randomSeed\":1"));
        for (int i = 0; i < edits.size(); i++) {
            assertTrue(!edits.get(i).equals(text), "edit " + i + " applies");
            Path edited = dir.resolve("edited.jsonl");
            Files.writeString(edited, edits.get(i));
            unusable(edited, "edit " + i);
            Files.writeString(edited, Rechain.of(edits.get(i)));
            MainTest.Outcome o = luavm("replay", edited.toString());
            assertTrue(o.status() == 1 || o.status() == 4, "edit " + i + " rechained: " + o.status() + " " + o.err());
        }
        Files.writeString(dir.resolve("day.jsonl"), Rechain.of(edits.get(0)));
        MainTest.Outcome day = luavm("replay", dir.resolve("day.jsonl").toString());
        assertEquals(1, day.status());
        assertTrue(day.err().contains("seal does not allow the limits its run_started"), day.err());
    }

    @Test
    void aKeyedLogIsReadOnlyWithItsKey() throws IOException {
        Path hexKey = dir.resolve("key.hex");
        Files.writeString(hexKey, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
        Path rawKey = dir.resolve("key.raw");
        Files.write(rawKey, "a raw key of at least thirty-two bytes".getBytes(StandardCharsets.US_ASCII));
        Path log = record("keyed.jsonl", "--audit-key", hexKey.toString());
        assertTrue(Files.readString(log).contains("\"hmac\":\""));
        assertEquals(0, luavm("replay", log.toString(), "--audit-key", hexKey.toString()).status());
        MainTest.Outcome noKey = luavm("replay", log.toString());
        assertEquals(1, noKey.status());
        assertTrue(noKey.err().contains("line 1: this log is keyed"), noKey.err());
        assertTrue(noKey.err().contains("--audit-key"), noKey.err());
        MainTest.Outcome wrong = luavm("replay", log.toString(), "--audit-key", rawKey.toString());
        assertEquals(1, wrong.status());
        assertTrue(wrong.err().contains("sealed with another key"), wrong.err());
        // anyone can rechain the edited log, but not under the key: whoever holds the key sees it
        String edited = Files.readString(log).replaceFirst("\"randomSeed\":-?\\d+", "\"randomSeed\":1");
        Files.writeString(log, Rechain.of(edited));
        MainTest.Outcome rewritten = luavm("replay", log.toString(), "--audit-key", hexKey.toString());
        assertEquals(1, rewritten.status());
        assertTrue(rewritten.err().contains("this log is not keyed"), rewritten.err());
        // a raw key works as well; short keys and odd hex are refused before anything is written
        Path raw = record("raw.jsonl", "--audit-key", rawKey.toString());
        assertEquals(0, luavm("replay", raw.toString(), "--audit-key", rawKey.toString()).status());
        Path shortKey = dir.resolve("short.key");
        Files.writeString(shortKey, "only thirty-one bytes long here");
        MainTest.Outcome s = luavm("--audit", dir.resolve("x.jsonl").toString(), "--audit-key", shortKey.toString(), "-e", "print(1)");
        assertEquals(1, s.status());
        assertTrue(s.err().contains("at least 32 bytes"), s.err());
        Files.writeString(shortKey, "0011223344556677889900112233445566778899001122334455667788990011223"); // 67 hex digits
        assertTrue(luavm("--audit", dir.resolve("x.jsonl").toString(), "--audit-key", shortKey.toString(), "-e", "print(1)")
                .err().contains("odd number of hex digits"));
        assertEquals(1, luavm("--audit-key", hexKey.toString(), "-e", "print(1)").status()); // a key without a log
    }

    @Test
    void theReplayRunsUnderItsOwnCeiling() throws IOException {
        Path loop = dir.resolve("loop.lua");
        Files.writeString(loop, "local s = 0 for i = 1, 3000000 do s = s + i end print(s)");
        Path log = dir.resolve("loop.jsonl");
        assertEquals(0, luavm("--audit", log.toString(), loop.toString()).status());
        assertEquals(0, luavm("replay", log.toString()).status());
        MainTest.Outcome gas = luavm("replay", log.toString(), "--max-gas", "100000");
        assertEquals(4, gas.status(), gas.err());
        assertTrue(gas.err().startsWith("luavm replay: stopped by the replay's ceiling (gas: 100000)"), gas.err());
        assertTrue(gas.err().contains("--max-gas"), gas.err());
        assertEquals("", gas.out());
        MainTest.Outcome time = luavm("replay", log.toString(), "--timeout", "1ms");
        assertEquals(4, time.status(), time.err());
        assertTrue(time.err().contains("stopped by the replay's ceiling (time: "), time.err());
        assertTrue(time.err().contains("--timeout"), time.err());
        Path big = dir.resolve("big.lua");
        Files.writeString(big, "local t = {} for i = 1, 200000 do t[i] = i end print(#t)");
        Path bigLog = dir.resolve("big.jsonl");
        assertEquals(0, luavm("--audit", bigLog.toString(), big.toString()).status());
        MainTest.Outcome mem = luavm("replay", bigLog.toString(), "--max-memory", "256k");
        assertEquals(4, mem.status(), mem.err());
        assertTrue(mem.err().contains("(memory: 262144 bytes)"), mem.err());
        assertEquals(1, luavm("replay", log.toString(), "--max-gas", "0").status());
        assertEquals(1, luavm("replay", log.toString(), "--timeout", "soon").status());
    }

    @Test
    void theAuditBoundEndsARunWithExitThreeAndReplays() throws IOException {
        Path clock = dir.resolve("clock.lua");
        Files.writeString(clock, "while true do print(os.clock()) end");
        Path log = dir.resolve("bounded.jsonl");
        MainTest.Outcome o = luavm("--audit", log.toString(), "--audit-events", "6", clock.toString());
        assertEquals(3, o.status(), o.err());
        assertEquals("luavm: audit limit exceeded\n", o.err());
        MainTest.Outcome r = luavm("replay", log.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(o.out(), r.out());
        assertEquals(1, luavm("--audit-events", "0", "-e", "print(1)").status());
    }

    @Test
    void aContractLogCutOrEditedIsRefusedToo() throws IOException {
        Path fixture = InvoiceContractFixturesTest.EXAMPLE.resolve("fixtures/forbidden-call/audit.jsonl");
        List<String> lines = Files.readAllLines(fixture, StandardCharsets.UTF_8);
        for (int k = 1; k < lines.size(); k++) {
            MainTest.Outcome o = luavm("replay", write("cut.jsonl", lines.subList(0, k)).toString());
            assertEquals(1, o.status(), "cut after line " + k + ": " + o.err());
            assertTrue(o.err().contains("line "), o.err());
        }
    }
}
