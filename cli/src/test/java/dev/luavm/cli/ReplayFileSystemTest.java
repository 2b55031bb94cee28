package dev.luavm.cli;

import dev.luavm.audit.Digests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issues 23 and 25: a run that used the file system ({@code --mount}) and was logged with
 * {@code --audit}. Its log lists its mounts (sealed with its capabilities); {@code luavm replay}
 * refuses it with exit 1 and a message saying why, unless {@code --mount} gives the same mounts
 * again; a log edited to hide its mounts is refused.
 */
@Timeout(120)
class ReplayFileSystemTest {
    static final String SCRIPT = String.join("\n",
            "local f = assert(io.open('/data/in.txt'))",
            "local s = f:read('a') f:close()",
            "local g = assert(io.open('/out/up.txt', 'w')) g:write(s:upper()) g:close()",
            "local t = assert(io.open('/tmp/t', 'w')) t:write('x') t:close() os.remove('/tmp/t')",
            "print(s, #s)");
    static final String MOUNTS = "/data read-only; /out read-write, quota 1 MiB; /tmp memory, quota 64 KiB";

    @TempDir
    Path dir;
    Path data;
    Path out;
    Path script;

    @BeforeEach
    void setUp() throws IOException {
        data = Files.createDirectory(dir.resolve("data"));
        out = Files.createDirectory(dir.resolve("out"));
        Files.writeString(data.resolve("in.txt"), "hello file");
        script = dir.resolve("s.lua");
        Files.writeString(script, SCRIPT);
    }

    private String[] mounts(Path dataDir, Path outDir) {
        return new String[] {"--mount", "/data=" + dataDir + ":ro", "--mount", "/out=" + outDir + ":rw:1m",
                "--mount", "/tmp=mem:64k"};
    }

