package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.LuaHandle;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.ClockReading;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.Safety;
import dev.luavm.replay.Recording;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads back what {@link JsonLinesAuditSink} wrote: one {@link AuditEvent} per line, in order,
 * and from them a {@link Recording} to replay.
 *
 * <p>Two encodings of values. The bounded values of host-call and run events are plain JSON
 * (map keys become text, non-finite floats the strings {@code "inf"}, {@code "-inf"},
 * {@code "nan"}): they are for reading and comparing, not for feeding back. The full values of a
 * {@link Recorded} event are <em>typed</em>, so they come back exactly as the host gave them:
 * integers and floats stay apart (a float is always written with a fraction or exponent), and a
 * JSON object is never a plain map but one of {@code {"map": [[k, v], ...]}} (entries in the
 * host's order, keys of any type), {@code {"bytes": "<base64>"}} (a byte string that is not
 * UTF-8), {@code {"float": "inf" | "-inf" | "nan"}}, {@code {"handle": "function"}} or
 * {@code {"object": "<text>"}} (neither can be fed back: a replay gives nil).
 */
public final class JsonLinesAuditLog {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonLinesAuditLog() {}

    /** Every event of the file, in order (blank lines skipped). */
    public static List<AuditEvent> read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(r);
        }
    }

    public static List<AuditEvent> read(Reader in) throws IOException {
        BufferedReader r = in instanceof BufferedReader b ? b : new BufferedReader(in);
        List<AuditEvent> out = new ArrayList<>();
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            n++;
            if (line.isBlank()) continue;
            try {
                out.add(parse(line));
            } catch (IOException | RuntimeException e) {
                throw new IOException("line " + n + ": not an audit event (" + e.getMessage() + ")", e);
            }
        }
        return out;
    }

    /** The recording of the file's first sandbox. */
    public static Recording recording(Path file) throws IOException {
        return Recording.of(read(file));
    }

    /** One line as an event. */
    public static AuditEvent parse(String line) throws IOException {
        JsonNode o = MAPPER.readTree(line);
        String type = text(o, "type");
        String sandbox = text(o, "sandbox");
        long run = o.path("run").asLong();
        switch (String.valueOf(type)) {
            case "run_started": {
                List<String> caps = new ArrayList<>();
                for (JsonNode c : o.path("capabilities")) caps.add(c.asText());
                @SuppressWarnings("unchecked")
                Map<String, Object> limits = (Map<String, Object>) plain(o.path("limits"));
                return new RunStarted(sandbox, run, text(o, "kind"), text(o, "chunk"), text(o, "sourceSha256"),
                        text(o, "inputsDigest"), caps, limits == null ? Map.of() : limits, o.path("randomSeed").asLong(),
                        o.path("clockMillis").asLong());
            }
            case "host_call":
                return new HostCallEvent(sandbox, run, o.path("seq").asLong(), text(o, "function"),
                        Safety.valueOf(text(o, "safety")), plainList(o.path("args")),
                        HostCallEvent.Verdict.valueOf(text(o, "verdict")), text(o, "reason"),
                        HostCallEvent.Outcome.valueOf(text(o, "outcome")), plainList(o.path("results")), text(o, "error"),
                        o.path("gas").asLong(), o.path("elapsedNanos").asLong(), o.path("complete").asBoolean());
            case "clock_reading":
                return new ClockReading(sandbox, run, o.path("read").asLong(), o.path("millis").asLong());
            case "recorded": {
                List<Object> values = new ArrayList<>();
                for (JsonNode v : o.path("values")) values.add(typedValue(v));
                return new Recorded(sandbox, run, Recorded.Kind.valueOf(text(o, "kind")), o.path("seq").asLong(), values,
                        o.path("redacted").asBoolean());
            }
            case "run_ended": {
                JsonNode u = o.path("usage");
                Usage usage = u.isObject() && u.has("gas") ? new Usage(u.path("gas").asLong(), u.path("memoryBytes").asLong(),
                        u.path("peakMemoryBytes").asLong(), u.path("outputBytes").asLong(),
                        Duration.ofNanos(u.path("elapsedNanos").asLong())) : null;
                String limit = text(o, "limit");
                return new RunEnded(sandbox, run, RunEnded.Outcome.valueOf(text(o, "outcome")), limit, text(o, "error"),
                        text(o, "resultDigest"), usage, o.path("hostCalls").asLong());
            }
            default:
                throw new IOException("unknown event type " + type);
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static List<Object> plainList(JsonNode a) {
        List<Object> out = new ArrayList<>();
        for (JsonNode v : a) out.add(plain(v));
        return out;
    }

    /** A plain JSON value as Java: Long, Double, String, Boolean, null, List, Map with text keys. */
    static Object plain(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) return null;
        if (v.isBoolean()) return v.booleanValue();
        if (v.isIntegralNumber()) return v.longValue();
        if (v.isNumber()) return v.doubleValue();
        if (v.isTextual()) return v.textValue();
        if (v.isArray()) return plainList(v);
        Map<String, Object> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            m.put(e.getKey(), plain(e.getValue()));
        }
        return m;
    }

    /** The typed encoding of a full value (see the class comment). */
    static JsonNode typed(Object v) {
        if (v == null) return NODES.nullNode();
        if (v instanceof Boolean b) return NODES.booleanNode(b);
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return NODES.numberNode(((Number) v).longValue());
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) return NODES.objectNode().put("float", "nan");
            if (Double.isInfinite(d)) return NODES.objectNode().put("float", d > 0 ? "inf" : "-inf");
            return NODES.numberNode(d);
        }
        if (v instanceof CharSequence s) return NODES.textNode(s.toString());
        if (v instanceof byte[] b) return NODES.objectNode().put("bytes", Base64.getEncoder().encodeToString(b));
        if (v instanceof Iterable<?> l) {
            ArrayNode a = NODES.arrayNode();
            for (Object e : l) a.add(typed(e));
            return a;
        }
        if (v instanceof Object[] arr) return typed(java.util.Arrays.asList(arr));
        if (v instanceof Map<?, ?> m) {
            ArrayNode entries = NODES.arrayNode(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) entries.add(NODES.arrayNode(2).add(typed(e.getKey())).add(typed(e.getValue())));
            ObjectNode o = NODES.objectNode();
            o.set("map", entries);
            return o;
        }
        if (v instanceof LuaHandle h) return NODES.objectNode().put("handle", h.type());
        return NODES.objectNode().put("object", String.valueOf(v));
    }

    /** A typed value back as the host gave it. */
    static Object typedValue(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) return null;
        if (v.isBoolean()) return v.booleanValue();
        if (v.isIntegralNumber()) return v.longValue();
        if (v.isNumber()) return v.doubleValue();
        if (v.isTextual()) return v.textValue();
        if (v.isArray()) {
            List<Object> out = new ArrayList<>(v.size());
            for (JsonNode e : v) out.add(typedValue(e));
            return out;
        }
        if (v.has("map")) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (JsonNode e : v.get("map")) m.put(typedValue(e.get(0)), typedValue(e.get(1)));
            return m;
        }
        if (v.has("bytes")) return Base64.getDecoder().decode(v.get("bytes").asText());
        if (v.has("float")) {
            return switch (v.get("float").asText()) {
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.NaN;
            };
        }
        return null; // a handle or a host object: nothing a replay can give back
    }
}
