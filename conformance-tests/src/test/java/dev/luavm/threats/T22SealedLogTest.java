package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.jsonl.AuditKey;
import dev.luavm.audit.jsonl.AuditLogException;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;
import dev.luavm.audit.jsonl.VerifiedLines;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T22, records that prove something: a sealed audit log (issue 23 item 2), attacked line by line.
 * A log cut anywhere, with a line deleted, moved, duplicated, edited or foreign, is refused with
 * the line named; an unkeyed log rewritten consistently (which anyone can do) still fails where
 * its seals or its replay no longer agree, and a keyed one cannot be rewritten at all; the reader
 * stays bounded whatever the bytes.
 */
class T22SealedLogTest {
    private static final LuaVM VM = ThreatSupport.VM;
    private static final AuditKey KEY = AuditKey.of("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
    private static final AuditKey OTHER = AuditKey.of("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII));
    private static final String RUN = "local a = kv.get('a') local t = {} for i = 1, 3 do t[i] = os.clock() end"
            + " print(a, os.time(), t[3] > t[1], io.read('l')) return a";

    private static Capabilities caps() {
        return Capabilities.standard().toBuilder().bundles(List.of("io"))
                .declare("kv.get", "Read a key").safe().param("key", "string", "the key").grant(c -> "v:" + c.stringArg(0))
                .build();
    }

    /** Two recorded runs of one sandbox (host calls, both clocks, input, output), sealed with {@code key}. */
    static String record(AuditKey key, String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AtomicLong cpu = new AtomicLong();
        try (JsonLinesAuditSink sink = new JsonLinesAuditSink(out, key);
             Sandbox sb = VM.sandbox().name(name).capabilities(caps()).limits(Limits.defaults().withTimeout(Duration.ofSeconds(5)))
                     .audit(sink).record(true).randomSeed(7).clock(new T23AuditLogBoundTest.Ticking())
                     .cpuClock(() -> cpu.addAndGet(1_000)).input(new ByteArrayInputStream("one\ntwo\n".getBytes(StandardCharsets.UTF_8)))
                     .build()) {
            sb.setGlobal("g", 1L);
            sb.eval("first.lua", RUN);
            sb.eval("second.lua", RUN.replace("'a'", "'b'"));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static List<String> lines(String log) {
        return new ArrayList<>(Arrays.asList(log.split("\n")));
    }

    static String join(List<String> lines) {
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    /** refused (with where), diverged (with where), or identical. */
    static String outcome(String log, AuditKey key) {
        return outcome(log, key, VerifiedLines.Bounds.defaults());
    }

    static String outcome(String log, AuditKey key, VerifiedLines.Bounds bounds) {
        Recording rec;
        try {
            rec = JsonLinesAuditLog.readLog(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)), key, bounds).recording();
        } catch (IOException | IllegalArgumentException e) {
            return "refused: " + e.getMessage();
        }
        ReplayResult r = Replayer.builder(VM, rec).build().replay();
        return r.identical() ? "identical" : "diverged: " + r;
    }

    private static void refused(String log, AuditKey key, String what) {
        String o = outcome(log, key);
        assertTrue(o.startsWith("refused: line ") || o.startsWith("refused: the log is empty"), what + ": " + o);
    }

    private static void notIdentical(String log, AuditKey key, String what) {
        String o = outcome(log, key);
        assertTrue(!o.equals("identical"), what + ": " + o);
    }

    @Test
    void theLogAsWrittenReplaysIdentically() throws IOException {
        assertEquals("identical", outcome(record(null, "agent"), null));
        assertEquals("identical", outcome(record(KEY, "agent"), KEY));
    }

    @Test
    void aLogCutAtAnyLineOrInsideOneIsRefusedNamingWhere() throws IOException {
        for (AuditKey key : new AuditKey[] {null, KEY}) {
            List<String> all = lines(record(key, "agent"));
            for (int k = 0; k < all.size(); k++) {
                refused(join(all.subList(0, k)), key, "cut after line " + k);
                String half = join(all.subList(0, k)) + all.get(k).substring(0, all.get(k).length() / 2);
                refused(half, key, "cut inside line " + (k + 1));
            }
            String cut = outcome(join(all.subList(0, all.size() - 1)), key);
            assertTrue(cut.contains("it has no log_closed"), cut);
        }
    }

    @Test
    void aLineDeletedMovedDuplicatedOrForeignIsRefused() throws IOException {
        List<String> all = lines(record(null, "agent"));
        for (int k = 0; k < all.size(); k++) {
            List<String> deleted = new ArrayList<>(all);
            deleted.remove(k);
            refused(join(deleted), null, "line " + (k + 1) + " deleted");
            List<String> dup = new ArrayList<>(all);
            dup.add(k, all.get(k));
            refused(join(dup), null, "line " + (k + 1) + " duplicated");
            if (k + 1 < all.size()) {
                List<String> swapped = new ArrayList<>(all);
                swapped.set(k, all.get(k + 1));
                swapped.set(k + 1, all.get(k));
                refused(join(swapped), null, "lines " + (k + 1) + " and " + (k + 2) + " swapped");
            }
            for (String foreign : List.of("not json", "", "{\"type\":\"run_started\"}", "[1,2]", "{\"type\":\"x\",\"prev\":null}")) {
                List<String> inserted = new ArrayList<>(all);
                inserted.add(k, foreign);
                refused(join(inserted), null, "'" + foreign + "' inserted at line " + (k + 1));
            }
        }
        // the message names the line that no longer links
        List<String> swapped = new ArrayList<>(all);
        swapped.set(3, all.get(4));
        swapped.set(4, all.get(3));
        assertEquals("refused: line 4: the hash chain is broken: \"prev\" is not the SHA-256 of line 3 (a line before was edited,"
                + " deleted, inserted or moved)", outcome(join(swapped), null));
    }

    /** Each edit of a field, made naively and then made consistent by recomputing the whole chain. */
    static final List<UnaryOperator<String>> EDITS = List.of(
            s -> s.replaceFirst("\"gas\":100000000,", "\"gas\":100,"),                       // stricter limits
            s -> s.replaceFirst("\"timeoutMillis\":5000,", "\"timeoutMillis\":86400000,"),  // a day to spin
            s -> s.replaceFirst("\"bundle os\",", ""),                                         // fewer bundles
            s -> s.replaceFirst("\"kind\":\"HOST_RESULTS\",\"seq\":1,\"values\":\\[\"v:a\"\\]",
                    "\"kind\":\"HOST_RESULTS\",\"seq\":1,\"values\":[\"v:z\"]"),                // a host's answer
            s -> s.replaceFirst("\"clock\":\"WALL\",\"reads\":\\[1\\],\"values\":\\[(\\d+)\\]",
                    "\"clock\":\"WALL\",\"reads\":[1],\"values\":[1]"),                         // a clock reading
            s -> s.replaceFirst("\"outputSha256\":\"[0-9a-f]{64}\"", "\"outputSha256\":\"" + "0".repeat(64) + "\""),
            s -> s.replaceFirst("(\"usage\":\\{\"gas\":)\\d+", "$11"),                        // the gas used
            s -> s.replaceFirst("\"events\":\\d+", "\"events\":3"),                           // the seal's count
            s -> s.replaceFirst("\"hostCalls\":1,", "\"hostCalls\":0,"),
            s -> s.replaceFirst("\"outcome\":\"OK\"", "\"outcome\":\"ERROR\""),
            s -> s.replaceFirst("\"randomSeed\":7,", "\"randomSeed\":8,"),
            s -> s.replaceFirst("\"sandbox\":\"agent\",\"run\":2,\"kind\":\"eval\"", "\"sandbox\":\"agent\",\"run\":3,\"kind\":\"eval\""));

    @Test
    void anEditedFieldIsRefusedAndARechainedOneStillFails() throws IOException {
        String log = record(null, "agent");
        String keyed = record(KEY, "agent");
        for (int i = 0; i < EDITS.size(); i++) {
            String edited = EDITS.get(i).apply(log);
            assertTrue(!edited.equals(log), "edit " + i + " applies");
            refused(edited, null, "edit " + i);
            // anyone can recompute an unkeyed chain: then the seals or the replay must still disagree
            notIdentical(Rechain.of(edited), null, "edit " + i + ", rechained");
            // a keyed log: the edit cannot be made consistent without the key
            String keyedEdit = EDITS.get(i).apply(keyed);
            refused(keyedEdit, KEY, "keyed, edit " + i);
            refused(Rechain.of(keyedEdit), KEY, "keyed, edit " + i + ", rechained without the key");
            refused(Rechain.with(keyedEdit, OTHER), KEY, "keyed, edit " + i + ", rechained with another key");
            refused(Rechain.forging(keyedEdit, KEY.id(), OTHER), KEY, "keyed, edit " + i + ", rechained with a forged key id");
        }
        assertTrue(outcome(Rechain.of(EDITS.get(1).apply(log)), null).contains("does not allow the limits its run_started"));
        assertTrue(outcome(Rechain.of(EDITS.get(2).apply(log)), null).contains("does not allow the capabilities"));
    }

    @Test
    void aKeyedLogNeedsItsKeyAndNoOther() throws IOException {
        String keyed = record(KEY, "agent");
        String o = outcome(keyed, null);
        assertTrue(o.startsWith("refused: line 1: this log is keyed"), o);
        o = outcome(keyed, OTHER);
        assertTrue(o.contains("sealed with another key"), o);
        o = outcome(record(null, "agent"), KEY);
        assertTrue(o.contains("this log is not keyed"), o);
        // the seal's HMAC covers the chain: the keyed log stripped to an unkeyed one is refused by whoever holds the key
        o = outcome(Rechain.of(keyed), KEY);
        assertTrue(o.contains("this log is not keyed"), o);
        assertThrows(IllegalArgumentException.class, () -> AuditKey.of(new byte[31]));
    }

    @Test
    void whatOnlyAKeyPreventsAConsistentRewriteOfAnUnkeyedLogCanDo() throws IOException {
        // documented: without a key anyone can recompute the chain, so a log cut at a run's end and
        // chained afresh is a valid log of fewer runs; a keyed log refuses the same rewrite
        List<String> all = lines(record(null, "agent"));
        int firstEnd = 0;
        while (!all.get(firstEnd).startsWith("{\"type\":\"run_ended\"")) firstEnd++;
        assertEquals("identical", outcome(Rechain.of(join(all.subList(0, firstEnd + 1))), null));
        List<String> keyed = lines(record(KEY, "agent"));
        refused(Rechain.of(join(keyed.subList(0, firstEnd + 1))), KEY, "keyed, cut at a run's end and rechained");
    }

    @Test
    void runsDeletedReorderedDuplicatedOrInterleavedAreRefusedEvenRechained() throws IOException {
        List<String> all = lines(record(null, "agent"));
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) if (all.get(i).startsWith("{\"type\":\"run_started\"")) starts.add(i);
        int second = starts.get(1);
        List<String> run1 = all.subList(starts.get(0), second);
        List<String> run2 = all.subList(second, all.size() - 1);
        List<String> head = all.subList(0, 1);
        // run 1 deleted: a gap in the run numbers
        String o = outcome(Rechain.of(join(concat(head, run2))), null);
        assertTrue(o.contains("run 1 is missing"), o);
        // runs swapped
        o = outcome(Rechain.of(join(concat(head, run2, run1))), null);
        assertTrue(o.startsWith("refused: "), o);
        // a run duplicated
        assertTrue(outcome(Rechain.of(join(concat(head, run1, run1, run2))), null).startsWith("refused: "));
        // the seal (run_ended) duplicated
        List<String> dupSeal = new ArrayList<>(concat(head, run1, run2));
        int end1 = starts.get(1) - 1;
        dupSeal.add(end1 + 1, all.get(end1));
        o = outcome(Rechain.of(join(dupSeal)), null);
        assertTrue(o.contains("after its run_ended"), o);
        // a run's seal removed: the run is cut
        List<String> noSeal = new ArrayList<>(concat(head, run1, run2));
        noSeal.remove(end1);
        o = outcome(Rechain.of(join(noSeal)), null);
        assertTrue(o.contains("starts while run 1") && o.contains("has not ended"), o);
        // an event moved into the other run
        List<String> moved = new ArrayList<>(concat(head, run1, run2));
        String call = moved.remove(starts.get(0) + 5);
        moved.add(second + 3, call);
        assertTrue(outcome(Rechain.of(join(moved)), null).startsWith("refused: "));
        // two recordings of the same sandbox interleaved line by line
        List<String> other = lines(record(null, "agent"));
        List<String> mixed = new ArrayList<>();
        for (int i = 1; i < all.size() - 1; i++) {
            mixed.add(all.get(i));
            mixed.add(other.get(i));
        }
        refused(join(mixed), null, "two logs interleaved");
        o = outcome(Rechain.of(join(mixed)), null);
        assertTrue(o.startsWith("refused: "), o);
    }

    @Test
    void aCallbackIntoLuaLogsItsInnerCallFirstAndTheLogIsStillUsable() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Capabilities caps = caps().toBuilder()
                .declare("each", "Calls back").safe().param("fn", "function", "the callback")
                .grant(c -> c.callLua((dev.luavm.LuaHandle) c.arg(0), "x"))
                .build();
        try (JsonLinesAuditSink sink = new JsonLinesAuditSink(out);
             Sandbox sb = VM.sandbox().name("agent").capabilities(caps).audit(sink).record(true).build()) {
            sb.eval("return each(function(k) return kv.get(k) end)");
        }
        String log = out.toString(StandardCharsets.UTF_8);
        assertTrue(log.indexOf("\"function\":\"kv.get\"") < log.indexOf("\"function\":\"each\""), "the inner call ends first");
        // verified and accepted; the replay answers each call from the log but makes no callback, so it diverges
        String o = outcome(log, null);
        assertTrue(o.startsWith("diverged: "), o);
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> out = new ArrayList<>();
        for (List<String> p : parts) out.addAll(p);
        return out;
    }

    @Test
    void theReaderIsBoundedWhateverTheBytes() throws IOException {
        String log = record(null, "agent");
        String o = outcome(log, null, new VerifiedLines.Bounds(200, 1 << 20));
        assertTrue(o.startsWith("refused: line 2: longer than the reader's limit of 200 bytes"), o);
        o = outcome(log, null, new VerifiedLines.Bounds(1 << 20, 3000));
        assertTrue(o.contains("passes the reader's limit of 3000 bytes"), o);
        // a line nested far deeper than any writer nests, a huge number, duplicate fields: refused, never a stack overflow
        List<String> all = lines(log);
        String deep = "{\"type\":\"recorded\",\"prev\":null,\"values\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        for (String bad : List.of(deep,
                "{\"type\":\"log_started\",\"prev\":null,\"prev\":null,\"format\":2,\"keyed\":false,\"keyId\":null}",
                "{\"type\":\"log_started\",\"prev\":null,\"format\":2,\"keyed\":false,\"keyId\":null} {}",
                "{\"type\":\"log_started\",\"prev\":null,\"format\":3,\"keyed\":false,\"keyId\":null}")) {
            List<String> l = new ArrayList<>(all);
            l.set(0, bad);
            o = outcome(join(l), null);
            assertTrue(o.startsWith("refused: line 1: "), o.length() > 300 ? o.substring(0, 300) : o);
        }
        String huge = Rechain.of(log.replaceFirst("\"randomSeed\":7,", "\"randomSeed\":123456789012345678901234567890,"));
        o = outcome(huge, null);
        assertTrue(o.startsWith("refused: line "), o);
        assertThrows(AuditLogException.class, () -> JsonLinesAuditLog.readLog(new ByteArrayInputStream(new byte[0]), null,
                VerifiedLines.Bounds.defaults()));
    }
}