    private Path record(String name, String... extra) {
        Path log = dir.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of(mounts(data, out)));
        args.addAll(List.of(extra));
        args.addAll(List.of("--audit", log.toString(), script.toString()));
        MainTest.Outcome run = luavm(args.toArray(String[]::new));
        assertEquals(0, run.status(), run.err());
        assertEquals("hello file\t10\n", run.out());
        return log;
    }

    private static MainTest.Outcome replay(Path log, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("replay", log.toString()));
        args.addAll(List.of(extra));
        return luavm(args.toArray(String[]::new));
    }

    @Test
    void theLogListsTheMountsWithoutHostPaths() throws IOException {
        String text = Files.readString(record("run.jsonl"));
        assertTrue(text.contains("\"filesystem /data read-only\",\"filesystem /out read-write, quota 1 MiB\","
                + "\"filesystem /tmp memory, quota 64 KiB\""), text);
        Matcher caps = Pattern.compile("\"capabilities\":\\[[^\\]]*\\]").matcher(text);
        assertTrue(caps.find());
        assertFalse(caps.group().contains(dir.toString()), caps.group()); // (the script's arg table names them: it saw them)
        assertFalse(text.contains("hello file"), "the bytes read are not in the log");
        assertTrue(text.contains("\"function\":\"fs.write\""), text);
    }

    @Test
    void theWorkingDirectoryIsSealedAndReplayedWithTheMounts() throws IOException {
        // run from the cli module's directory, mounted (an overlay: nothing reaches the host)
        Path log = dir.resolve("cwd.jsonl");
        Path rel = dir.resolve("rel.lua");
        Files.writeString(rel, "local f = assert(io.open('note.txt', 'w')) f:write('n') f:close() print(#io.open('pom.xml'):read('a') > 0)");
        MainTest.Outcome run = luavm("--mount", "/w=.:overlay", "--audit", log.toString(), rel.toString());
        assertEquals(0, run.status(), run.err());
        assertEquals("true\n", run.out());
        String text = Files.readString(log);
        assertTrue(text.contains("\"filesystem /w overlay, quota unlimited\",\"filesystem working directory /w\""), text);
        assertTrue(text.contains("/w/note.txt"), "the event names the absolute VFS name: " + text);
        MainTest.Outcome same = replay(log, "--mount", "/w=.:overlay");
        assertEquals(0, same.status(), same.err());
        // the same mount point for a directory that does not hold the replay's working directory: not the run's
        MainTest.Outcome moved = replay(log, "--mount", "/w=" + data + ":overlay");
        assertEquals(1, moved.status(), moved.err());
        assertTrue(moved.err().contains("working directory"), moved.err());
        assertFalse(Files.exists(Path.of("note.txt")));
    }

    @Test
    void withoutItsMountsTheReplayIsRefusedBeforeAnythingRuns() throws IOException {
        MainTest.Outcome r = replay(record("run.jsonl"));
        assertEquals(1, r.status(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("cannot replay " + dir.resolve("run.jsonl") + ": the run used a file system (mounts "
                + MOUNTS + "): replay cannot reproduce its file reads"), r.err());
        assertTrue(r.err().contains("--mount"), r.err());
    }

    @Test
    void withTheSameMountsItReplaysAgainstTheFilesAsTheyAreNow() throws IOException {
        Path log = record("run.jsonl");
        Path copy = Files.createDirectory(dir.resolve("out-copy"));
        MainTest.Outcome r = replay(log, mounts(data, copy));
        assertEquals(0, r.status(), r.err());
        assertEquals("hello file\t10\n", r.out());
        assertEquals("HELLO FILE", Files.readString(copy.resolve("up.txt"))); // the replay writes where the run wrote
        // a file that changed since the run: the replay diverges where the script's output does
        Files.writeString(data.resolve("in.txt"), "hello, changed");
        MainTest.Outcome changed = replay(log, mounts(data, copy));
        assertEquals(ReplayCommand.DIVERGED, changed.status(), changed.err());
        assertTrue(changed.err().startsWith("luavm replay: divergence at line "), changed.err());
    }

    @Test
    void otherMountsThanTheRunsAreRefused() throws IOException {
        Path log = record("run.jsonl");
        MainTest.Outcome quota = replay(log, "--mount", "/data=" + data + ":ro", "--mount", "/out=" + out + ":rw:2m",
                "--mount", "/tmp=mem:64k");
        assertEquals(1, quota.status(), quota.err());
        assertTrue(quota.err().contains("the mounts given for the replay (/data read-only; /out read-write, quota 2 MiB; "
                + "/tmp memory, quota 64 KiB) are not the run's (" + MOUNTS + ")"), quota.err());
        MainTest.Outcome fewer = replay(log, "--mount", "/data=" + data + ":ro");
        assertEquals(1, fewer.status(), fewer.err());
        assertTrue(fewer.err().contains("are not the run's"), fewer.err());
        MainTest.Outcome bad = replay(log, "--mount", "/data=" + data);
        assertEquals(1, bad.status(), bad.err());
        assertTrue(bad.err().contains("the source needs a mode"), bad.err());
    }

    @Test
    void aRunWithoutMountsReplaysAsBeforeAndRefusesMountsGivenToIt() throws IOException {
        Path log = dir.resolve("plain.jsonl");
        MainTest.Outcome run = luavm("--audit", log.toString(), "-e", "print(io.open, os.time())");
        assertEquals(0, run.status(), run.err());
        assertFalse(Files.readString(log).contains("filesystem "));
        MainTest.Outcome r = replay(log);
        assertEquals(0, r.status(), r.err());
        assertEquals(run.out(), r.out());
        MainTest.Outcome mounted = replay(log, "--mount", "/data=" + data + ":ro");
        assertEquals(1, mounted.status(), mounted.err());
        assertTrue(mounted.err().contains("the run used no file system, but mounts were given for its replay (/data read-only)"),
                mounted.err());
    }

    @Test
    void aLogEditedToHideItsMountsIsRefused() throws IOException {
        Path log = record("run.jsonl");
        String hidden = Files.readString(log).replace(",\"filesystem /data read-only\",\"filesystem /out read-write, quota 1 MiB\","
                + "\"filesystem /tmp memory, quota 64 KiB\"", "");
        assertFalse(hidden.contains("filesystem "));
        Files.writeString(log, hidden);
        MainTest.Outcome edited = replay(log);
        assertEquals(1, edited.status(), edited.err()); // the chain
        assertTrue(edited.err().contains("line 3: "), edited.err());
        // rechained, as anyone can without a key: the run's seal still records the capabilities with the mounts
        Files.writeString(log, Rechain.of(hidden));
        MainTest.Outcome rechained = replay(log);
        assertEquals(1, rechained.status(), rechained.err());
        assertTrue(rechained.err().contains("does not allow the capabilities its run_started"), rechained.err());
        // rewritten consistently, seal included: the script no longer finds its files and the replay diverges
        Files.writeString(log, Rechain.of(withCapabilitiesDigest(hidden)));
        MainTest.Outcome rewritten = replay(log);
        assertEquals(ReplayCommand.DIVERGED, rewritten.status(), rewritten.err());
        assertEquals("", rewritten.out());
    }

    @Test
    void aKeyedLogRewrittenToHideItsMountsIsRefusedUnderItsKey() throws IOException {
        Path key = dir.resolve("audit.key");
        Files.writeString(key, "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n");
        Path log = record("keyed.jsonl", "--audit-key", key.toString());
        Path copy = Files.createDirectory(dir.resolve("out-copy"));
        MainTest.Outcome unmounted = replay(log, "--audit-key", key.toString());
        assertEquals(1, unmounted.status(), unmounted.err()); // refused without its mounts...
        assertTrue(unmounted.err().contains("the run used a file system (mounts " + MOUNTS + ")"), unmounted.err());
        MainTest.Outcome whole = replay(log, concat(mounts(data, copy), "--audit-key", key.toString()));
        assertEquals(0, whole.status(), whole.err()); // ...and replayed with them
        String hidden = Files.readString(log).replaceAll(",\"filesystem [^\"]*\"", "");
        Files.writeString(log, Rechain.of(withCapabilitiesDigest(hidden)));
        MainTest.Outcome rewritten = replay(log, "--audit-key", key.toString());
        assertEquals(1, rewritten.status(), rewritten.err());
        assertTrue(rewritten.err().contains("this log is not keyed"), rewritten.err());
    }

    @Test
    void aContractRunWithAFileSystemIsRefusedByReplay() throws IOException {
        Path example = Path.of("..", "examples", "invoice-contract");
        String contract = Files.readString(example.resolve("contract.yaml"))
                .replaceFirst("(?m)^libraries: .*$", "libraries: [base, string, table, math, io]")
                .replaceFirst("(?m)^forbidden: .*$", "forbidden: [network, environment, process, cross-tenant, writes:fs]")
                + "\nfilesystem:\n  mounts:\n    - { path: /data, mode: read-only }\n";
        Path c = dir.resolve("fs.yaml");
        Files.writeString(c, contract);
        Path s = dir.resolve("fs.lua");
        Files.writeString(s, "local r = io.open('/data/in.txt'):read('a')\n"
                + "return {normalized_vendor = r, expense_category = 'software', confidence = 1, review_note = ''}");
        Path log = dir.resolve("contract.jsonl");
        MainTest.Outcome o = luavm("run", "--contract", c.toString(), "--input", example.resolve("input.json").toString(),
                "--mount", "/data=" + data + ":ro", "--audit", log.toString(), s.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("hello file"), o.out());
        MainTest.Outcome r = replay(log);
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("the run used a file system (mounts /data read-only): replay cannot reproduce its file reads"),
                r.err());
        MainTest.Outcome mounted = replay(log, "--mount", "/data=" + data + ":ro");
        assertEquals(1, mounted.status(), mounted.err());
        assertTrue(mounted.err().contains("--mount does not apply to a contract log"), mounted.err());
    }

    private static String[] concat(String[] a, String... b) {
        List<String> all = new java.util.ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }

    /** Sets each run_ended's capabilitiesSha256 to the digest of the (edited) capabilities its run_started lists. */
    private static String withCapabilitiesDigest(String log) {
        Matcher caps = Pattern.compile("\"capabilities\":\\[([^\\]]*)\\]").matcher(log);
        assertTrue(caps.find());
        List<String> lines = new java.util.ArrayList<>();
        Matcher item = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(caps.group(1));
        while (item.find()) lines.add(item.group(1));
        return log.replaceAll("\"capabilitiesSha256\":\"[0-9a-f]+\"", "\"capabilitiesSha256\":\"" + Digests.ofValues(lines) + "\"");
    }
}
