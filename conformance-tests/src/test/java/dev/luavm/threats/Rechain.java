package dev.luavm.threats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.audit.jsonl.AuditKey;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An attacker's tool, written from docs/AUDIT.md alone (not from the writer's code): recomputes a
 * log's whole chain after it was edited (every {@code prev}, every seal and, with a key the
 * attacker holds, every HMAC; the {@code log_closed} count), with a header that may claim any key
 * id. What anyone can do to an unkeyed log; what no one without the key can do to a keyed one.
 */
final class Rechain {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> SEALED = Set.of("run_ended", "contract_outcome", "log_closed");

    private Rechain() {}

    /** Chained afresh, unkeyed. */
    static String of(String log) throws IOException {
        return chain(log, null, null);
    }

    /** Chained afresh and sealed with {@code key} (the attacker's own). */
    static String with(String log, AuditKey key) throws IOException {
        return chain(log, key, key.id());
    }

    /** Sealed with {@code key} under a header that claims key id {@code claimedId}. */
    static String forging(String log, String claimedId, AuditKey key) throws IOException {
        return chain(log, key, claimedId);
    }

    private static String chain(String log, AuditKey key, String keyId) throws IOException {
        StringBuilder out = new StringBuilder();
        String[] prev = {null};
        long[] count = {0};
        ObjectNode head = JsonNodeFactory.instance.objectNode();
        head.put("type", "log_started");
        head.put("format", 2);
        head.put("keyed", key != null);
        head.put("keyId", keyId);
        emit(out, head, key, prev, count);
        for (String line : log.split("\n")) {
            if (line.isEmpty()) continue;
            ObjectNode o = (ObjectNode) JSON.readTree(line);
            String type = o.path("type").asText();
            if (type.equals("log_started") || type.equals("log_closed")) continue;
            emit(out, o, key, prev, count);
        }
        ObjectNode end = JsonNodeFactory.instance.objectNode();
        end.put("type", "log_closed");
        end.put("lines", count[0] + 1);
        emit(out, end, key, prev, count);
        return out.toString();
    }

    private static void emit(StringBuilder out, ObjectNode line, AuditKey key, String[] prev, long[] count) throws IOException {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("type", line.get("type"));
        o.put("prev", prev[0]);
        for (Iterator<Map.Entry<String, JsonNode>> it = line.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!List.of("type", "prev", "seal", "hmac").contains(e.getKey())) o.set(e.getKey(), e.getValue());
        }
        String text = JSON.writeValueAsString(o);
        if (SEALED.contains(o.path("type").asText())) {
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            String tail = ",\"seal\":\"" + sha256(body) + "\"";
            if (key != null) tail += ",\"hmac\":\"" + hmac(key, body) + "\"";
            text = text.substring(0, text.length() - 1) + tail + "}";
        }
        out.append(text).append('\n');
        prev[0] = sha256(text.getBytes(StandardCharsets.UTF_8));
        count[0]++;
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The attacker's HMAC: under the raw bytes this test gave the key (the keys here are their own text). */
    private static String hmac(AuditKey key, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(RAW.get(key.id()), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The raw bytes of the keys the tests make, by id (an attacker holds only their own). */
    private static final Map<String, byte[]> RAW = Map.of(
            AuditKey.of("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII)).id(),
            "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII));
}
