package dev.luavm.audit.jsonl;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.Recorded;
import dev.luavm.replay.Recording;
import dev.luavm.replay.ReplayResult;
import dev.luavm.replay.Replayer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a JSON Lines log back: every event, and recorded values exactly as the host gave them. */
class JsonLinesAuditLogTest {
    @Test
    void recordedValuesRoundTripExactly() throws Exception {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(2L, "two");
        m.put("2", 2.0);
        m.put(true, Arrays.asList(1L, null, Double.NaN, Double.NEGATIVE_INFINITY, -0.0));
        byte[] binary = {(byte) 0xff, 0, 'a'};
        List<Object> values = new ArrayList<>(List.of(m, "text", 1L, 1.0, 1e300));
        values.add(binary);
        values.add(null);
        Recorded r = new Recorded("s", 1, Recorded.Kind.HOST_RESULTS, 3, values, false);
        String line = JsonLinesAuditSink.toJson(r).toString();
        Recorded back = (Recorded) JsonLinesAuditLog.parse(line);
        assertEquals(Recorded.Kind.HOST_RESULTS, back.kind());
        assertEquals(3, back.seq());
        @SuppressWarnings("unchecked")
        Map<Object, Object> bm = (Map<Object, Object>) back.values().get(0);
        assertEquals(List.of(2L, "2", true), new ArrayList<>(bm.keySet()));
        assertEquals(2.0, bm.get("2"));
        @SuppressWarnings("unchecked")
        List<Object> l = (List<Object>) bm.get(true);
        assertEquals(1L, l.get(0));
        assertEquals(null, l.get(1));
        assertTrue(Double.isNaN((Double) l.get(2)));
        assertEquals(Double.NEGATIVE_INFINITY, l.get(3));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) l.get(4)));
        assertEquals(List.of("text", 1L, 1.0, 1e300), back.values().subList(1, 5));
        assertArrayEquals(binary, (byte[]) back.values().get(5));
        assertEquals(null, back.values().get(6));
    }

    @Test
    void aLogReadBackReplaysIdentically() throws Exception {
        Capabilities caps = Capabilities.standard().toBuilder()
                .declare("kv.get", "Read").safe().param("k", "string", "key").grant(c -> Map.of("k", c.stringArg(0), "n", 1.5))
                .build();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        MemoryAuditSink mem = new MemoryAuditSink();
        JsonLinesAuditSink jsonl = new JsonLinesAuditSink(file);
        try (Sandbox sb = LuaVM.create().sandbox().capabilities(caps).record(true).audit(e -> {
            mem.write(e);
            jsonl.write(e);
        }).build()) {
            sb.eval("local v = kv.get('a') print(v.k, v.n, os.time() > 0, os.clock() >= 0, {}) return v.n");
        }
        jsonl.close();
        List<AuditEvent> read = JsonLinesAuditLog.readLog(new java.io.ByteArrayInputStream(file.toByteArray()), null,
                VerifiedLines.Bounds.defaults()).events();
        assertEquals(mem.events().size(), read.size());
        ReplayResult r = Replayer.replay(LuaVM.create(), Recording.of(read));
        assertTrue(r.identical(), r::toString);
        ReplayResult declared = Replayer.builder(LuaVM.create(), Recording.of(read)).capabilities(caps).build().replay();
        assertTrue(declared.identical(), declared::toString);
    }
}
