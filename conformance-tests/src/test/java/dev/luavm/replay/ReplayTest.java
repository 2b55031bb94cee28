package dev.luavm.replay;

import dev.luavm.Capabilities;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.HostFunctionException;
import dev.luavm.host.HostCallPolicy;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 9 part 4: recordings replayed in the same JVM, against the recording alone. */
class ReplayTest {
    static final String SCRIPT = String.join("\n",
            "local t = {}",
            "print(t, {}, print, function() end)",
            "local keys = {}",
            "for i = 1, 20 do keys[{}] = i end",
            "local order = {}",
            "for k, v in pairs(keys) do order[#order + 1] = v end",
            "print(table.concat(order, ','))",
            "local list = {}",
            "for i = 1, 10000 do list[i] = math.random(1, 50) end",
            "table.sort(list)",
            "print(list[1], list[5000], list[10000], math.random())",
            "print(os.time(), os.date('%Y'), os.clock() >= 0)",
            "local price = shop.price('apple')",
            "local ok, err = pcall(shop.buy, 'apple', 5000)",
            "print(price.amount, price.currency, ok, err)",
            "print(shop.stock())",
            "return price.amount * 2, #order");

    private final AtomicLong stock = new AtomicLong(10);

    Capabilities caps() {
        return Capabilities.standard().toBuilder()
                .declare("shop.price", "Price of an item").safe().param("item", "string", "the item")
                .grant(c -> Map.of("amount", 125L, "currency", "EUR"))
                .declare("shop.buy", "Buy an item").unsafe().param("item", "string", "the item")
                .param("qty", "integer", "how many", ArgConstraint.range(1, 1000)).grant(c -> true)
                .declare("shop.stock", "Stock left").safe().grant(c -> stock.getAndDecrement())
                .build();
    }

    record Recorded(List<AuditEvent> events, String output, List<Object> results) {}

    Recorded record(String script, long seed) {
        MemoryAuditSink log = new MemoryAuditSink();
        LuaVM vm = LuaVM.builder().build();
        try (Sandbox sb = vm.sandbox().capabilities(caps()).audit(log).record(true).randomSeed(seed).build()) {
            List<Object> results = sb.evalAll("shop.lua", script);
            return new Recorded(log.events(), sb.output(), results);
        }
    }

    @Test
    void replayOfAnUnchangedScriptIsIdentical() {
        Recorded r = record(SCRIPT, 42);
        Recording rec = Recording.of(r.events());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReplayResult res = Replayer.builder(LuaVM.builder().build(), rec).output(out::write).build().replay();
        assertTrue(res.identical(), res::toString);
        assertEquals(r.output(), out.toString(StandardCharsets.UTF_8));
        // and with the original declarations: verdicts and reasons compared too
        ReplayResult declared = Replayer.builder(LuaVM.builder().build(), rec).capabilities(caps()).build().replay();
        assertTrue(declared.identical(), declared::toString);
        System.out.println("recorded output:\n" + r.output());
    }

    @Test
    void aChangedScriptDivergesAtTheFirstDifferentEvent() {
        Recorded r = record(SCRIPT, 42);
        Recording rec = Recording.of(r.events());
        String changed = SCRIPT.replace("pcall(shop.buy, 'apple', 5000)", "pcall(shop.buy, 'pear', 5000)");
        ReplayResult res = Replayer.builder(LuaVM.builder().build(), rec).source(1, changed).build().replay();
        assertFalse(res.identical());
        Divergence d = res.divergence();
        System.out.println(d);
        assertTrue(d.what().startsWith("host call #2 shop.buy: args"), d::toString);
        int expectedEvent = 0;
        for (int i = 0; i < r.events().size(); i++) {
            if (r.events().get(i) instanceof dev.luavm.audit.HostCallEvent h && h.seq() == 2) expectedEvent = i + 1;
        }
        assertEquals(expectedEvent, d.event());
    }

    @Test
    void aChangeThatOnlyChangesGasIsReportedAtTheRunsEnd() {
        Recorded r = record("local x = 0 for i = 1, 10 do x = x + i end print(x)", 1);
        ReplayResult res = Replayer.builder(LuaVM.builder().build(), Recording.of(r.events()))
                .source(1, "local x = 0 for i = 1, 11 do x = x + i end print(x - 11)").build().replay();
        assertFalse(res.identical());
        System.out.println(res.divergence());
        assertTrue(res.divergence().what().contains("output") || res.divergence().what().contains("gas"), res::toString);
    }
}
