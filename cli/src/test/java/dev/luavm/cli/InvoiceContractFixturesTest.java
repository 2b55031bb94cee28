package dev.luavm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.audit.Digests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.luavm.cli.MainTest.luavm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worked example, examples/invoice-contract/: its four failure fixtures replay byte for byte
 * with {@code luavm replay}, still match their sources, and fail into review when run again.
 */
@Timeout(120)
class InvoiceContractFixturesTest {
    static final Path EXAMPLE = Path.of("..", "examples", "invoice-contract");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path script(String fixture) {
        Path own = EXAMPLE.resolve("fixtures").resolve(fixture).resolve("normalize.lua");
        return Files.exists(own) ? own : EXAMPLE.resolve("normalize.lua");
    }

    private static List<String> lines(Path log) throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) if (!l.isBlank()) out.add(l);
        return out;
    }

    /** The log's line of {@code type} (the first, or the last), without the chain's own fields. */
    private static String line(List<String> lines, String type, boolean last) throws IOException {
        String found = null;
        for (String l : lines) {
            if (JSON.readTree(l).path("type").asText().equals(type)) {
                found = l;
                if (!last) break;
            }
        }
        com.fasterxml.jackson.databind.node.ObjectNode o = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(found);
        o.remove(List.of("prev", "seal", "hmac"));
        return o.toString();
    }

    private static String outcomeLine(List<String> lines) throws IOException {
        return line(lines, "contract_outcome", true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"malformed-input", "forbidden-call", "timeout", "bad-output"})
    void theFixtureReplaysByteForByte(String fixture) throws IOException {
        Path log = EXAMPLE.resolve("fixtures").resolve(fixture).resolve("audit.jsonl");
        List<String> recorded = lines(log);
        MainTest.Outcome o = luavm("replay", log.toString());
        assertEquals(0, o.status(), o.err());
        assertEquals(outcomeLine(recorded) + "\n", o.out());   // the outcome line, reproduced exactly
    }

    @ParameterizedTest
    @ValueSource(strings = {"malformed-input", "forbidden-call", "timeout", "bad-output"})
    void theFixtureIsRecordedFromTheCurrentSources(String fixture) throws IOException {
        Path log = EXAMPLE.resolve("fixtures").resolve(fixture).resolve("audit.jsonl");
        JsonNode head = JSON.readTree(line(lines(log), "contract_run", false));
        String why = " (run examples/invoice-contract/fixtures/regen.sh after changing the example)";
        assertEquals(Files.readString(EXAMPLE.resolve("contract.yaml")), head.path("contractText").asText(), "contract.yaml changed" + why);
        assertEquals(Digests.sha256(Files.readAllBytes(script(fixture))), head.path("scriptSha256").asText(), "the script changed" + why);
        assertEquals(Files.readString(EXAMPLE.resolve("fixtures").resolve(fixture).resolve("input.json")),
                head.path("inputText").asText(), "input.json changed" + why);
    }

    @ParameterizedTest
    @ValueSource(strings = {"malformed-input", "forbidden-call", "timeout", "bad-output"})
    void runningTheFixtureAgainFailsIntoReviewAsRecorded(String fixture) throws IOException {
        Path fx = EXAMPLE.resolve("fixtures").resolve(fixture);
        List<String> recorded = lines(fx.resolve("audit.jsonl"));
        JsonNode expected = JSON.readTree(outcomeLine(recorded));
        MainTest.Outcome o = luavm("run", "--contract", EXAMPLE.resolve("contract.yaml").toString(),
                "--input", fx.resolve("input.json").toString(), script(fixture).toString());
        JsonNode got = JSON.readTree(o.out());
        assertEquals(expected.path("category").asText(), got.path("category").asText(), o.out());
        assertEquals(statusOf(expected.path("category").asText()), o.status());
        assertTrue(got.path("result").isNull(), "a failed run's result is withheld: " + o.out());
        assertEquals(expected.path("message").asText() + " (result withheld; the item is marked for manual review)",
                got.path("message").asText());
        assertEquals(List.of("category", "result", "usage", "message"), fieldNames(got));
    }

    private static int statusOf(String category) {
        return switch (category) {
            case "malformed-input" -> 5;
            case "blocked-capability" -> 6;
            case "limit" -> 3;
            case "bad-output" -> 7;
            case "logic-error" -> 1;
            default -> 0;
        };
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void theFixturesCoverTheFourFailures() throws IOException {
        List<String> categories = new ArrayList<>();
        for (String f : List.of("malformed-input", "forbidden-call", "timeout", "bad-output")) {
            List<String> l = lines(EXAMPLE.resolve("fixtures").resolve(f).resolve("audit.jsonl"));
            JsonNode outcome = JSON.readTree(outcomeLine(l));
            categories.add(outcome.path("category").asText() + (outcome.path("limit").isNull() ? "" : ":" + outcome.path("limit").asText()));
        }
        assertEquals(List.of("malformed-input", "blocked-capability", "limit:time", "bad-output"), categories);
    }

    @Test
    void aTamperedHostAnswerDiverges() throws IOException {
        Path log = dir.resolve("tampered.jsonl");
        String text = Files.readString(EXAMPLE.resolve("fixtures/forbidden-call/audit.jsonl"));
        // the vendor master now "knows" the vendor: the script takes another path
        String tampered = text.replace("\"kind\":\"HOST_RESULTS\",\"seq\":1,\"values\":[null]",
                "\"kind\":\"HOST_RESULTS\",\"seq\":1,\"values\":[\"Hooli Inc\"]");
        assertTrue(!tampered.equals(text));
        Files.writeString(log, tampered);
        MainTest.Outcome o = luavm("replay", log.toString());
        assertEquals(1, o.status(), o.out() + o.err()); // the chain sees the edit
        assertTrue(o.err().contains("the hash chain is broken"), o.err());
        Files.writeString(log, Rechain.of(tampered)); // rewritten consistently (no key): the replay sees it
        o = luavm("replay", log.toString());
        assertEquals(4, o.status(), o.out() + o.err());
        assertTrue(o.err().contains("diverged"), o.err());
    }

    @Test
    void aTamperedOutcomeIsCaught() throws IOException {
        Path log = dir.resolve("tampered.jsonl");
        String edited = Files.readString(EXAMPLE.resolve("fixtures/bad-output/audit.jsonl"))
                .replace("\"category\":\"bad-output\"", "\"category\":\"ok\"");
        Files.writeString(log, edited);
        MainTest.Outcome o = luavm("replay", log.toString());
        assertEquals(1, o.status(), o.err()); // the outcome's seal sees the edit
        assertTrue(o.err().contains("the seal does not match its line"), o.err());
        Files.writeString(log, Rechain.of(edited));
        o = luavm("replay", log.toString());
        assertEquals(4, o.status());
        assertTrue(o.err().contains("the outcome differs"), o.err());
        Files.writeString(log, Rechain.of(Files.readString(EXAMPLE.resolve("fixtures/malformed-input/audit.jsonl"))
                .replace("\\\"amount\\\": \\\"1.250,00\\\"", "\\\"amount\\\": 1250.0")
                .replace("\\\"EURO\\\"", "\\\"EUR\\\"")));
        o = luavm("replay", log.toString());
        assertEquals(4, o.status(), o.err());
        assertTrue(o.err().contains("but the log has no run"), o.err());
    }
}
