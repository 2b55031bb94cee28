package dev.luavm.audit.jsonl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.Redactor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonLinesAuditSinkTest {
    private static final Capabilities CAPS = Capabilities.standard().toBuilder()
            .declare("vault.read", "Read a secret").safe()
            .param("name", "string", "secret name").param("pin", "integer", "the pin")
            .redact(Redactor.hide("pin"))
            .grant(c -> java.util.Map.of("name", c.stringArg(0), "ratio", 0.5, "n", 3L))
            .declare("vault.wipe", "Wipe the vault").forbid()
            .build();

    private static List<JsonNode> read(Path file) throws Exception {
        ObjectMapper m = new ObjectMapper();
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) out.add(m.readTree(line));
        return out;
    }

    @Test
    void writesOneObjectPerEvent(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.append(log);
             Sandbox sb = LuaVM.create().sandbox().name("tool").capabilities(CAPS).audit(sink).randomSeed(7).build()) {
            sb.eval("agent.lua", "local s = vault.read('db', 73915286407) pcall(vault.wipe) return s.n, 1.0, 0/0");
            assertThrows(LuaLimitException.class, () -> sb.eval("loop.lua", "while true do end"));
        }
        List<JsonNode> all = read(log);
        assertEquals(List.of("log_started", "run_started", "host_call", "host_call", "run_ended", "run_started", "run_ended",
                        "log_closed"), all.stream().map(n -> n.get("type").asText()).toList());
        List<JsonNode> lines = all.subList(1, all.size() - 1);
        JsonNode start = lines.get(0);
        assertEquals("tool", start.get("sandbox").asText());
        assertEquals(1, start.get("run").asLong());
        assertEquals("agent.lua", start.get("chunk").asText());
        assertEquals(64, start.get("sourceSha256").asText().length());
        assertEquals(7, start.get("randomSeed").asLong());
        assertEquals(Limits.DEFAULT_GAS, start.get("limits").get("gas").asLong());
        JsonNode read = lines.get(1);
        assertEquals("vault.read", read.get("function").asText());
        assertEquals("[\"db\",\"<redacted>\"]", read.get("args").toString());
        assertEquals("ALLOWED", read.get("verdict").asText());
        assertEquals("RETURNED", read.get("outcome").asText());
        assertEquals(0.5, read.get("results").get(0).get("ratio").asDouble());
        assertTrue(read.get("results").get(0).get("n").isIntegralNumber());
        assertFalse(read.get("complete").asBoolean());
        JsonNode wipe = lines.get(2);
        assertEquals("FORBIDDEN", wipe.get("verdict").asText());
        assertEquals("permission denied: vault.wipe: forbidden", wipe.get("error").asText());
        JsonNode end = lines.get(3);
        assertEquals("OK", end.get("outcome").asText());
        assertEquals(2, end.get("hostCalls").asLong());
        assertTrue(end.get("usage").get("gas").asLong() > 0);
        JsonNode limited = lines.get(5);
        assertEquals("LIMIT", limited.get("outcome").asText());
        assertEquals("gas", limited.get("limit").asText());
        // the redacted pin appears nowhere (long enough that no hash, timestamp or duration holds it by chance)
        assertFalse(Files.readString(log).contains("73915286407"));
    }

    @Test
    void aClosedFileFailsTheRunClosed(@TempDir Path dir) throws Exception {
        JsonLinesAuditSink sink = JsonLinesAuditSink.append(dir.resolve("a.jsonl"));
        sink.close();
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(CAPS).audit(sink).policy(HostCallPolicy.allowAll()).build()) {
            LuaAuditException e = assertThrows(LuaAuditException.class, () -> sb.eval("return 1"));
            assertEquals("audit log closed", e.getCause().getMessage());
        }
    }
}
