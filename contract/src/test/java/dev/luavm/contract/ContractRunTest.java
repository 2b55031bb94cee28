package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.luavm.LuaVM;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.Safety;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Binding a contract to the host's registry, and every part of its enforcement, with each outcome category. */
class ContractRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TestHost host = new TestHost();

    private ContractRunner runner(String... replacements) {
        return Contract.parse("c.yaml", TestHost.contract(replacements)).bind(host.registry());
    }

    private static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Outcome run(ContractRunner r, String script, String input) {
        return r.run("job.lua", script.getBytes(StandardCharsets.UTF_8), json(input));
    }

    private static final String ECHO = "local input = ... return {value = lookup(input.name)}";

    // ------------------------------------------------------------------ binding

    @Test
    void everyFunctionNameMustBeInTheRegistry() {
        ContractException e = assertThrows(ContractException.class, () -> runner("functions: [lookup, send_mail]"));
        assertEquals("functions[1]", e.field());
        assertEquals(4, e.line());
        assertTrue(e.problem().contains("'send_mail' is not in the host's registry (it offers: lookup, note, secret, fetch, slow, fail, app.ledger.post)"),
                e.getMessage());
    }

    @Test
    void aGrantWithAForbiddenEffectFailsLoading() {
        ContractException e = assertThrows(ContractException.class, () -> runner("functions: [lookup, fetch]"));
        assertEquals("functions[1]", e.field());
        assertTrue(e.problem().contains("'fetch' has the effect 'network', which the contract forbids"), e.getMessage());
        e = assertThrows(ContractException.class, () -> runner("functions: [app.ledger.post]", "forbidden: [writes]"));
        assertTrue(e.problem().contains("'writes:ledger'"), e.getMessage());
        e = assertThrows(ContractException.class, () -> runner("functions: [note]", "forbidden: [my-tag, 'writes:queue']"));
        assertTrue(e.problem().contains("'writes:queue'"), e.getMessage());
        // the host's own tags count like the known ones; a FORBIDDEN entry never runs, so it may carry any effect
        runner("functions: [lookup, {name: fetch, safety: forbidden}]");
        runner("functions: [app.ledger.post]", "forbidden: [network, 'writes:queue']");
    }

    @Test
    void aContractMayTightenASafetyClassButNeverLoosenIt() {
        ContractException e = assertThrows(ContractException.class, () -> runner("functions: [{name: note, safety: safe}]"));
        assertEquals("functions[0].safety", e.field());
        assertTrue(e.problem().contains("'safe' is looser than the host's declaration 'unsafe'"), e.getMessage());
        ContractRunner r = runner("functions: [{name: lookup, safety: unsafe}, {name: note, safety: forbidden}]");
        assertEquals(Safety.UNSAFE, r.capabilities().hostFunctions().get("lookup").safety());
        assertEquals(Safety.FORBIDDEN, r.capabilities().hostFunctions().get("note").safety());
    }

    @Test
    void aCallBoundNeedsAnUnsafeFunction() {
        ContractException e = assertThrows(ContractException.class, () -> runner("functions: [{name: lookup, max_calls: 2}]"));
        assertEquals("functions[0].max_calls", e.field());
    }

    @Test
    void librariesMustExist() {
        ContractException e = assertThrows(ContractException.class, () -> runner("libraries: [base, files]"));
        assertEquals("libraries[1]", e.field());
        assertTrue(e.problem().contains("'files' is not a library bundle"), e.getMessage());
    }

    // ------------------------------------------------------------------ enforcement

    @Test
    void okReleasesTheResultWithItsUsageAndLog() {
        Outcome o = run(runner(), ECHO, "{\"name\": \"acme\"}");
        assertEquals(Category.OK, o.category(), o.message());
        assertEquals(json("{\"value\": \"ACME\"}"), o.result());
        assertNull(o.message());
        assertTrue(o.usage().gas() > 0);
        assertInstanceOf(RunStarted.class, o.audit().get(0));
        assertInstanceOf(HostCallEvent.class, o.audit().get(1));
        RunEnded end = assertInstanceOf(RunEnded.class, o.audit().get(o.audit().size() - 1));
        assertEquals(RunEnded.Outcome.OK, end.outcome());
        assertEquals(dev.luavm.audit.Digests.sha256(ECHO.getBytes(StandardCharsets.UTF_8)), o.scriptSha256());
        assertEquals("{\"category\":\"ok\",\"result\":{\"value\":\"ACME\"},\"usage\":", o.toJson().toString().substring(0, 51));
    }

    @Test
    void malformedInputIsRejectedBeforeAnyLuaRuns() {
        Outcome o = run(runner("error_detail: full"), "lookup('x') return {value = 'v'}", "{\"n\": \"three\"}");
        assertEquals(Category.MALFORMED_INPUT, o.category());
        assertTrue(o.message().contains("required property 'name' not found"), o.message());
        assertTrue(o.message().contains("/n: string found, integer expected"), o.message());
        assertNull(o.result());
        assertEquals(0, host.calls.get());
        assertEquals(List.of(), o.audit());
        assertEquals(0, o.usage().gas());
        assertEquals(Category.MALFORMED_INPUT, run(runner(), ECHO, "[1, 2]").category());
        assertEquals(Category.MALFORMED_INPUT, run(runner(), ECHO, "{\"name\": \"x\", \"n\": 123456789012345678901234567890}").category());
        String deep = "{\"name\": \"x\", \"deep\": " + "[".repeat(150) + "]".repeat(150) + "}";
        Outcome tooDeep = run(runner("error_detail: full"), ECHO, deep);
        assertEquals(Category.MALFORMED_INPUT, tooDeep.category());
        assertTrue(tooDeep.message().contains("nested more than 100 levels"), tooDeep.message());
        String wide = "{\"name\": \"x\", \"wide\": [" + "0,".repeat(1_000_001) + "0]}";
        Outcome tooWide = run(runner("error_detail: full"), ECHO, wide);
        assertEquals(Category.MALFORMED_INPUT, tooWide.category());
        assertTrue(tooWide.message().contains("more than 1000000 values"), tooWide.message());
    }

    @Test
    void theInputIsTheChunksArgument() {
        Outcome o = run(runner(), "local input = ... return {value = input.name .. math.type(input.n) .. select('#', ...)}",
                "{\"name\": \"a\", \"n\": 7}");
        assertEquals(json("{\"value\": \"ainteger1\"}"), o.result(), o.message());
    }

    @Test
    void onlyTheContractsLibrariesExist() {
        Outcome o = run(runner("libraries: [base]"),
                "return {value = type(string) .. type(table) .. type(os) .. type(print) .. type(io) .. type(require)}",
                "{\"name\": \"a\"}");
        assertEquals(json("{\"value\": \"niltablenilfunctionnilnil\"}".replace("table", "nil")), o.result(), o.message());
    }

    @Test
    void onlyTheContractsFunctionsExist() {
        Outcome o = run(runner(), "return {value = type(lookup) .. type(note) .. type(secret) .. type(fetch) .. type(app)}",
                "{\"name\": \"a\"}");
        assertEquals(json("{\"value\": \"functionfunctionnilnilnil\"}"), o.result(), o.message());
    }

    @Test
    void aDeniedCallIsBlockedCapabilityEvenWhenCaught() {
        // the contract's quota (max_calls: 2) denies the third call; the script catches it and returns normally
        Outcome o = run(runner(), "for i = 1, 3 do pcall(note, 'n' .. i) end return {value = 'fine'}", "{\"name\": \"a\"}");
        assertEquals(Category.BLOCKED_CAPABILITY, o.category());
        assertNull(o.result());
        assertTrue(o.message().contains("note denied"), o.message());
        assertTrue(o.message().contains("the script caught the refusal and returned"), o.message());
        assertEquals(2, host.calls.get());
        long denied = o.audit().stream().filter(e -> e instanceof HostCallEvent h
                && h.verdict() == HostCallEvent.Verdict.DENIED).count();
        assertEquals(1, denied);
    }

    @Test
    void aForbiddenCallIsBlockedCapabilityEvenWhenCaught() {
        ContractRunner r = runner("functions: [lookup, {name: fetch, safety: forbidden}]", "error_detail: full");
        Outcome o = run(r, "local ok, err = pcall(fetch, 'http://x') return {value = tostring(ok) .. ' ' .. err}", "{\"name\": \"a\"}");
        assertEquals(Category.BLOCKED_CAPABILITY, o.category());
        assertTrue(o.message().contains("fetch forbidden"), o.message());
        assertEquals(0, host.calls.get());
        o = run(r, "fetch('http://x')", "{\"name\": \"a\"}");
        assertEquals(Category.BLOCKED_CAPABILITY, o.category());
        assertTrue(o.message().contains("the run then ended: job.lua:1: permission denied: fetch: forbidden"), o.message());
    }

    @Test
    void theHostsPolicyDecidesUnsafeCallsAfterTheQuotas() {
        Contract c = Contract.parse("c.yaml", TestHost.contract());
        ContractRunner r = ContractRunner.bind(c, host.registry(), HostCallPolicy.denyAll(), LuaVM.create());
        assertEquals(Category.BLOCKED_CAPABILITY, run(r, "note('x') return {value = 'v'}", "{\"name\": \"a\"}").category());
        assertEquals(Category.OK, run(r, ECHO, "{\"name\": \"a\"}").category());   // SAFE: no policy
    }

    @Test
    void eachLimitEndsTheRunAsLimitNamingWhich() {
        String in = "{\"name\": \"a\"}";
        Outcome gas = run(runner("limits: {gas: 100000, memory: 4MiB, time: 10s, output: 1KiB, depth: 100}"), "while true do end", in);
        assertEquals(Category.LIMIT, gas.category());
        assertEquals("gas", gas.limit());
        assertEquals("gas limit exceeded", gas.message());
        Outcome time = run(runner("limits: {gas: 100000000000, memory: 4MiB, time: 200ms, output: 1KiB, depth: 100}"), "while true do end", in);
        assertEquals("time", time.limit());
        Outcome mem = run(runner(), "local t = {} for i = 1, 1e7 do t[i] = ('x'):rep(100) .. i end", in);
        assertEquals("memory", mem.limit(), mem.message());
        Outcome out = run(runner(), "for i = 1, 1000 do print('0123456789') end", in);
        assertEquals("output", out.limit());
        assertEquals(1024, out.output().length());
        Outcome depth = run(runner(), "local function f(n) return 1 + f(n + 1) end f(1)", in);
        assertEquals("depth", depth.limit(), depth.message());
        Outcome slowHost = run(runner("functions: [slow]", "limits: {gas: 1000000, memory: 4MiB, time: 200ms, output: 1KiB, depth: 100}"),
                "slow()", in);
        assertEquals("time", slowHost.limit());
        for (Outcome o : List.of(gas, time, mem, out, depth, slowHost)) {
            assertEquals(Category.LIMIT, o.category());
            assertNull(o.result());
            assertEquals(RunEnded.Outcome.LIMIT, ((RunEnded) o.audit().get(o.audit().size() - 1)).outcome());
        }
    }

    @Test
    void aLuaErrorIsLogicError() {
        Outcome o = run(runner("error_detail: full"), "local input = ... return {value = input.missing.field}", "{\"name\": \"a\"}");
        assertEquals(Category.LOGIC_ERROR, o.category());
        assertTrue(o.message().startsWith("job.lua:1: attempt to index a nil value (field 'missing')"), o.message());
        Outcome syntax = run(runner("error_detail: full"), "return {", "{\"name\": \"a\"}");
        assertEquals(Category.LOGIC_ERROR, syntax.category());
        assertEquals("job.lua:1: unexpected symbol near <eof>", syntax.message());
        Outcome hostFail = run(runner("functions: [fail]", "error_detail: full"), "fail()", "{\"name\": \"a\"}");
        assertEquals(Category.LOGIC_ERROR, hostFail.category());
        assertTrue(hostFail.message().contains("backend down"), hostFail.message());
    }

    @Test
    void aResultOffTheSchemaIsWithheldAsBadOutput() {
        String in = "{\"name\": \"a\"}";
        ContractRunner full = runner("error_detail: full");
        Outcome wrongType = run(full, "return {value = 42}", in);
        assertEquals(Category.BAD_OUTPUT, wrongType.category());
        assertNull(wrongType.result());
        assertTrue(wrongType.message().contains("/value: integer found, string expected"), wrongType.message());
        Outcome extra = run(full, "return {value = 'v', debug = 'leak'}", in);
        assertEquals(Category.BAD_OUTPUT, extra.category());
        assertTrue(extra.message().contains("'debug'"), extra.message());
        assertEquals(Category.BAD_OUTPUT, run(full, "return nil", in).category());
        assertEquals(Category.BAD_OUTPUT, run(full, "", in).category());
        Outcome fn = run(full, "return {value = print}", in);
        assertEquals(Category.BAD_OUTPUT, fn.category());
        assertTrue(fn.message().contains("result.value is a function or coroutine"), fn.message());
        Outcome nan = run(full, "return {value = 0/0}", in);
        assertTrue(nan.message().contains("JSON cannot hold"), nan.message());
        Outcome keys = run(full, "return {value = 'v', [2] = 1}", in);
        assertTrue(keys.message().contains("has the key 2"), keys.message());
        Outcome bytes = run(full, "return {value = '\\255'}", in);
        assertTrue(bytes.message().contains("not UTF-8"), bytes.message());
        Outcome cycle = run(full, "local t = {} t.value = t return t", in);
        assertEquals(Category.BAD_OUTPUT, cycle.category(), cycle.message());
    }

    @Test
    void theAuditRuleDecidesWhatTheLogKeeps() {
        String script = "local s = secret('k') print('printed ' .. s) return {value = lookup('abc')}";
        ContractRunner keepNothing = runner("functions: [lookup, secret]", "audit: []");
        Outcome o = run(keepNothing, script, "{\"name\": \"a\"}");
        assertEquals(Category.OK, o.category(), o.message());
        assertNull(o.output());
        for (AuditEvent e : o.audit()) {
            if (e instanceof HostCallEvent h) {
                assertEquals(List.of(AuditRule.NOT_KEPT), h.args());
                assertEquals(List.of(AuditRule.NOT_KEPT), h.results());
                assertFalse(h.complete());
            }
        }
        ContractRunner keepArgs = runner("functions: [lookup, secret]", "audit: [arguments, output]");
        o = run(keepArgs, script, "{\"name\": \"a\"}");
        assertEquals("printed s3cr3t-k\n", o.output());
        HostCallEvent first = (HostCallEvent) o.audit().get(1);
        assertEquals(List.of("k"), first.args());
        assertEquals(List.of(AuditRule.NOT_KEPT), first.results());
        o = run(runner("functions: [lookup, secret]"), script, "{\"name\": \"a\"}");
        assertEquals(List.of("s3cr3t-k"), ((HostCallEvent) o.audit().get(1)).results());
    }

    @Test
    void theCallersSinkGetsTheSameLog() {
        MemoryAuditSink mine = new MemoryAuditSink();
        Outcome o = runner().run("job.lua", ECHO.getBytes(StandardCharsets.UTF_8), json("{\"name\": \"a\"}"),
                ContractRunner.Settings.DEFAULT.withAudit(mine).withRandomSeed(7).withSandboxName("inv-1"));
        assertEquals(o.audit(), mine.events());
        assertEquals("inv-1", o.audit().get(0).sandbox());
        assertEquals(7, ((RunStarted) o.audit().get(0)).randomSeed());
    }

    @Test
    void aFailingCallersSinkStopsTheRun() {
        assertThrows(dev.luavm.LuaAuditException.class, () -> runner().run("job.lua", ECHO.getBytes(StandardCharsets.UTF_8),
                json("{\"name\": \"a\"}"), ContractRunner.Settings.DEFAULT.withAudit(e -> {
                    throw new java.io.IOException("disk full");
                })));
        assertEquals(0, host.calls.get());
    }

    @Test
    void blockedCapabilityWinsOverALaterLimit() {
        ContractRunner r = runner("functions: [lookup, {name: fetch, safety: forbidden}]",
                "limits: {gas: 100000, memory: 4MiB, time: 10s, output: 1KiB, depth: 100}");
        Outcome o = run(r, "pcall(fetch, 'u') while true do end", "{\"name\": \"a\"}");
        assertEquals(Category.BLOCKED_CAPABILITY, o.category());
        assertTrue(o.message().contains("gas limit exceeded"), o.message());
        assertNotNull(o.usage());
    }
}
