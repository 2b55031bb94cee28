package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.ClockReading;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes audit events as JSON Lines: one JSON object per event, one event per line, in order,
 * flushed before {@link #write} returns (so an event the sandbox counts as written has reached
 * the operating system; a failure to write makes the run fail closed).
 *
 * <p>Each object has {@code "type"} ({@code "run_started"}, {@code "host_call"},
 * {@code "clock_reading"}, {@code "recorded"}, {@code "run_ended"}), {@code "sandbox"} and {@code "run"}, then the event's
 * fields under their record component names ({@link RunStarted}, {@link HostCallEvent}, {@link ClockReading},
 * {@link Recorded}, {@link RunEnded}); a recorded event's values use the typed encoding of
 * {@link JsonLinesAuditLog}, which reads a file back. Enums are
 * their names and {@code usage} an object with {@code elapsedNanos}. Values: integers as JSON
 * integers, floats always with a fraction or exponent ({@code 1.0}) and non-finite ones as the
 * strings {@code "inf"}, {@code "-inf"}, {@code "nan"}; lists as arrays; maps as objects whose keys
 * are written as text.
 *
 * <p>Thread-safe: one file may serve several sandboxes (events carry the sandbox's name).
 */
public final class JsonLinesAuditSink implements AuditSink, Closeable {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ObjectMapper mapper = new ObjectMapper();
    private final Writer out;
    private boolean closed;

    /** Appends to {@code file}, creating it when absent. */
    public static JsonLinesAuditSink append(Path file) throws IOException {
        return new JsonLinesAuditSink(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
    }

    /** Writes to {@code out} (which this sink closes). */
    public JsonLinesAuditSink(OutputStream out) {
        this.out = new java.io.OutputStreamWriter(Objects.requireNonNull(out, "out"), StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(AuditEvent event) throws IOException {
        if (closed) throw new IOException("audit log closed");
        out.write(mapper.writeValueAsString(toJson(event)));
        out.write('\n');
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
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
        } else if (event instanceof ClockReading e) {
                head(o, "clock_reading", e);
                o.put("read", e.read());
                o.put("millis", e.millis());
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
        }
        return o;
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
