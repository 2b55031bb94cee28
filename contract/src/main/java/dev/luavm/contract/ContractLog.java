package dev.luavm.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.Digests;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.AuditKey;
import dev.luavm.audit.jsonl.ChainedJsonLines;
import dev.luavm.audit.jsonl.JsonLinesAuditSink;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The record of contracted runs, as JSON Lines: for each run a block of
 * <ol>
 *   <li>{@code {"type": "contract_run", ...}}: the contract's file name, text and SHA-256, the
 *       host modules, the chunk name, the script and its SHA-256, and the input exactly as given;</li>
 *   <li>the run's audit events with its recording (source, inputs, host results in full), as
 *       {@link JsonLinesAuditSink} writes them; none when the input was rejected;</li>
 *   <li>{@code {"type": "contract_outcome", ...}}: category, limit, message, the released result
 *       and what the script returned (kept even when withheld, when the contract's audit keeps
 *       output).</li>
 * </ol>
 * {@link ContractReplay} (and {@code luavm replay LOG}) reproduces each block. The file is a
 * hash-chained, sealed log ({@link ChainedJsonLines}, docs/AUDIT.md): each run's
 * {@code run_ended} and each block's {@code contract_outcome} are seals, and {@link #close()}
 * ends the log with its sealed {@code log_closed}; with an {@link AuditKey} every seal carries an
 * HMAC under it. Lines are flushed as written; a failure to write stops the run (fail closed).
 */
public final class ContractLog implements Closeable {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    static final String RUN = "contract_run";
    static final String OUTCOME = "contract_outcome";

    private final ChainedJsonLines out;

    /** Appends to {@code file}, creating it when absent (unkeyed). */
    public static ContractLog append(Path file) throws IOException {
        return append(file, null);
    }

    /** Appends to {@code file}, creating it when absent, sealed with {@code key} (null: unkeyed). */
    public static ContractLog append(Path file, AuditKey key) throws IOException {
        return new ContractLog(ChainedJsonLines.append(file, key));
    }

    /** Writes to {@code out} (which this log closes), unkeyed. */
    public ContractLog(OutputStream out) {
        this(new ChainedJsonLines(Objects.requireNonNull(out, "out"), null));
    }

    private ContractLog(ChainedJsonLines out) {
        this.out = out;
    }

    /**
     * Runs {@code script} under {@code runner}'s contract on the input given as JSON text, and
     * logs the run as one block.
     *
     * @param hosts the names of the host modules behind the registry (for the replay to find them)
     * @throws IOException when the log cannot be written (the run stops at the first failed write)
     */
    public synchronized Outcome run(ContractRunner runner, List<String> hosts, String chunkName, byte[] script,
                                    byte[] inputJson, ContractRunner.Settings settings) throws IOException {
        Contract c = runner.contract();
        ObjectNode head = NODES.objectNode();
        head.put("type", RUN);
        head.put("contract", c.file());
        head.put("contractSha256", Digests.sha256(c.text().getBytes(StandardCharsets.UTF_8)));
        head.put("contractText", c.text());
        head.set("host", MAPPER.valueToTree(hosts));
        head.put("chunk", chunkName);
        head.put("scriptSha256", Digests.sha256(script));
        head.put("script", new String(script, StandardCharsets.UTF_8));   // for a reviewer, and to replay a script that does not compile
        head.put("inputText", new String(inputJson, StandardCharsets.UTF_8));
        out.write(head);
        AuditSink sink = this::event;
        Outcome o;
        try {
            o = runner.run(chunkName, script, inputJson, settings.withAudit(sink).withRecording(true));
        } catch (dev.luavm.LuaAuditException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        out.seal(outcomeLine(o, c));
        return o;
    }

    /** The block's last line: what the run came to. */
    static ObjectNode outcomeLine(Outcome o, Contract c) {
        ObjectNode n = NODES.objectNode();
        n.put("type", OUTCOME);
        n.put("category", o.category().label);
        n.put("limit", o.limit());
        n.put("message", o.message());
        n.set("result", o.result() == null ? NODES.nullNode() : o.result());
        n.set("returned", o.returned() == null || !c.audit().output() ? NODES.nullNode() : o.returned());
        return n;
    }

    private void event(AuditEvent e) throws IOException {
        if (e instanceof RunEnded) out.seal(JsonLinesAuditSink.toJson(e));
        else out.write(JsonLinesAuditSink.toJson(e));
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
