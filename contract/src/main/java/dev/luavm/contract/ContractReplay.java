package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.Digests;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.jsonl.AuditKey;
import dev.luavm.audit.jsonl.AuditLogException;
import dev.luavm.audit.jsonl.JsonLinesAuditLog;
import dev.luavm.audit.jsonl.VerifiedLines;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Reproduces the contracted runs of a {@link ContractLog}, block by block, with no live host:
 * the contract is read again from the text in the log; the input is checked again against it;
 * when Lua ran, the run is replayed by {@link Replayer} (every host answer, the seed and the
 * clocks from the recording; identical output, results, errors, gas and host calls, or the first
 * divergence); then the outcome is classified again from the replayed log and the recorded
 * result, and its line must equal the recorded {@code contract_outcome} line byte for byte.
 */
public final class ContractReplay {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ContractReplay() {}

    /**
     * One block's replay.
     *
     * @param line     the block's first line in the file (from 1)
     * @param chunk    the script's chunk name
     * @param expected the recorded outcome line
     * @param got      the replayed outcome line (null when the replay stopped first)
     * @param problem  why the block is not identical, or null
     * @param notes    remarks that are not differences
     */
    public record Block(int line, String chunk, String expected, String got, String problem, List<String> notes) {
        public boolean identical() {
            return problem == null;
        }
    }

