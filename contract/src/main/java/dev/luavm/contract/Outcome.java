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
 * <p>What may leave with the outcome, to whoever the host hands it to, is its category, its
 * result (only for OK), its limit, its message and {@link #toJson()}: the contract's
 * {@code error_detail} ({@link ErrorDetail}) has already decided what the message and the limit
 * say, and whether {@code toJson} shows the usage. The rest is the host's own record, exact
 * whatever the contract says (like the audit log): {@link #usage()}, {@link #audit()},
 * {@link #output()}, {@link #returned()}.
 *
 * @param category     the outcome's class ({@link Category})
 * @param result       the script's result as JSON, only for {@link Category#OK}; null otherwise (withheld)
 * @param limit        for {@link Category#LIMIT}: which ({@code gas}, {@code memory}, {@code time},
 *                     {@code output}, {@code depth}, {@code cancelled}); else null, and null
 *                     under {@code error_detail: none}
 * @param message      what happened, in a line or a few, as {@code error_detail} allows (null for OK)
 * @param usage        what the run used (zero when no Lua ran)
 * @param audit        the run's audit log: run started, every host call, clock readings, run ended
 *                     (empty when no Lua ran)
 * @param scriptSha256 SHA-256 of the script's bytes, in hex
 * @param output       what the script printed, when the contract's audit keeps output; else null
 * @param returned     what the script returned, as JSON, whether released or withheld (for the
 *                     record and for replay); null when it returned nothing JSON can hold or did not return
 * @param detail       the contract's {@code error_detail}, which made the message
 */
public record Outcome(Category category, JsonNode result, String limit, String message, Usage usage,
                      List<AuditEvent> audit, String scriptSha256, String output, JsonNode returned, ErrorDetail detail) {
    public Outcome {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(detail, "detail");
        audit = List.copyOf(audit);
        if (category != Category.OK && result != null) throw new IllegalArgumentException("a failed run's result is withheld");
    }

    /** True for {@link Category#OK}. */
    public boolean ok() {
        return category == Category.OK;
    }

    /**
     * The outcome as {@code luavm run --contract} prints it:
     * {@code {"category": ..., "result": ..., "usage": {...}, "message": ...}}. {@code usage} is
     * null unless the contract's {@code error_detail} is {@code full}: a script can spend
     * exactly as much gas, memory or output as a secret says, whether it then fails or returns.
     */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode o = f.objectNode();
        o.put("category", category.label);
        o.set("result", result == null ? f.nullNode() : result);
        if (detail != ErrorDetail.FULL) {
            o.putNull("usage");
            if (message == null) o.putNull("message");
            else o.put("message", message);
            return o;
        }
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
