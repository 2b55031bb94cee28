package dev.luavm.contract;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.Limits;
import dev.luavm.audit.RunEnded;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 23 item 3: {@code limits.audit}, optional, bounds a contracted run's audit log; past it the run ends as {@code limit} (audit). */
class ContractAuditLimitTest {
    private final TestHost host = new TestHost();

    @Test
    void limitsAuditIsOptionalAndBoundsTheRunsLog() throws Exception {
        // without it (every contract written before it): the runtime's default
        Contract plain = Contract.parse("c.yaml", TestHost.contract());
        assertEquals(Limits.DEFAULT_AUDIT_EVENTS, plain.limits().auditEvents());
        assertEquals(Limits.DEFAULT_AUDIT_EVENTS, plain.limits().toLimits().auditEvents());
        Contract bounded = Contract.parse("c.yaml",
                TestHost.contract("limits: {gas: 10000000, memory: 4MiB, time: 2s, output: 1KiB, depth: 100, audit: 6}"));
        assertEquals(6, bounded.limits().auditEvents());
        assertTrue(String.join("\n", ContractSummary.lines(bounded, host.registry())).contains("audit 6 events"),
                String.join("\n", ContractSummary.lines(bounded, host.registry())));
        ContractException e = assertThrows(ContractException.class, () -> Contract.parse("c.yaml",
                TestHost.contract("limits: {gas: 1, memory: 1MiB, time: 1s, output: 1KiB, depth: 10, audit: 0}")));
        assertEquals("limits.audit", e.field());

        String script = "local input = ... local v for i = 1, 10 do v = lookup(input.name) end return {value = v}";
        Outcome ok = plain.bind(host.registry()).run("job.lua", script.getBytes(StandardCharsets.UTF_8),
                new ObjectMapper().readTree("{\"name\": \"a\"}"));
        assertEquals(Category.OK, ok.category(), ok.message());
        Outcome o = bounded.bind(host.registry()).run("job.lua", script.getBytes(StandardCharsets.UTF_8),
                new ObjectMapper().readTree("{\"name\": \"a\"}"));
        assertEquals(Category.LIMIT, o.category(), o.message());
        assertEquals("audit", o.limit());
        assertEquals("audit limit exceeded", o.message());
        RunEnded end = assertInstanceOf(RunEnded.class, o.audit().get(o.audit().size() - 1));
        assertEquals("audit", end.limit());
        assertEquals(7, o.audit().size()); // 6 events, then the run's end
    }
}