    /** True when {@code file} holds a contract log: its first line after the chain's {@code log_started} starts a block. */
    public static boolean isContractLog(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) continue;
                String type = MAPPER.readTree(line).path("type").asText();
                if (type.equals("log_started")) continue;
                return ContractLog.RUN.equals(type);
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * Replays every block of {@code file}.
     *
     * @param hosts the host's registry for the module names a block names (for the declarations:
     *              argument checks and redaction as in the original run; the functions are never
     *              called), or null when not at hand (the recorded calls are then answered by stubs)
     * @throws IOException when the file cannot be read or is not a contract log
     */
    public static List<Block> replay(Path file, Function<List<String>, Capabilities> hosts, LuaVM vm) throws IOException {
        return replay(file, null, hosts, vm);
    }

    /**
     * Replays every block of {@code file}, a log sealed with {@code key} (null: unkeyed). The
     * whole log is verified first (its hash chain, every seal and HMAC, its end:
     * {@link VerifiedLines}); a log that does not verify is refused before anything runs.
     *
     * @throws IOException when the file cannot be read, does not verify ({@link AuditLogException}
     *                     names the line) or is not a contract log
     */
    public static List<Block> replay(Path file, AuditKey key, Function<List<String>, Capabilities> hosts, LuaVM vm)
            throws IOException {
        List<ObjectNode> lines = new ArrayList<>();
        List<Long> numbers = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            VerifiedLines.read(in, key, SEALED, VerifiedLines.Bounds.defaults(), (number, line) -> {
                lines.add(line);
                numbers.add(number);
            });
        }
        List<Block> out = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            int start = i;
            JsonNode head = lines.get(i);
            if (!ContractLog.RUN.equals(head.path("type").asText())) {
                throw new IOException("line " + numbers.get(i) + ": expected a contract_run line");
            }
            List<AuditEvent> events = new ArrayList<>();
            List<Long> positions = new ArrayList<>();
            ObjectNode outcome = null;
            for (i++; i < lines.size(); i++) {
                ObjectNode n = lines.get(i);
                if (ContractLog.OUTCOME.equals(n.path("type").asText())) {
                    outcome = withoutChain(n);
                    i++;
                    break;
                }
                if (ContractLog.RUN.equals(n.path("type").asText())) break;
                try {
                    events.add(JsonLinesAuditLog.parse(withoutChain(n).toString()));
                } catch (IOException | RuntimeException e) {
                    throw new IOException("line " + numbers.get(i) + ": not an audit event (" + e.getMessage() + ")", e);
                }
                positions.add(numbers.get(i));
            }
            out.add(block(numbers.get(start).intValue(), head, events, positions, outcome, hosts, vm));
        }
        if (out.isEmpty()) throw new IOException("no contract run in " + file);
        return out;
    }

    /** The line types of a contract log that carry a seal (besides log_closed). */
    private static final Set<String> SEALED = Set.of("run_ended", ContractLog.OUTCOME);

    /** {@code line} without the chain's own fields: what the writer was given. */
    private static ObjectNode withoutChain(ObjectNode line) {
        ObjectNode o = line.deepCopy();
        o.remove(List.of("prev", "seal", "hmac"));
        return o;
    }

    private static Block block(int line, JsonNode head, List<AuditEvent> events, List<Long> positions, JsonNode recordedOutcome,
                               Function<List<String>, Capabilities> hosts, LuaVM vm) {
        String chunk = head.path("chunk").asText();
        List<String> notes = new ArrayList<>();
        if (recordedOutcome == null) return new Block(line, chunk, null, null, "the block has no outcome line (the run did not finish)", notes);
        String expected = recordedOutcome.toString();
        String text = head.path("contractText").asText();
        if (!Digests.sha256(text.getBytes(StandardCharsets.UTF_8)).equals(head.path("contractSha256").asText())) {
            return new Block(line, chunk, expected, null, "the contract text does not match its recorded SHA-256", notes);
        }
        Contract contract;
        try {
            contract = Contract.parse(head.path("contract").asText(), text);
        } catch (ContractException e) {
            return new Block(line, chunk, expected, null, "the recorded contract does not load: " + e.getMessage(), notes);
        }
        ContractRunner runner = null;
        List<String> hostNames = new ArrayList<>();
        head.path("host").forEach(h -> hostNames.add(h.asText()));
        Capabilities registry = hosts == null ? null : hosts.apply(hostNames);
        if (registry != null) {
            try {
                runner = ContractRunner.bind(contract, registry, HostCallPolicy.allowAll(), vm);
            } catch (ContractException e) {
                notes.add("the host at hand does not fit the contract (" + e.problem() + "): host calls answered by stubs");
            }
        } else {
            notes.add("no host registry at hand: host calls answered by stubs");
        }
        String sha = head.path("scriptSha256").asText();
        byte[] scriptText = head.path("script").asText().getBytes(StandardCharsets.UTF_8);
        Disclosure disclosure = new Disclosure(contract, chunk, scriptText);
        byte[] inputText = head.path("inputText").asText().getBytes(StandardCharsets.UTF_8);
        JsonNode input = ContractRunner.parseInput(inputText);
        Outcome replayed;
        if (input == null || ContractRunner.malformed(contract, disclosure, input, sha) != null) {
            replayed = input == null ? ContractRunner.notJson(contract, sha) : ContractRunner.malformed(contract, disclosure, input, sha);
            if (!events.isEmpty()) {
                return new Block(line, chunk, expected, null, "the log has a run, but the replay rejects the input: " + replayed.message(), notes);
            }
        } else {
            if (events.isEmpty()) {
                // no sandbox ran: the script did not compile, or the log lost its run
                byte[] script = scriptText;
                if (!Digests.sha256(script).equals(sha)) {
                    return new Block(line, chunk, expected, null, "the log has no run, and its script text does not match the script's SHA-256", notes);
                }
                replayed = ContractRunner.compileFailure(vm, disclosure, chunk, script);
                if (replayed == null) {
                    return new Block(line, chunk, expected, null, "the replay accepts the input and compiles the script, but the log has no run", notes);
                }
                String got = ContractLog.outcomeLine(replayed, contract).toString();
                return got.equals(expected) ? new Block(line, chunk, expected, got, null, notes)
                        : new Block(line, chunk, expected, got, "the outcome differs", notes);
            }
            Recording recording;
            try {
                long[] at = new long[positions.size()];
                for (int k = 0; k < at.length; k++) at[k] = positions.get(k);
                recording = Recording.of(events, events.get(0).sandbox(), at, "line");
            } catch (RuntimeException e) {
                return new Block(line, chunk, expected, null, "the run's recording is incomplete: " + e.getMessage(), notes);
            }
            Replayer.Builder b = Replayer.builder(vm, recording);
            if (runner != null) b.capabilities(runner.capabilities());
            ReplayResult r = b.build().replay();
            notes.addAll(r.notes());
            if (!r.identical()) return new Block(line, chunk, expected, null, "the run diverged: " + r.divergence(), notes);
            RunEnded end = null;
            for (AuditEvent e : events) if (e instanceof RunEnded re) end = re;
            JsonNode returned = recordedOutcome.path("returned");
            boolean kept = returned != null && !returned.isNull();
            JsonValues.NotConvertible problem = null;
            String message = recordedOutcome.path("message").asText("");
            if (end != null && end.outcome() == RunEnded.Outcome.OK && !kept) {
                if (message.startsWith("the result is not JSON: ")) {
                    String why = message.substring("the result is not JSON: ".length());
                    problem = new JsonValues.NotConvertible(why, why);
                } else if (!contract.audit().output()) {
                    notes.add("the result was not kept (audit without output): its check against the output schema is not repeated");
                    return new Block(line, chunk, expected, expected, null, notes);
                }
            }
            Usage usage = end != null && end.usage() != null ? end.usage() : ContractRunner.NO_USAGE;
            replayed = ContractRunner.classify(contract, disclosure, events, kept ? returned : null, problem, usage, sha, null);
        }
        String got = ContractLog.outcomeLine(replayed, contract).toString();
        if (!got.equals(expected)) return new Block(line, chunk, expected, got, "the outcome differs", notes);
        return new Block(line, chunk, expected, got, null, notes);
    }
}
