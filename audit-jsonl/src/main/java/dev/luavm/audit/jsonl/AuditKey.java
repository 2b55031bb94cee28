package dev.luavm.audit.jsonl;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The secret that seals a keyed audit log: each seal of the log carries an HMAC-SHA256 of the
 * sealed line under this key, so whoever does not hold it cannot rewrite the log consistently
 * (docs/AUDIT.md). At least {@value #MIN_BYTES} bytes.
 *
 * <p>A key file ({@link #read}) holds the key raw, or as hex digits: a file whose content, with
 * surrounding whitespace removed, is nothing but hex digits is read as hex (and then needs at least
 * 64 digits); any other file is the key itself, byte for byte. The key's {@link #id()} names it
 * in a log without revealing it.
 */
public final class AuditKey {
    /** The shortest key accepted, in bytes. */
    public static final int MIN_BYTES = 32;
    /** The largest key file read. */
    static final int MAX_FILE_BYTES = 64 * 1024;
    private static final byte[] ID_LABEL = "luavm audit key id".getBytes(StandardCharsets.US_ASCII);

    private final byte[] key;
    private final String id;

    private AuditKey(byte[] key) {
        if (key.length < MIN_BYTES) {
            throw new IllegalArgumentException("an audit key needs at least " + MIN_BYTES + " bytes, not " + key.length);
        }
        this.key = key.clone();
        this.id = HexFormat.of().formatHex(Arrays.copyOf(hmac(ID_LABEL), 8));
    }

    /** A key of these bytes (at least {@value #MIN_BYTES}). */
    public static AuditKey of(byte[] key) {
        return new AuditKey(key);
    }

    /**
     * The key in {@code file}: hex digits or raw bytes (see the class comment).
     *
     * @throws IOException              the file cannot be read
     * @throws IllegalArgumentException the file holds no usable key (too short, too long)
     */
    public static AuditKey read(Path file) throws IOException {
        byte[] raw;
        try (InputStream in = Files.newInputStream(file)) {
            raw = in.readNBytes(MAX_FILE_BYTES + 1);
        }
        if (raw.length > MAX_FILE_BYTES) throw new IllegalArgumentException("an audit key file holds at most " + MAX_FILE_BYTES + " bytes");
        String text = new String(raw, StandardCharsets.ISO_8859_1).strip();
        if (!text.isEmpty() && text.chars().allMatch(c -> c < 128 && Character.digit(c, 16) >= 0)) {
            if (text.length() % 2 != 0) throw new IllegalArgumentException("the key file holds an odd number of hex digits (" + text.length() + ")");
            if (text.length() < 2 * MIN_BYTES) {
                throw new IllegalArgumentException("the key file holds " + text.length() + " hex digits: at least " + 2 * MIN_BYTES
                        + " (" + MIN_BYTES + " bytes) are needed");
            }
            return new AuditKey(HexFormat.of().parseHex(text));
        }
        return new AuditKey(raw);
    }

    /** A name for the key that does not reveal it: 16 hex digits of an HMAC of a fixed label. */
    public String id() {
        return id;
    }

    /** HMAC-SHA256 of {@code data} under this key. */
    byte[] hmac(byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required of every JVM", e);
        }
    }

    @Override
    public String toString() {
        return "AuditKey[id=" + id + "]";
    }
}
