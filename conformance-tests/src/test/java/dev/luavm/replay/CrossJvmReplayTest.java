package dev.luavm.replay;

import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9 part 4, "done when": a script and its recording replayed in three fresh JVMs give
 * byte-identical output, results and gas, for scripts that print tables, iterate tables keyed by
 * tables, sort 10,000 keys with many duplicates, read the clock and draw random numbers (and call
 * host functions whose answers differ on every live run). Each JVM is a child process.
 */
class CrossJvmReplayTest {
    static final String[][] SCRIPTS = {
            {"print_tables.lua", String.join("\n",
                    "local a, b = {}, {}",
                    "print(a, b, {}, print, function() end, coroutine.create(print))",
                    "print(tostring(a) == tostring(a), tostring(a) ~= tostring(b))",
                    "return tostring(setmetatable({}, {__name = 'Invoice'}))")},
            {"table_keys.lua", String.join("\n",
                    "local t, fs, order = {}, {}, {}",
                    "for i = 1, 200 do t[{}] = i; fs[function() return i end] = i end",
                    "t[print] = 'print'; t[coroutine.create(print)] = 'co'",
                    "for k, v in pairs(t) do order[#order + 1] = tostring(v) end",
                    "for f, v in pairs(fs) do order[#order + 1] = v end",
                    "print(table.concat(order, ' '))",
                    "return #order")},
            {"sort_duplicates.lua", String.join("\n",
                    "local keys, strs = {}, {}",
                    "for i = 1, 10000 do keys[i] = math.random(1, 25); strs[i] = 'k' .. math.random(1, 40) end",
                    "local calls = 0",
                    "table.sort(keys)",
                    "table.sort(strs, function(x, y) calls = calls + 1; return x > y end)",
                    "local worst = {}",
                    "for i = 1, 10000 do worst[i] = (i % 2 == 0) and i or 10001 - i end",
                    "table.sort(worst, function(x, y) calls = calls + 1; return x < y end)",
                    "print(keys[1], keys[5000], keys[10000], strs[1], strs[10000], worst[1], worst[10000], calls)",
                    "return calls")},
            {"clock.lua", String.join("\n",
                    "local t0, c0 = os.time(), os.clock()",
                    "local x = 0",
                    "for i = 1, 200000 do x = x + i end",
                    "print(os.time(), os.date('%Y-%m-%d %H:%M:%S'), os.date('!%c'), os.clock(), os.clock() - c0, os.time() - t0)",
                    "return os.time()")},
            {"random.lua", String.join("\n",
                    "local r = {}",
                    "for i = 1, 20 do r[i] = math.random(1000) end",
                    "print(table.concat(r, ' '), math.random())",
                    "local p = host.price('apple')",
                    "local ok, err = pcall(host.fail)",
                    "print(p.item, p.amount, p.currency, ok, err)",
                    "math.randomseed(7) print(math.random(100))",
                    "return p.amount + math.random(10)")},
    };

    @TempDir
    Path dir;

    @Test
    void threeFreshJvmsReplayEveryRecordingIdentically() throws Exception {
        for (String[] s : SCRIPTS) {
            Path script = dir.resolve(s[0]);
            Files.writeString(script, s[1]);
            Path log = dir.resolve(s[0] + ".jsonl");
            String recorded = child("record", script.toString(), log.toString());
            String recordedOutput = field(recorded, "output");
            List<AuditEvent> events = JsonLinesAuditLog.read(log);
            RunEnded end = (RunEnded) events.get(events.size() - 1);
            List<String> replays = new ArrayList<>();
            for (int i = 0; i < 3; i++) replays.add(child("replay", log.toString()));
            System.out.println(s[0] + ": recorded output:\n" + new String(Base64.getDecoder().decode(recordedOutput),
                    StandardCharsets.UTF_8) + "  replay report:\n" + replays.get(0));
            assertEquals(replays.get(0), replays.get(1), s[0] + ": replays 1 and 2 differ");
            assertEquals(replays.get(0), replays.get(2), s[0] + ": replays 1 and 3 differ");
            String r = replays.get(0);
            assertTrue(r.contains("replay=identical"), s[0] + ": " + r);
            assertEquals(recordedOutput, field(r, "output"), s[0] + ": output");
            assertTrue(r.contains("gas=" + end.usage().gas() + " "), s[0] + ": gas " + end.usage().gas() + " vs " + r);
            assertTrue(r.contains("result=" + end.resultDigest()), s[0] + ": results");
            assertTrue(r.contains("outcome=" + end.outcome() + " error=" + end.error() + " "), s[0] + ": outcome");
        }
    }

    @Test
    void aChangedScriptDivergesAtTheRightEventInAFreshJvm() throws Exception {
        Path script = dir.resolve("random.lua");
        Files.writeString(script, SCRIPTS[4][1]);
        Path log = dir.resolve("random.jsonl");
        child("record", script.toString(), log.toString());
        // a changed script replayed from the same log: host call #1 gets another argument
        Recording rec = JsonLinesAuditLog.recording(log);
        ReplayResult res = Replayer.builder(dev.luavm.LuaVM.builder().build(), rec)
                .source(1, SCRIPTS[4][1].replace("host.price('apple')", "host.price('pear')")).build().replay();
        JsonLinesAuditLog.Log read = JsonLinesAuditLog.readLog(log, null);
        List<AuditEvent> events = read.events();
        long callLine = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof dev.luavm.audit.HostCallEvent h && h.seq() == 1) callLine = read.line(i);
        }
        System.out.println(res);
        assertEquals(callLine, res.divergence().event(), res::toString);
        assertEquals("host call #1 host.price: args", res.divergence().what());
        assertEquals("[apple]", res.divergence().expected());
        assertEquals("[pear]", res.divergence().got());
    }

    @Test
    void identityHashesAreNotObservableAcrossJvms() throws Exception {
        Path script = dir.resolve("ids.lua");
        Files.writeString(script, String.join("\n",
                "print({}, {}, {}, print, function() end, coroutine.create(print))",
                "local t, order = {}, {}",
                "for i = 1, 100 do t[{}] = i; t[function() end] = -i; t[coroutine.create(print)] = i * 1000 end",
                "for k, v in pairs(t) do order[#order + 1] = tostring(k):sub(1, 5) .. v end",
                "print(table.concat(order, ' '))",
                "local s = {} for k in pairs(t) do s[#s + 1] = k end",
                "print(s[1], s[2], s[300])"));
        String a = child("run", script.toString(), "99");
        String b = child("run", script.toString(), "99");
        assertEquals(a, b, "two JVMs printed different ids or orders");
        String text = new String(Base64.getDecoder().decode(field(a, "output")), StandardCharsets.UTF_8);
        System.out.println(text);
        assertTrue(text.startsWith("table: 0x00000001\ttable: 0x00000002\ttable: 0x00000003\tfunction: 0x"), text);
        // a different seed changes nothing here: ids and orders never came from randomness
        assertEquals(field(a, "output"), field(child("run", script.toString(), "5"), "output"));
        assertNotEquals("", text);
    }

    static String field(String report, String name) {
        for (String line : report.split("\n")) if (line.startsWith(name + "=")) return line.substring(name.length() + 1);
        throw new AssertionError("no " + name + " in " + report);
    }

    /** Runs {@link ReplayChild} in a fresh JVM; returns its stdout. */
    static String child(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add(ReplayChild.class.getName());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
        assertEquals(0, p.exitValue(), "child failed: " + String.join(" ", args));
        return new String(out, StandardCharsets.UTF_8);
    }

    static String pathSeparator() {
        return File.pathSeparator;
    }
}
