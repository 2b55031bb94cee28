package dev.luavm.contract;

import dev.luavm.audit.Digests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The approved-version store: approve, revoke, order, damage, and a writer process killed mid-write. */
class ApprovedStoreTest {
    @TempDir
    Path dir;

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T10:00:00Z"), ZoneOffset.UTC);

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void approvalRecordsWhoWhenAndTheBytes() {
        ApprovedStore s = ApprovedStore.open(dir, CLOCK);
        ApprovedVersion v = s.approve(b("return 1"), "a.lua", "ann");
        assertEquals(Digests.sha256(b("return 1")), v.sha256());
        assertEquals("ann", v.approver());
        assertEquals(Instant.parse("2026-11-23T10:00:00Z"), v.approvedAt());
        assertFalse(v.revoked());
        assertArrayEquals(b("return 1"), s.script(v.sha256()));
        assertEquals(v, s.approve(b("return 1"), "again.lua", "bob"));   // idempotent: the first record stands
        assertEquals(List.of(v), ApprovedStore.open(dir).versions());     // durable: a new instance reads it
        assertThrows(IllegalArgumentException.class, () -> s.approve(b("x"), "x.lua", " "));
    }

    @Test
    void currentAndPreviousFollowApprovalOrderSkippingRevoked() {
        ApprovedStore s = ApprovedStore.open(dir, CLOCK);
        ApprovedVersion v1 = s.approve(b("v1"), "n.lua", "ann");
        ApprovedVersion v2 = s.approve(b("v2"), "n.lua", "ann");
        ApprovedVersion v3 = s.approve(b("v3"), "n.lua", "ann");
        assertEquals(v3, s.current().orElseThrow());
        assertEquals(v2, s.previous(v3.sha256()).orElseThrow());
        assertEquals(v1, s.previous(v2.sha256()).orElseThrow());
        assertTrue(s.previous(v1.sha256()).isEmpty());
        assertEquals(v3, s.previous(Digests.sha256(b("never approved"))).orElseThrow());
        s.revoke(v2.sha256(), "carol", "wrong categories");
        assertEquals(v1, s.previous(v3.sha256()).orElseThrow());
        s.revoke(v3.sha256(), "carol", "bad");
        assertEquals(v1, s.current().orElseThrow());
    }

    @Test
    void revokeIsRecordedAndFinal() {
        ApprovedStore s = ApprovedStore.open(dir, CLOCK);
        ApprovedVersion v = s.approve(b("v1"), "n.lua", "ann");
        ApprovedVersion r = s.revoke(v.sha256(), "carol", "leaks memos");
        assertTrue(r.revoked());
        assertEquals("carol", r.revokedBy());
        assertEquals("leaks memos", r.revokeReason());
        assertFalse(s.stands(v.sha256()));
        assertTrue(ApprovedStore.open(dir).find(v.sha256()).orElseThrow().revoked());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.approve(b("v1"), "n.lua", "ann"));
        assertTrue(e.getMessage().contains("revoked by carol"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.revoke("0".repeat(64), "carol", "?"));
        assertTrue(s.current().isEmpty());
    }

    @Test
    void aDamagedIndexIsReportedNeverReplaced() throws IOException {
        ApprovedStore.open(dir).approve(b("v1"), "n.lua", "ann");
        Files.writeString(dir.resolve(ApprovedStore.INDEX), "{\"format\": 1, \"versions\": [");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> ApprovedStore.open(dir));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void leftoverTemporaryFilesAreIgnoredAndRemoved() throws IOException {
        ApprovedStore s = ApprovedStore.open(dir);
        ApprovedVersion v = s.approve(b("v1"), "n.lua", "ann");
        Path junk = dir.resolve(ApprovedStore.INDEX + ".tmp-123");
        Files.writeString(junk, "{\"format\": 1, \"versions\": [half");
        assertEquals(List.of(v), ApprovedStore.open(dir).versions());
        assertFalse(Files.exists(junk));
    }

    @Test
    void noApprovedVersionIsLostWhenTheWriterIsKilledMidWrite() throws Exception {
        Random random = new Random(42);
        Map<String, Boolean> reported = new LinkedHashMap<>();   // sha -> revoked, as the writer reported them
        int kills = 6;
        int midWrite = 0;   // kills that left a temporary file: the writer died between writing and renaming
        for (int round = 0; round < kills; round++) {
            Path out = dir.resolveSibling(dir.getFileName() + "-writer-" + round + ".out");
            Process p = new ProcessBuilder(javaCommand(), "-cp", childClassPath(),
                    StoreWriterMain.class.getName(), dir.toString(), "r" + round)
                    .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            int target = 3 + random.nextInt(12);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (completeLines(out).size() < target) {
                if (!p.isAlive()) throw new AssertionError("the writer ended early (exit " + p.exitValue() + ")");
                if (System.nanoTime() > deadline) throw new AssertionError("the writer made no progress");
                Thread.sleep(2);
            }
            // the writer is in its next approvals right now: kill it without warning
            Thread.sleep(random.nextInt(20));
            p.destroyForcibly();
            p.waitFor();
            for (String line : completeLines(out)) {   // every approval it reported before it died
                String[] parts = line.split(" ");
                reported.put(parts[1], parts.length > 2);
            }
            Files.delete(out);
            if (tempFiles(dir) + tempFiles(dir.resolve("scripts")) > 0) midWrite++;
            ApprovedStore s = ApprovedStore.open(dir);   // what a restarted process finds
            List<ApprovedVersion> versions = s.versions();
            Map<String, ApprovedVersion> bySha = new LinkedHashMap<>();
            for (ApprovedVersion v : versions) bySha.put(v.sha256(), v);
            for (Map.Entry<String, Boolean> e : reported.entrySet()) {
                ApprovedVersion v = bySha.get(e.getKey());
                assertTrue(v != null, "round " + round + ": approved version " + e.getKey() + " lost");
                if (e.getValue()) assertTrue(v.revoked(), "round " + round + ": a revocation was lost");
                assertEquals(e.getKey(), Digests.sha256(s.script(e.getKey())));
            }
            for (ApprovedVersion v : versions) assertEquals(v.sha256(), Digests.sha256(s.script(v.sha256())));
            try (var files = Files.list(dir)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".tmp-")), "a temporary file is left");
            }
        }
        System.out.println("store after " + kills + " killed writers: " + reported.size() + " reported approvals, all present; "
                + midWrite + " kills landed mid-write (a temporary file was left)");
        assertTrue(reported.size() >= kills * 3);
    }

    private static long tempFiles(Path d) throws IOException {
        if (!Files.isDirectory(d)) return 0;
        try (var files = Files.list(d)) {
            return files.filter(f -> f.getFileName().toString().contains(".tmp-")).count();
        }
    }

    /** The lines the writer finished (a line cut by the kill has no newline and does not count). */
    private static List<String> completeLines(Path out) throws IOException {
        if (!Files.exists(out)) return List.of();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        return end < 0 ? List.of() : List.of(text.substring(0, end).split("\n"));
    }

    private static String javaCommand() {
        return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }


    /** The test's class path, with the module path when surefire runs the module's tests on it (the child runs on the class path). */
    private static String childClassPath() {
        String mp = System.getProperty("jdk.module.path");
        String cp = System.getProperty("java.class.path");
        return mp == null || mp.isEmpty() ? cp : mp + java.io.File.pathSeparator + cp;
    }
}
