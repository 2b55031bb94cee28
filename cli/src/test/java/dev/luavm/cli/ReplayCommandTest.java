package dev.luavm.cli;

import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 5: {@code --audit}, {@code --seed} and {@code luavm replay}. */
@Timeout(120)
class ReplayCommandTest {
    static final String SCRIPT = String.join("\n",
            "local t = {}",
            "for i = 1, 50 do t[{}] = i end",
            "local s = {} for _, v in pairs(t) do s[#s + 1] = v end",
            "local l = {} for i = 1, 2000 do l[i] = math.random(1, 9) end table.sort(l)",
            "print({}, print, table.concat(s, ','), l[1000], math.random(), ...)",
            "print(os.time(), os.date('%c'), os.clock())");

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static RunEnded lastEnd(Path log) throws IOException {
        List<AuditEvent> events = JsonLinesAuditLog.read(log);
        return (RunEnded) events.get(events.size() - 1);
    }

    @Test
    void auditThenReplayPrintsTheSameOutputAndExitsZero() throws IOException {
        Path script = file("s.lua", SCRIPT);
        Path log = dir.resolve("run.jsonl");
        MainTest.Outcome run = luavm("-e", "x = 1", "--audit", log.toString(), script.toString(), "a", "b");
        assertEquals(0, run.status(), run.err());
        MainTest.Outcome replay = luavm("replay", log.toString());
        assertEquals(0, replay.status(), replay.err());
        assertEquals(run.out(), replay.out());
        assertEquals("", replay.err());
        assertTrue(run.out().contains("\ta\tb\n"), run.out());
    }

    @Test
    void aChangedScriptExitsFourWithTheDivergenceOnStderr() throws IOException {
        Path script = file("s.lua", SCRIPT);
        Path log = dir.resolve("run.jsonl");
        assertEquals(0, luavm("--audit", log.toString(), script.toString()).status());
        Path changed = file("changed.lua", SCRIPT.replace("math.random(1, 9)", "math.random(1, 8)"));
        MainTest.Outcome replay = luavm("replay", log.toString(), "--script", changed.toString());
        assertEquals(ReplayCommand.DIVERGED, replay.status());
        assertTrue(replay.err().startsWith("luavm replay: divergence at line "), replay.err());
        System.out.println(replay.err());
    }

    @Test
    void aTamperedLogDiverges() throws IOException {
        Path script = file("s.lua", "print(os.time() > 0) return 1");
        Path log = dir.resolve("run.jsonl");
        assertEquals(0, luavm("--audit", log.toString(), script.toString()).status());
        String text = Files.readString(log).replaceAll("\"gas\":(\\d+),\"memoryBytes\":(\\d+),\"peak", "\"gas\":1,\"memoryBytes\":$2,\"peak");
        Files.writeString(log, text);
        MainTest.Outcome replay = luavm("replay", log.toString());
        assertEquals(1, replay.status(), replay.err()); // the run's seal sees the edit
        assertTrue(replay.err().contains(": the seal does not match its line (the line was edited)"), replay.err());
        Files.writeString(log, Rechain.of(text)); // rewritten consistently, as anyone can without a key
        replay = luavm("replay", log.toString());
        assertEquals(4, replay.status(), replay.err());
        assertTrue(replay.err().contains("run_ended OK: gas): expected 1, got "), replay.err());
    }

    @Test
    void theSameSeedGivesTheSameBytesAndGas() throws IOException {
        Path script = file("s.lua", SCRIPT);
        Path log1 = dir.resolve("1.jsonl");
        Path log2 = dir.resolve("2.jsonl");
        MainTest.Outcome a = luavm("--seed", "42", "--audit", log1.toString(), script.toString());
        MainTest.Outcome b = luavm("--seed", "42", "--audit", log2.toString(), script.toString());
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertEquals(lastEnd(log1).usage().gas(), lastEnd(log2).usage().gas());
        assertTrue(a.out().contains("946684800\tSat Jan  1 00:00:00 2000\t"), a.out()); // virtual time
        MainTest.Outcome c = luavm("--seed", "43", script.toString());
        assertNotEquals(a.out(), c.out());
        assertEquals(0, luavm("replay", log1.toString()).status());
    }

