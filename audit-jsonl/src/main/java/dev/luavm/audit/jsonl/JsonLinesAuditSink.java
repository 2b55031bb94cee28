package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.ClockReadings;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes audit events as a sealed JSON Lines log: one JSON object per event, one event per line,
 * in order, flushed before {@link #write} returns (so an event the sandbox counts as written has
 * reached the operating system; a failure to write makes the run fail closed). The log is a hash
 * chain ({@link ChainedJsonLines}, docs/AUDIT.md): every line carries the SHA-256 of the one
 * before it, each run's {@code run_ended} seals the chain so far, and {@link #close()} ends the
 * log with a sealed {@code log_closed}; with an {@link AuditKey} each seal also carries an
 * HMAC-SHA256 under the key. {@link JsonLinesAuditLog} reads a log back and verifies all of it.
 * Without a key the chain catches damage and naive edits, but anyone can recompute it; only a
 * keyed log resists a consistent rewrite.
 *
 * <p>Each event object has {@code "type"} ({@code "run_started"}, {@code "host_call"},
 * {@code "clock_readings"}, {@code "recorded"}, {@code "run_ended"}), {@code "prev"},
 * {@code "sandbox"} and {@code "run"}, then the event's fields under their record component names
 * ({@link RunStarted}, {@link HostCallEvent}, {@link ClockReadings}, {@link Recorded},
 * {@link RunEnded}); a clock-readings event writes its read numbers and values as the first and
 * then the differences; a recorded event's values use the typed encoding of
 * {@link JsonLinesAuditLog}. Enums are their names and {@code usage} an object with
 * {@code elapsedNanos}. Values: integers as JSON integers, floats always with a fraction or
 * exponent ({@code 1.0}) and non-finite ones as the strings {@code "inf"}, {@code "-inf"},
 * {@code "nan"}; lists as arrays; maps as objects whose keys are written as text.
 *
 * <p>Thread-safe: one file may serve several sandboxes (events carry the sandbox's name); their
 * events share one chain, in the order they were written.
 */
public final class JsonLinesAuditSink implements AuditSink, Closeable {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ChainedJsonLines out;

    /** Appends an unkeyed log to {@code file}, creating it when absent. */
    public static JsonLinesAuditSink append(Path file) throws IOException {
        return append(file, null);
    }

    /** Appends a log sealed with {@code key} (null: unkeyed) to {@code file}, chained to what the file holds. */
    public static JsonLinesAuditSink append(Path file, AuditKey key) throws IOException {
        return new JsonLinesAuditSink(ChainedJsonLines.append(file, key));
    }

    /** Writes a new log sealed with {@code key} (null: unkeyed) to {@code file}, replacing it. */
    public static JsonLinesAuditSink create(Path file, AuditKey key) throws IOException {
        return new JsonLinesAuditSink(ChainedJsonLines.create(file, key));
    }

    /** Writes an unkeyed log to {@code out} (which this sink closes). */
    public JsonLinesAuditSink(OutputStream out) {
        this(out, null);
    }

    /** Writes a log sealed with {@code key} (null: unkeyed) to {@code out} (which this sink closes). */
    public JsonLinesAuditSink(OutputStream out, AuditKey key) {
        this(new ChainedJsonLines(Objects.requireNonNull(out, "out"), key));
    }

    private JsonLinesAuditSink(ChainedJsonLines out) {
        this.out = out;
    }

    @Override
    public void write(AuditEvent event) throws IOException {
        if (event instanceof RunEnded) out.seal(toJson(event));
        else out.write(toJson(event));
    }

    /** Ends the log with its sealed {@code log_closed} and closes the file (a log not closed reads as cut). */
    @Override
    public void close() throws IOException {
        out.close();
    }

    /** The JSON object written for {@code event}. */
    public static ObjectNode toJson(AuditEvent event) {
        ObjectNode o = NODES.objectNode();
        if (event instanceof RunStarted e) {
                head(o, "run_started", e);
                o.put("kind", e.kind());
                o.put("chunk", e.chunk());
                o.put("sourceSha256", e.sourceSha256());
                o.put("inputsDigest", e.inputsDigest());
                o.set("capabilities", value(e.capabilities()));
                o.set("limits", value(e.limits()));
                o.put("randomSeed", e.randomSeed());
                o.put("clockMillis", e.clockMillis());
        } else if (event instanceof HostCallEvent e) {
                head(o, "host_call", e);
                o.put("seq", e.seq());
                o.put("function", e.function());
                o.put("safety", e.safety().name());
                o.set("args", value(e.args()));
                o.put("verdict", e.verdict().name());
                o.put("reason", e.reason());
                o.put("outcome", e.outcome().name());
                o.set("results", value(e.results()));
                o.put("error", e.error());
                o.put("gas", e.gas());
                o.put("elapsedNanos", e.elapsedNanos());
                o.put("complete", e.complete());
        } else if (event instanceof ClockReadings e) {
                head(o, "clock_readings", e);
                o.put("clock", e.clock().name());
                o.set("reads", deltas(e.reads()));
                o.set("values", deltas(e.values()));
        } else if (event instanceof Recorded e) {
                head(o, "recorded", e);
                o.put("kind", e.kind().name());
                o.put("seq", e.seq());
                ArrayNode values = o.putArray("values");
                for (Object v : e.values()) values.add(JsonLinesAuditLog.typed(v));
                o.put("redacted", e.redacted());
        } else if (event instanceof RunEnded e) {
                head(o, "run_ended", e);
                o.put("outcome", e.outcome().name());
                o.put("limit", e.limit());
                o.put("error", e.error());
                o.put("resultDigest", e.resultDigest());
                Usage u = e.usage();
                ObjectNode usage = o.putObject("usage");
                if (u != null) {
                    usage.put("gas", u.gas());
                    usage.put("memoryBytes", u.memoryBytes());
                    usage.put("peakMemoryBytes", u.peakMemoryBytes());
                    usage.put("outputBytes", u.outputBytes());
                    usage.put("elapsedNanos", u.elapsed().toNanos());
                }
                o.put("hostCalls", e.hostCalls());
                o.put("events", e.events());
                o.put("outputSha256", e.outputSha256());
                o.put("limitsSha256", e.limitsSha256());
                o.put("capabilitiesSha256", e.capabilitiesSha256());
        }
        return o;
    }

    /** The first value, then each one's difference from the one before (small numbers for a clock's readings). */
    private static ArrayNode deltas(long[] v) {
        ArrayNode a = NODES.arrayNode(v.length);
        for (int i = 0; i < v.length; i++) a.add(i == 0 ? v[0] : v[i] - v[i - 1]);
        return a;
    }

    private static void head(ObjectNode o, String type, AuditEvent e) {
        o.put("type", type);
        o.put("sandbox", e.sandbox());
        o.put("run", e.run());
    }

    private static com.fasterxml.jackson.databind.JsonNode value(Object v) {
        if (v == null) return NODES.nullNode();
        if (v instanceof Boolean b) return NODES.booleanNode(b);
        if (v instanceof Long || v instanceof Integer) return NODES.numberNode(((Number) v).longValue());
        if (v instanceof Double d) {
            if (d.isNaN()) return NODES.textNode("nan");
            if (d.isInfinite()) return NODES.textNode(d > 0 ? "inf" : "-inf");
            return NODES.numberNode(d);
        }
        if (v instanceof List<?> l) {
            ArrayNode a = NODES.arrayNode(l.size());
            for (Object e : l) a.add(value(e));
            return a;
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = NODES.objectNode();
            for (Map.Entry<?, ?> e : m.entrySet()) o.set(String.valueOf(e.getKey()), value(e.getValue()));
            return o;
        }
        return NODES.textNode(String.valueOf(v));
    }
}
