package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Writes JSON objects as a hash-chained, sealed JSON Lines log (the format of docs/AUDIT.md):
 * each line carries {@code "prev"}, the SHA-256 of the line before it; a sealing line ends with
 * {@code "seal"}, the SHA-256 of the line itself without its seal, and, with an {@link AuditKey},
 * {@code "hmac"}, the HMAC-SHA256 of the same bytes. The first line of what one writer writes is
 * {@code log_started} (format, whether the log is keyed, the key's id), the last is
 * {@code log_closed} (how many lines the writer wrote, sealed), written by {@link #close()}.
 *
 * <p>Appending to a file that already holds a log ({@link #append}) chains the new
 * {@code log_started} to the file's last line, so a reader also sees a writer's lines deleted
 * whole. Lines are flushed as written. Thread-safe.
 *
 * <p>Without a key the chain catches damage and naive edits, but anyone can recompute it; only a
 * keyed log resists a consistent rewrite.
 */
public final class ChainedJsonLines implements Closeable {
    /** The version of the format written, in {@code log_started}. */
    public static final int FORMAT = 2;
    static final String STARTED = "log_started";
    static final String CLOSED = "log_closed";
    static final String SEAL = "seal";
    static final String HMAC = "hmac";
    static final String PREV = "prev";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** the tail of a file read to find its last line when appending */

    private final ObjectMapper mapper = new ObjectMapper();
    private final OutputStream out;
    private final AuditKey key;
    private String prev;
    private boolean started;
    private boolean closed;
    private long lines;

    /** Writes a new log to {@code out} (which this writer closes), sealed with {@code key} (null: unkeyed). */
    public ChainedJsonLines(OutputStream out, AuditKey key) {
        this(out, key, null);
    }

    private ChainedJsonLines(OutputStream out, AuditKey key, String prev) {
        this.out = Objects.requireNonNull(out, "out");
        this.key = key;
        this.prev = prev;
    }

    /** Writes a new log to {@code file}, replacing it. */
    public static ChainedJsonLines create(Path file, AuditKey key) throws IOException {
        return new ChainedJsonLines(Files.newOutputStream(file), key);
    }

    /**
     * Appends to {@code file}, creating it when absent; the first line written is chained to the
     * file's last line.
     */
    public static ChainedJsonLines append(Path file, AuditKey key) throws IOException {
        String last = Files.exists(file) ? lastLineHash(file) : null;
        return new ChainedJsonLines(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE), key, last);
    }

    /** SHA-256 of the file's last line (without its newline), or null for an empty file. */
    private static String lastLineHash(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long size = f.length();
            if (size == 0) return null;
            f.seek(size - 1);
            long end = f.read() == '\n' ? size - 1 : size;
            byte[] buf = new byte[8192];
            long start = 0;
            long pos = end;
            search:
            while (pos > 0) { // back from the end, a block at a time, to the newline before the last line
                int n = (int) Math.min(buf.length, pos);
                f.seek(pos - n);
                f.readFully(buf, 0, n);
                for (int i = n - 1; i >= 0; i--) {
                    if (buf[i] == '\n') {
                        start = pos - n + i + 1;
                        break search;
                    }
                }
                pos -= n;
            }
            MessageDigest d = sha256();
            f.seek(start);
            for (long left = end - start; left > 0; ) {
                int r = f.read(buf, 0, (int) Math.min(buf.length, left));
                if (r < 0) break;
                d.update(buf, 0, r);
                left -= r;
            }
            return HexFormat.of().formatHex(d.digest());
        }
    }

    /** Writes {@code line} (an object with a {@code "type"}) as the next link of the chain. */
    public synchronized void write(ObjectNode line) throws IOException {
        emit(line, false);
    }

    /** Writes {@code line} as the next link, sealed: everything written so far is vouched for. */
    public synchronized void seal(ObjectNode line) throws IOException {
        emit(line, true);
    }

    private void emit(ObjectNode line, boolean seal) throws IOException {
        if (closed) throw new IOException("audit log closed");
        start();
        emitLine(line, seal);
    }

    /** The writer's first line, once. */
    private void start() throws IOException {
        if (started) return;
        started = true;
        ObjectNode head = NODES.objectNode();
        head.put("type", STARTED);
        head.put("format", FORMAT);
        head.put("keyed", key != null);
        head.put("keyId", key == null ? null : key.id());
        emitLine(head, false);
    }

    private void emitLine(ObjectNode line, boolean seal) throws IOException {
        ObjectNode o = NODES.objectNode();
        JsonNode type = line.get("type");
        if (type == null || !type.isTextual()) throw new IllegalArgumentException("a log line needs a text \"type\"");
        o.set("type", type);
        o.put(PREV, prev);
        for (Iterator<Map.Entry<String, JsonNode>> it = line.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (name.equals("type")) continue;
            if (name.equals(PREV) || name.equals(SEAL) || name.equals(HMAC)) {
                throw new IllegalArgumentException("\"" + name + "\" is the chain's own field");
            }
            o.set(name, e.getValue());
        }
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new IOException(e);
        }
        if (seal) bytes = sealed(bytes, key);
        lines++;
        out.write(bytes);
        out.write('\n');
        out.flush();
        prev = hex(bytes);
    }

    /** {@code body} (a JSON object's bytes) with its seal, and its HMAC under {@code key}, as last fields. */
    static byte[] sealed(byte[] body, AuditKey key) {
        StringBuilder tail = new StringBuilder(",\"" + SEAL + "\":\"").append(hex(body)).append('"');
        if (key != null) tail.append(",\"" + HMAC + "\":\"").append(HexFormat.of().formatHex(key.hmac(body))).append('"');
        tail.append('}');
        byte[] t = tail.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(body, body.length - 1 + t.length); // body without its closing brace
        System.arraycopy(t, 0, out, body.length - 1, t.length);
        return out;
    }

    /** Writes {@code log_closed}, sealed, and closes the stream (once; later calls do nothing). */
    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        try {
            start();
            ObjectNode end = NODES.objectNode();
            end.put("type", CLOSED);
            end.put("lines", lines + 1); // every line this writer wrote, this one included
            emitLine(end, true);
        } finally {
            closed = true;
            out.close();
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** Hex SHA-256 of {@code bytes}. */
    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }
}
