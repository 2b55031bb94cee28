package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chain across writers of one file: appending links each writer's log to the one before. */
class ChainedJsonLinesTest {
    private static final AuditKey KEY = AuditKey.of(new byte[32]);

    private static ObjectNode line(String type, int n) {
        return JsonNodeFactory.instance.objectNode().put("type", type).put("n", n);
    }

    private static void writer(Path file, AuditKey key, int n, boolean close) throws IOException {
        ChainedJsonLines w = ChainedJsonLines.append(file, key);
        w.write(line("note", n));
        w.seal(line("sealed", n));
        if (close) w.close();
    }

    private static List<Long> read(Path file, AuditKey key) throws IOException {
        List<Long> numbers = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            VerifiedLines.read(in, key, Set.of("sealed"), VerifiedLines.Bounds.defaults(), (number, o) -> numbers.add(number));
        }
        return numbers;
    }

    @Test
    void writersAppendingToOneFileChainTheirLogs(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("a.jsonl");
        for (int i = 0; i < 3; i++) writer(file, null, i, true);
        assertEquals(List.of(2L, 3L, 6L, 7L, 10L, 11L), read(file, null));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(12, lines.size());
        assertTrue(lines.get(4).startsWith("{\"type\":\"log_started\",\"prev\":\""), "the second writer links to the first: " + lines.get(4));
        // a writer's whole log deleted from the middle breaks the chain
        List<String> cut = new ArrayList<>(lines.subList(0, 4));
        cut.addAll(lines.subList(8, 12));
        Files.writeString(file, String.join("\n", cut) + "\n");
        AuditLogException e = assertThrows(AuditLogException.class, () -> read(file, null));
        assertEquals(5, e.line());
    }

    @Test
    void aWriterThatNeverClosedLeavesItsLogCutEvenWhenAnotherAppends(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("a.jsonl");
        writer(file, null, 1, false); // the process died: no log_closed
        AuditLogException e = assertThrows(AuditLogException.class, () -> read(file, null));
        assertTrue(e.getMessage().contains("it has no log_closed"), e.getMessage());
        writer(file, null, 2, true);
        e = assertThrows(AuditLogException.class, () -> read(file, null));
        assertEquals(4, e.line());
        assertTrue(e.getMessage().contains("a new log starts inside the log of line 1, which has no log_closed"), e.getMessage());
    }

    @Test
    void everyWriterOfAKeyedFileMustBeKeyed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("a.jsonl");
        writer(file, KEY, 1, true);
        assertEquals(List.of(2L, 3L), read(file, KEY));
        writer(file, null, 2, true);
        AuditLogException e = assertThrows(AuditLogException.class, () -> read(file, KEY));
        assertEquals(5, e.line());
        assertTrue(e.getMessage().contains("this log is not keyed"), e.getMessage());
        e = assertThrows(AuditLogException.class, () -> read(file, null));
        assertEquals("line 1: this log is keyed (key id " + KEY.id() + "): it is read only with its key", e.getMessage());
    }

    @Test
    void theChainsOwnFieldsCannotBeWrittenByItsUsers() throws IOException {
        ChainedJsonLines w = new ChainedJsonLines(java.io.OutputStream.nullOutputStream(), null);
        assertThrows(IllegalArgumentException.class, () -> w.write(line("x", 1).put("seal", "0")));
        assertThrows(IllegalArgumentException.class, () -> w.write(line("x", 1).put("prev", "0")));
        assertThrows(IllegalArgumentException.class, () -> w.write(JsonNodeFactory.instance.objectNode()));
        w.close();
        assertThrows(IOException.class, () -> w.write(line("x", 1)));
    }

    @Test
    void keyFilesAreHexOrRaw(@TempDir Path dir) throws IOException {
        Path hex = dir.resolve("k.hex");
        Files.writeString(hex, "  " + "ab".repeat(32) + "\r\n");
        Path raw = dir.resolve("k.raw");
        Files.write(raw, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
        assertEquals(AuditKey.of(java.util.HexFormat.of().parseHex("ab".repeat(32))).id(), AuditKey.read(hex).id());
        assertEquals(16, AuditKey.read(raw).id().length());
        Files.writeString(hex, "ab".repeat(31));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AuditKey.read(hex));
        assertTrue(e.getMessage().contains("62 hex digits: at least 64"), e.getMessage());
        Files.write(raw, new byte[31]);
        assertThrows(IllegalArgumentException.class, () -> AuditKey.read(raw));
        Files.write(raw, new byte[AuditKey.MAX_FILE_BYTES + 1]);
        assertThrows(IllegalArgumentException.class, () -> AuditKey.read(raw));
        Files.writeString(hex, "ab".repeat(32));
        assertEquals("AuditKey[id=" + AuditKey.read(hex).id() + "]", AuditKey.read(hex).toString()); // the key's bytes never show
    }
}
