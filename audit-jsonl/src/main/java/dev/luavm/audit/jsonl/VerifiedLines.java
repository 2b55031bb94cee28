package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a log written by {@link ChainedJsonLines} and verifies it before anything in it is used:
 * a bounded reader (line and file sizes checked as the bytes arrive, JSON depth bounded,
 * duplicate fields refused) that checks every link of the hash chain, every seal and, with a
 * key, every seal's HMAC, and that the log ends with the {@code log_closed} its writer wrote.
 * Each line that passes is handed on with its line number; the first that does not ends the
 * reading with {@link AuditLogException} naming it. Nothing read is trusted before its line's
 * successor (or, for the last line, its own seal) vouches for it: a consumer that acts on lines
 * as they come must not act on what a later failure refuses (the readers here collect, then use).
 */
public final class VerifiedLines {
    /**
     * How much a reader takes in at most.
     *
     * @param maxLineBytes the longest line
     * @param maxBytes     the whole log
     */
    public record Bounds(long maxLineBytes, long maxBytes) {
        public Bounds {
            if (maxLineBytes <= 0 || maxBytes <= 0) throw new IllegalArgumentException("bounds must be positive");
        }

        /**
         * A quarter of the JVM's maximum heap, at most 1 GiB, for the whole log; lines up to
         * that or 256 MiB, whichever is smaller.
         */
        public static Bounds defaults() {
            long total = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4);
            return new Bounds(Math.min(256L << 20, total), total);
        }
    }

    /** What receives each verified line. */
    @FunctionalInterface
    public interface Consumer {
        /** Line {@code number} (from 1), a JSON object whose {@code "type"} is not the chain's own. */
        void line(long number, ObjectNode line) throws IOException;
    }

    /** JSON values nest at most this deep (a Lua table 1000 levels deep, in the typed encoding). */
    static final int MAX_DEPTH = 4000;
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16}");
    private static final byte[] SEAL_MARK = (",\"" + ChainedJsonLines.SEAL + "\":\"").getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HMAC_MARK = ("\",\"" + ChainedJsonLines.HMAC + "\":\"").getBytes(StandardCharsets.US_ASCII);

    private VerifiedLines() {}

    /** A mapper that refuses what a writer never writes: duplicate fields, trailing tokens, deep nesting, huge strings. */
    static ObjectMapper strictMapper(long maxStringBytes) {
        JsonMapper m = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        m.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH)
                .maxStringLength((int) Math.min(Integer.MAX_VALUE, maxStringBytes))
                .build());
        return m;
    }

    /**
     * Reads and verifies {@code in}, handing each line to {@code consumer}.
     *
     * @param key    the key the log must be sealed with, or null for an unkeyed log
     * @param sealed the line types that must carry a seal (besides {@code log_closed})
     * @throws AuditLogException the log cannot be used: where and why
     * @throws IOException       the stream failed
     */
    public static void read(InputStream in, AuditKey key, Set<String> sealed, Bounds bounds, Consumer consumer)
            throws IOException {
        ObjectMapper mapper = strictMapper(bounds.maxLineBytes());
        Lines lines = new Lines(in, bounds.maxLineBytes());
        long number = 0;
        long total = 0;
        String prev = null;
        boolean open = false;
        long openedAt = 0;
        long linesInLog = 0;
        long closedAt = 0;
        boolean keyed = false;
        byte[] line;
        while ((line = lines.next(number + 1)) != null) {
            number++;
            total += line.length + 1;
            if (total > bounds.maxBytes()) throw new AuditLogException(number, "the log passes the reader's limit of " + bounds.maxBytes() + " bytes");
            if (!lines.ended) throw new AuditLogException(number, "the last line is cut: it does not end with a newline");
            int n = line.length;
            if (n == 0) throw new AuditLogException(number, "a blank line (the writer writes none)");
            ObjectNode o;
            try {
                JsonNode node = mapper.readTree(line);
                if (!(node instanceof ObjectNode obj)) throw new AuditLogException(number, "not a JSON object");
                o = obj;
            } catch (AuditLogException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                throw new AuditLogException(number, "not JSON (" + firstLine(e.getMessage()) + ")", e);
            }
            JsonNode t = o.get("type");
            if (t == null || !t.isTextual()) throw new AuditLogException(number, "no \"type\"");
            String type = t.textValue();
            // the link to the line before
            JsonNode p = o.get(ChainedJsonLines.PREV);
            if (p == null) throw new AuditLogException(number, "no \"prev\": not a line of a chained log (format " + ChainedJsonLines.FORMAT + ")");
            if (number == 1) {
                if (!p.isNull()) throw new AuditLogException(number, "the log's first line links to a line before it: the log's beginning was cut");
            } else if (!p.isTextual() || !p.textValue().equals(prev)) {
                throw new AuditLogException(number, "the hash chain is broken: \"prev\" is not the SHA-256 of line " + (number - 1)
                        + " (a line before was edited, deleted, inserted or moved)");
            }
            // the chain's own lines
            if (type.equals(ChainedJsonLines.STARTED)) {
                if (open) {
                    throw new AuditLogException(number, "a new log starts inside the log of line " + openedAt
                            + ", which has no log_closed: that log is cut");
                }
                JsonNode format = o.get("format");
                if (format == null || !format.isInt() || format.intValue() != ChainedJsonLines.FORMAT) {
                    throw new AuditLogException(number, "format " + format + ": this reader reads format " + ChainedJsonLines.FORMAT);
                }
                JsonNode k = o.get("keyed");
                JsonNode id = o.get("keyId");
                if (k == null || !k.isBoolean() || id == null) throw new AuditLogException(number, "a log_started without \"keyed\" and \"keyId\"");
                keyed = k.booleanValue();
                if (keyed && (!id.isTextual() || !KEY_ID.matcher(id.textValue()).matches()) || !keyed && !id.isNull()) {
                    throw new AuditLogException(number, "a malformed \"keyId\"");
                }
                if (keyed && key == null) {
                    throw new AuditLogException(number, "this log is keyed (key id " + id.textValue() + "): it is read only with its key");
                }
                if (!keyed && key != null) {
                    throw new AuditLogException(number, "this log is not keyed, but a key was given: only a log sealed with that key is accepted");
                }
                if (keyed && !id.textValue().equals(key.id())) {
                    throw new AuditLogException(number, "this log was sealed with another key (key id " + id.textValue()
                            + "; the key given is " + key.id() + ")");
                }
                open = true;
                openedAt = number;
                linesInLog = 0;
            } else if (!open) {
                throw new AuditLogException(number, closedAt > 0
                        ? "a line after the log_closed of line " + closedAt + ": only a new log_started may follow"
                        : "the log does not start with log_started");
            }
            linesInLog++;
            boolean mustSeal = type.equals(ChainedJsonLines.CLOSED) || sealed.contains(type);
            if (mustSeal) verifySeal(number, type, line, o, keyed ? key : null);
            else if (o.has(ChainedJsonLines.SEAL) || o.has(ChainedJsonLines.HMAC)) {
                throw new AuditLogException(number, "a " + type + " line carries a seal: only " + sealed + " and log_closed are sealed");
            }
            prev = ChainedJsonLines.hex(line);
            if (type.equals(ChainedJsonLines.CLOSED)) {
                JsonNode count = o.get("lines");
                if (count == null || !count.canConvertToLong() || !count.isIntegralNumber() || count.longValue() != linesInLog) {
                    throw new AuditLogException(number, "log_closed counts " + count + " lines, the log of line " + openedAt
                            + " holds " + linesInLog + " (lines were deleted or added)");
                }
                open = false;
                closedAt = number;
            } else if (!type.equals(ChainedJsonLines.STARTED)) {
                consumer.line(number, o);
            }
        }
        if (number == 0) throw new AuditLogException(0, "the log is empty");
        if (open) {
            throw new AuditLogException(number, "the log is cut after line " + number
                    + ": it has no log_closed (the log was truncated, or its writer did not finish)");
        }
    }

    /** Checks that {@code line} ends with its seal (and HMAC, with a key) over the rest of it. */
    private static void verifySeal(long number, String type, byte[] line, ObjectNode o, AuditKey key) throws AuditLogException {
        JsonNode seal = o.get(ChainedJsonLines.SEAL);
        if (seal == null) throw new AuditLogException(number, "a " + type + " line without its seal (the seal was removed)");
        int at = lastIndexOf(line, SEAL_MARK);
        JsonNode mac = o.get(ChainedJsonLines.HMAC);
        int sealStart = at + SEAL_MARK.length;
        int expectedEnd = sealStart + 64 + (key != null ? HMAC_MARK.length + 64 : 0) + 2;
        if (at < 0 || !seal.isTextual() || !HEX64.matcher(seal.textValue()).matches() || expectedEnd != line.length
                || line[line.length - 2] != '"' || line[line.length - 1] != '}') {
            throw new AuditLogException(number, "a " + type + " line whose seal is malformed or not its last field");
        }
        if (key == null && mac != null) throw new AuditLogException(number, "an HMAC in an unkeyed log");
        byte[] body = Arrays.copyOf(line, at + 1);
        body[at] = '}';
        if (!ChainedJsonLines.hex(body).equals(seal.textValue())
                || !new String(line, sealStart, 64, StandardCharsets.US_ASCII).equals(seal.textValue())) {
            throw new AuditLogException(number, "the seal does not match its line (the line was edited)");
        }
        if (key != null) {
            if (mac == null || !mac.isTextual() || !HEX64.matcher(mac.textValue()).matches()) {
                throw new AuditLogException(number, "a " + type + " line without its HMAC in a keyed log");
            }
            if (!Arrays.equals(Arrays.copyOfRange(line, sealStart + 64, sealStart + 64 + HMAC_MARK.length), HMAC_MARK)
                    || !new String(line, sealStart + 64 + HMAC_MARK.length, 64, StandardCharsets.US_ASCII).equals(mac.textValue())) {
                throw new AuditLogException(number, "a " + type + " line whose HMAC is malformed or not its last field");
            }
            if (!MessageDigest.isEqual(key.hmac(body), HexFormat.of().parseHex(mac.textValue()))) {
                throw new AuditLogException(number, "the seal's HMAC does not verify with this key (the log was rewritten)");
            }
        }
    }

    /** The lines of a stream, read a block at a time; a line longer than the bound is refused as it arrives. */
    private static final class Lines {
        private final InputStream in;
        private final long maxLine;
        private final byte[] block = new byte[1 << 16];
        private int pos;
        private int end;
        private boolean eof;
        /** the line last returned ended with a newline */
        boolean ended;

        Lines(InputStream in, long maxLine) {
            this.in = in;
            this.maxLine = maxLine;
        }

        /** The next line without its newline, or null at the end; {@code number} for the message of a line too long. */
        byte[] next(long number) throws IOException {
            byte[] out = null;
            int n = 0;
            while (true) {
                if (pos == end) {
                    if (eof || (end = in.read(block, 0, block.length)) < 0) {
                        eof = true;
                        end = 0;
                        pos = 0;
                        ended = false;
                        return out == null ? null : Arrays.copyOf(out, n);
                    }
                    pos = 0;
                }
                int nl = pos;
                while (nl < end && block[nl] != '\n') nl++;
                int len = nl - pos;
                if ((long) n + len > maxLine) {
                    throw new AuditLogException(number, "longer than the reader's limit of " + maxLine + " bytes");
                }
                if (out == null) out = new byte[Math.max(len, 256)];
                else if (n + len > out.length) out = Arrays.copyOf(out, (int) Math.min(Math.max((long) out.length * 2, n + len), maxLine));
                System.arraycopy(block, pos, out, n, len);
                n += len;
                pos = nl;
                if (nl < end) {
                    pos++;
                    ended = true;
                    return Arrays.copyOf(out, n);
                }
            }
        }
    }

    private static int lastIndexOf(byte[] a, byte[] b) {
        outer:
        for (int i = a.length - b.length; i >= 0; i--) {
            for (int j = 0; j < b.length; j++) if (a[i + j] != b[j]) continue outer;
            return i;
        }
        return -1;
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        String t = nl >= 0 ? s.substring(0, nl) : s;
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