    @Test
    void withoutSeedTheChosenSeedIsRecordedAndReplayed() throws IOException {
        Path script = file("s.lua", "print(math.random(1 << 40), os.clock() >= 0)");
        Path log = dir.resolve("r.jsonl");
        MainTest.Outcome run = luavm("--audit", log.toString(), script.toString());
        MainTest.Outcome replay = luavm("replay", log.toString());
        assertEquals(run.out(), replay.out());
        assertEquals(0, replay.status(), replay.err());
    }

    @Test
    void withoutFlagsTheSameScriptGivesTheSameBytesAndGasAndSeedRandomAsksForEntropy() throws IOException {
        // the clocks are the only real input: this script reads none of them
        Path script = file("s.lua", String.join("\n",
                "local t = {} for i = 1, 50 do t[{}] = i end",
                "local s = {} for _, v in pairs(t) do s[#s + 1] = v end",
                "local l, n = {}, 0 for i = 1, 5000 do l[i] = math.random(1, 1000000) end",
                "table.sort(l, function(a, b) n = n + 1 return a < b end)",
                "print({}, table.concat(s, ','), n, math.random(1 << 40))"));
        Path log1 = dir.resolve("d1.jsonl");
        Path log2 = dir.resolve("d2.jsonl");
        MainTest.Outcome a = luavm("--audit", log1.toString(), script.toString());
        MainTest.Outcome b = luavm("--audit", log2.toString(), script.toString());
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertEquals(lastEnd(log1).usage().gas(), lastEnd(log2).usage().gas());
        Path log3 = dir.resolve("r1.jsonl");
        MainTest.Outcome r1 = luavm("--seed", "random", "--audit", log3.toString(), script.toString());
        MainTest.Outcome r2 = luavm("--seed", " random ", script.toString());
        assertEquals(0, r1.status(), r1.err());
        assertNotEquals(r1.out(), r2.out()); // 40 random bits and a sort order: equal by chance once in 2^40
        assertEquals(0, luavm("replay", log3.toString()).status(), "the entropy seed is recorded");
        MainTest.Outcome bad = luavm("--seed", "randomly", "-e", "print(1)");
        assertEquals(1, bad.status());
        assertTrue(bad.err().contains("not a 64-bit integer or 'random': 'randomly'"), bad.err());
        assertTrue(luavm("--help").out().contains("--seed random"));
    }

    @Test
    void whatTheScriptReadFromStdinIsRecordedAndReplayed() throws IOException {
        Path script = file("s.lua", String.join("\n",
                "local n = io.read('n')",
                "local rest = {} for line in io.lines() do rest[#rest + 1] = line:upper() end",
                "print(n * 2, table.concat(rest, '+'), io.read('a') == '')"));
        Path log = dir.resolve("in.jsonl");
        MainTest.Outcome run = luavm("21\nalpha\nbeta\n", false, "--audit", log.toString(), script.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals("42\t+ALPHA+BETA\ttrue\n", run.out()); // as lua5.3: the first line is what follows the number
        MainTest.Outcome replay = luavm("different input that must not be read\n", false, "replay", log.toString());
        assertEquals(0, replay.status(), replay.err());
        assertEquals(run.out(), replay.out());
    }

    @Test
    void unreadableLogsExitOne() throws IOException {
        assertEquals(1, luavm("replay", dir.resolve("missing.jsonl").toString()).status());
        assertEquals(1, luavm("replay", file("bad.jsonl", "{not json\n").toString()).status());
        assertEquals(1, luavm("replay").status());
        assertTrue(luavm("--help").out().contains("luavm replay"));
        assertTrue(luavm("--help").out().contains("--seed N"));
    }
}
