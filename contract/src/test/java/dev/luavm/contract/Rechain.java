package dev.luavm.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.audit.jsonl.ChainedJsonLines;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * What anyone can do to an unkeyed log: recompute its whole chain after editing it (every
 * {@code prev}, every seal, the {@code log_closed} count). The tests use it to show that an
 * unkeyed log rewritten consistently still fails where its content no longer replays, and that a
 * keyed one cannot be rewritten this way.
 */
final class Rechain {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> SEALED = Set.of("run_ended", "contract_outcome");

    private Rechain() {}

    /** The log's lines (each a JSON object, possibly edited) chained and sealed afresh, unkeyed. */
    static String of(String log) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChainedJsonLines chain = new ChainedJsonLines(out, null);
        for (String line : log.split("\n")) {
            if (line.isEmpty()) continue;
            ObjectNode o = (ObjectNode) JSON.readTree(line);
            o.remove(List.of("prev", "seal", "hmac"));
            String type = o.path("type").asText();
            if (type.equals("log_started") || type.equals("log_closed")) continue; // the writer writes its own
            if (SEALED.contains(type)) chain.seal(o);
            else chain.write(o);
        }
        chain.close();
        return out.toString(StandardCharsets.UTF_8);
    }
}
