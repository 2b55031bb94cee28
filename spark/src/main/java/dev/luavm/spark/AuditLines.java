package dev.luavm.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;

/**
 * One row's audit column: its host-call events as JSON Lines, each in the form the audit log's
 * JSON Lines file writes ({@link JsonLinesAuditSink#toJson}), less {@code elapsedNanos}, which
 * is wall time and would make the column differ between two runs of the same row. The run's
 * start and end events are left out: the row's other columns already say how it ended.
 */
final class AuditLines implements AuditSink {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StringBuilder lines = new StringBuilder();

    @Override
    public void write(AuditEvent event) throws Exception {
        if (!(event instanceof HostCallEvent)) return;
        ObjectNode o = JsonLinesAuditSink.toJson(event);
        o.remove("elapsedNanos");
        lines.append(JSON.writeValueAsString(o)).append('\n');
    }

    /** The lines so far; empty when the row made no host call. */
    String text() {
        return lines.toString();
    }
}
