package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.LuaHandle;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.ClockReadings;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.Safety;
import dev.luavm.replay.Recording;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads back what {@link JsonLinesAuditSink} wrote, verified: one {@link AuditEvent} per line,
 * in order, and from them a {@link Recording} to replay.
 *
 * <p>Nothing is read unverified ({@link VerifiedLines}): the hash chain must link every line to
 * the one before, every run's {@code run_ended} and every writer's {@code log_closed} must carry
 * a seal over their line, a keyed log must be read with its key (every seal's HMAC checked) and
 * an unkeyed one without, and the log must end with its {@code log_closed}. Otherwise
 * {@link AuditLogException} says which line and why. {@link #recording} then checks what the
 * chain cannot (a run's seal against its events: {@link Recording}).
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
    private static final ObjectMapper MAPPER = VerifiedLines.strictMapper(Integer.MAX_VALUE);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The line types that carry a seal besides {@code log_closed}: each run's last. */
    static final Set<String> SEALED = Set.of("run_ended");

    private JsonLinesAuditLog() {}

    /**
     * The events of a verified log, and where each is.
     *
     * @param events the events, in order
     * @param lines  the line of each event (from 1)
     */
    public record Log(List<AuditEvent> events, long[] lines) {
        public Log {
            events = List.copyOf(events);
            lines = lines.clone();
        }

        /** The line of event {@code i}. */
        public long line(int i) {
            return lines[i];
        }

        /**
         * The recording of the log's first sandbox, its events numbered by line. A sandbox writes
         * to its log from its first run, so a recording that starts later has lost runs.
         */
        public Recording recording() {
            if (events.isEmpty()) throw new IllegalArgumentException("the log holds no event: nothing to replay");
            Recording r = Recording.of(events, events.get(0).sandbox(), lines, "line");
            long first = r.runs().get(0).number();
            if (first != 1) {
                throw new IllegalArgumentException("line " + lines[0] + ": the log's first run of sandbox '" + r.sandbox()
                        + "' is run " + first + ": run" + (first == 2 ? " 1 is" : "s 1 to " + (first - 1) + " are") + " missing");
            }
            return r;
        }
    }

    /** Every event of an unkeyed file, in order, verified. */
    public static List<AuditEvent> read(Path file) throws IOException {
        return read(file, null);
    }

    /** Every event of the file, in order, verified with {@code key} (null: the log must be unkeyed). */
    public static List<AuditEvent> read(Path file, AuditKey key) throws IOException {
        return readLog(file, key).events();
    }

    /** The file's events with their lines, verified with {@code key} (null: unkeyed), within the default bounds. */
    public static Log readLog(Path file, AuditKey key) throws IOException {
        return readLog(file, key, VerifiedLines.Bounds.defaults());
    }

    /** The file's events with their lines, verified with {@code key} (null: unkeyed), within {@code bounds}. */
    public static Log readLog(Path file, AuditKey key, VerifiedLines.Bounds bounds) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return readLog(in, key, bounds);
        }
    }

    /** The events of a log read from {@code in}, verified with {@code key} (null: unkeyed). */
    public static Log readLog(InputStream in, AuditKey key, VerifiedLines.Bounds bounds) throws IOException {
        List<AuditEvent> events = new ArrayList<>();
        long[][] lines = {new long[64]};
        VerifiedLines.read(in, key, SEALED, bounds, (number, o) -> {
            try {
                events.add(event(o));
            } catch (IOException | RuntimeException e) {
                throw new AuditLogException(number, "not an audit event (" + e.getMessage() + ")", e);
            }
            if (events.size() > lines[0].length) lines[0] = Arrays.copyOf(lines[0], lines[0].length * 2);
            lines[0][events.size() - 1] = number;
        });
        return new Log(events, Arrays.copyOf(lines[0], events.size()));
    }

    /** The recording of the unkeyed file's first sandbox, verified, its events numbered by line. */
    public static Recording recording(Path file) throws IOException {
        return recording(file, null);
    }

    /** The recording of the file's first sandbox, verified with {@code key} (null: unkeyed), numbered by line. */
    public static Recording recording(Path file, AuditKey key) throws IOException {
        return readLog(file, key).recording();
    }

    /** One line as an event, as written (the chain's own fields, if any, are not checked here). */
    public static AuditEvent parse(String line) throws IOException {
        JsonNode o = MAPPER.readTree(line);
        if (!(o instanceof ObjectNode obj)) throw new IOException("not a JSON object");
        return event(obj);
    }

    /** A line's event; every field it needs must be there, with its type. */
    static AuditEvent event(ObjectNode o) throws IOException {
        String type = text(o, "type");
        String sandbox = required(text(o, "sandbox"), "sandbox");
        long run = number(o, "run");
        switch (String.valueOf(type)) {
            case "run_started": {
                List<String> caps = new ArrayList<>();
                for (JsonNode c : array(o, "capabilities")) {
                    if (!c.isTextual()) throw new IOException("a capability that is not text");
                    caps.add(c.textValue());
                }
                JsonNode lim = o.get("limits");
                if (lim == null || !lim.isObject()) throw new IOException("no \"limits\" object");
                Map<String, Object> limits = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = lim.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToLong()) {
                        throw new IOException("limit " + e.getKey() + " is not an integer");
                    }
                    limits.put(e.getKey(), e.getValue().longValue());
                }
                return new RunStarted(sandbox, run, required(text(o, "kind"), "kind"), text(o, "chunk"), text(o, "sourceSha256"),
                        text(o, "inputsDigest"), caps, limits, number(o, "randomSeed"), number(o, "clockMillis"));
            }
            case "host_call":
                return new HostCallEvent(sandbox, run, number(o, "seq"), required(text(o, "function"), "function"),
                        Safety.valueOf(required(text(o, "safety"), "safety")), plainList(array(o, "args")),
                        HostCallEvent.Verdict.valueOf(required(text(o, "verdict"), "verdict")), text(o, "reason"),
                        HostCallEvent.Outcome.valueOf(required(text(o, "outcome"), "outcome")), plainList(array(o, "results")),
                        text(o, "error"), number(o, "gas"), number(o, "elapsedNanos"), bool(o, "complete"));
            case "clock_readings": {
                long[] reads = deltas(array(o, "reads"), "reads");
                long[] values = deltas(array(o, "values"), "values");
                return new ClockReadings(sandbox, run, ClockReadings.Kind.valueOf(required(text(o, "clock"), "clock")), reads, values);
            }
            case "recorded": {
                List<Object> values = new ArrayList<>();
                for (JsonNode v : array(o, "values")) values.add(typedValue(v));
                return new Recorded(sandbox, run, Recorded.Kind.valueOf(required(text(o, "kind"), "kind")), number(o, "seq"),
                        values, bool(o, "redacted"));
            }
            case "run_ended": {
                JsonNode u = o.get("usage");
                if (u == null || !u.isObject()) throw new IOException("no \"usage\" object");
                Usage usage = u.has("gas") ? new Usage(number(u, "gas"), number(u, "memoryBytes"), number(u, "peakMemoryBytes"),
                        number(u, "outputBytes"), Duration.ofNanos(number(u, "elapsedNanos"))) : null;
                return new RunEnded(sandbox, run, RunEnded.Outcome.valueOf(required(text(o, "outcome"), "outcome")),
                        text(o, "limit"), text(o, "error"), text(o, "resultDigest"), usage, number(o, "hostCalls"),
                        number(o, "events"), text(o, "outputSha256"), text(o, "limitsSha256"), text(o, "capabilitiesSha256"));
            }
            default:
                throw new IOException("unknown event type " + type);
        }
    }

    /** First value, then differences: the values themselves (in 64-bit arithmetic, as the writer took them). */
    private static long[] deltas(JsonNode a, String field) throws IOException {
        if (a.size() == 0 || a.size() > ClockReadings.MAX_READS) throw new IOException(field + ": 1 to " + ClockReadings.MAX_READS + " entries");
        long[] out = new long[a.size()];
        long v = 0;
        for (int i = 0; i < out.length; i++) {
            JsonNode d = a.get(i);
            if (!d.isIntegralNumber() || !d.canConvertToLong()) throw new IOException(field + ": not a 64-bit integer");
            v = i == 0 ? d.longValue() : v + d.longValue();
            out[i] = v;
        }
        return out;
    }

    private static JsonNode array(JsonNode o, String field) throws IOException {
        JsonNode a = o.get(field);
        if (a == null || !a.isArray()) throw new IOException("no \"" + field + "\" array");
        return a;
    }

    private static long number(JsonNode o, String field) throws IOException {
        JsonNode v = o.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) throw new IOException("no integer \"" + field + "\"");
        return v.longValue();
    }

    private static boolean bool(JsonNode o, String field) throws IOException {
        JsonNode v = o.get(field);
        if (v == null || !v.isBoolean()) throw new IOException("no boolean \"" + field + "\"");
        return v.booleanValue();
    }

    private static String required(String v, String field) throws IOException {
        if (v == null) throw new IOException("no \"" + field + "\"");
        return v;
    }

    private static String text(JsonNode o, String field) throws IOException {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw new IOException("\"" + field + "\" is not text");
        return v.textValue();
    }

    static List<Object> plainList(JsonNode a) {
        List<Object> out = new ArrayList<>();
        for (JsonNode v : a) out.add(plain(v));
        return out;
    }

    /** A plain JSON value as Java: Long, Double, String, Boolean, null, List, Map with text keys. */
    static Object plain(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) return null;
        if (v.isBoolean()) return v.booleanValue();
        if (v.isIntegralNumber()) {
            if (!v.canConvertToLong()) throw new IllegalArgumentException("an integer beyond 64 bits");
            return v.longValue();
        }
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
        if (v.isIntegralNumber()) {
            if (!v.canConvertToLong()) throw new IllegalArgumentException("an integer beyond 64 bits");
            return v.longValue();
        }
        if (v.isNumber()) return v.doubleValue();
        if (v.isTextual()) return v.textValue();
        if (v.isArray()) {
            List<Object> out = new ArrayList<>(v.size());
            for (JsonNode e : v) out.add(typedValue(e));
            return out;
        }
        if (v.size() != 1) throw new IllegalArgumentException("a typed value is an object of one field");
        if (v.has("map")) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (JsonNode e : v.get("map")) {
                if (!e.isArray() || e.size() != 2) throw new IllegalArgumentException("a map entry is a pair");
                m.put(typedValue(e.get(0)), typedValue(e.get(1)));
            }
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
