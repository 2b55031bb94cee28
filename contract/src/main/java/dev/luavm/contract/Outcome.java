package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;

import java.util.List;
import java.util.Objects;

/**
 * How one contracted run ended.
 *
 * @param category     the outcome's class ({@link Category})
 * @param result       the script's result as JSON, only for {@link Category#OK}; null otherwise (withheld)
 * @param limit        for {@link Category#LIMIT}: which ({@code gas}, {@code memory}, {@code time},
 *                     {@code output}, {@code depth}, {@code cancelled}); else null
 * @param message      what happened, in a line or a few (null for OK)
 * @param usage        what the run used (zero when no Lua ran)
 * @param audit        the run's audit log: run started, every host call, clock readings, run ended
 *                     (empty when no Lua ran)
 * @param scriptSha256 SHA-256 of the script's bytes, in hex
 * @param output       what the script printed, when the contract's audit keeps output; else null
 * @param returned     what the script returned, as JSON, whether released or withheld (for the
 *                     record and for replay); null when it returned nothing JSON can hold or did not return
 */
public record Outcome(Category category, JsonNode result, String limit, String message, Usage usage,
                      List<AuditEvent> audit, String scriptSha256, String output, JsonNode returned) {
    public Outcome {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(usage, "usage");
        audit = List.copyOf(audit);
        if (category != Category.OK && result != null) throw new IllegalArgumentException("a failed run's result is withheld");
    }

    /** True for {@link Category#OK}. */
    public boolean ok() {
        return category == Category.OK;
    }

    /**
     * The outcome as {@code luavm run --contract} prints it:
     * {@code {"category": ..., "result": ..., "usage": {...}, "message": ...}}; a limit's name
     * is in {@code message} ({@code "limit: time limit exceeded"}).
     */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("category", category.label);
        o.set("result", result == null ? f.nullNode() : result);
        ObjectNode u = o.putObject("usage");
        u.put("gas", usage.gas());
        u.put("memoryBytes", usage.memoryBytes());
        u.put("peakMemoryBytes", usage.peakMemoryBytes());
        u.put("outputBytes", usage.outputBytes());
        u.put("elapsedMillis", usage.elapsed().toMillis());
        if (message == null) o.putNull("message");
        else o.put("message", message);
        return o;
    }
}
