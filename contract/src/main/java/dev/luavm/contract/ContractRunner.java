package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.Usage;
import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.Digests;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.audit.RunEnded;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.Param;
import dev.luavm.host.Redactor;
import dev.luavm.host.Safety;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Enforces a {@link Contract} around runs of a script. Made by {@link Contract#bind} or
 * {@link #bind(Contract, Capabilities, HostCallPolicy, LuaVM)}, which check the contract
 * against the host's registry once; then each {@link #run} is:
 *
 * <ol>
 *   <li>the input checked against the contract's {@code input} schema: a failure ends here, as
 *       {@link Category#MALFORMED_INPUT}, before any Lua runs;</li>
 *   <li>a fresh sandbox granted exactly the contract's libraries and functions (each with the
 *       contract's safety class), under its limits, with the host's policy plus the contract's
 *       per-function quotas, logging to an audit log (and to the caller's sink, if any);</li>
 *   <li>the script compiled (a syntax error is {@link Category#LOGIC_ERROR}, with no log) and
 *       run with the input as its {@code ...};</li>
 *   <li>the outcome classified: a denied or forbidden call anywhere in the log makes it
 *       {@link Category#BLOCKED_CAPABILITY} even when the script caught it; then a limit, a Lua
 *       error; then the first result checked against the {@code output} schema, and withheld
 *       unless it conforms.</li>
 * </ol>
 *
 * Thread-safe: each run has its own sandbox.
 */
public final class ContractRunner {
    private final Contract contract;
    private final Capabilities capabilities;
    private final HostCallPolicy policy;
    private final LuaVM vm;

    private ContractRunner(Contract contract, Capabilities capabilities, HostCallPolicy policy, LuaVM vm) {
        this.contract = contract;
        this.capabilities = capabilities;
        this.policy = policy;
        this.vm = vm;
    }

    /**
     * Checks {@code contract} against the host's {@code registry} and returns its runner.
     * {@code hostPolicy} decides the UNSAFE calls (after the contract's quotas); {@code vm}
     * supplies the library bundles.
     *
     * @throws ContractException naming the file, line and field of the first problem
     */
    public static ContractRunner bind(Contract contract, Capabilities registry, HostCallPolicy hostPolicy, LuaVM vm) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(hostPolicy, "hostPolicy");
        Capabilities.Builder caps = Capabilities.builder();
        List<String> libs = contract.libraries();
        for (int i = 0; i < libs.size(); i++) {
            String lib = libs.get(i);
            if (!lib.equals("standard") && !vm.availableBundles().contains(lib)) {
                throw contract.error("libraries[" + i + "]", "'" + lib + "' is not a library bundle (available: "
                        + String.join(", ", new java.util.TreeSet<>(vm.availableBundles())) + ")");
            }
        }
        caps.bundles(libs);
        List<HostCallPolicy> quotas = new ArrayList<>();
        grant(contract, registry, caps, quotas, contract.functions(), "functions", null);
        List<ModuleRule> modules = contract.modules();
        if (!modules.isEmpty() && !libs.contains("package")) {
            throw contract.error("modules", "a script needs the 'package' library to require a module");
        }
        for (ModuleRule m : modules) grant(contract, registry, caps, quotas, m.functions(), "modules." + m.name() + ".functions", m.name());
        if (contract.filesystem() != null) caps.filesystem(filesystem(contract, registry));
        quotas.add(hostPolicy);
        HostCallPolicy policy = quotas.size() == 1 ? hostPolicy : HostCallPolicy.firstDenyWins(quotas.toArray(new HostCallPolicy[0]));
        return new ContractRunner(contract, caps.build(), policy, vm);
    }

    /**
     * Grants {@code rules} from the registry with the contract's safety classes, effects check,
     * call bounds and audit rule; to the code of {@code module} only, when it is not null.
     */
    private static void grant(Contract contract, Capabilities registry, Capabilities.Builder caps, List<HostCallPolicy> quotas,
                              List<FunctionRule> rules, String field, String module) {
        for (int i = 0; i < rules.size(); i++) {
            FunctionRule rule = rules.get(i);
            String at = field + "[" + i + "]";
            Capabilities.Grant g = registry.hostFunctions().get(rule.name());
            if (g == null) {
                throw contract.error(at, "'" + rule.name() + "' is not in the host's registry (it offers: "
                        + String.join(", ", registry.hostFunctions().keySet()) + ")");
            }
            if (g.module() != null && !g.module().equals(module)) {
                // the host bound it to one module: a contract may not hand it to anyone else
                throw contract.error(at, "'" + rule.name() + "' is granted by the host to module '" + g.module()
                        + "' only (list it under modules." + g.module() + ".functions)");
            }
            Safety safety = rule.safety() == null ? g.safety() : rule.safety();
            if (safety.ordinal() < g.safety().ordinal()) {
                throw contract.error(at + ".safety", "'" + safety.name().toLowerCase() + "' is looser than the host's declaration '"
                        + g.safety().name().toLowerCase() + "' (a contract may only make a function stricter)");
            }
            if (safety != Safety.FORBIDDEN) {
                for (String effect : g.effects()) {
                    String banned = forbids(contract.forbidden(), effect);
                    if (banned != null) {
                        throw contract.error(at, "'" + rule.name() + "' has the effect '" + effect
                                + "', which the contract forbids ('" + banned + "' at line " + contract.line("forbidden") + ")");
                    }
                }
            }
            regrant(caps, g, safety, contract.audit(), module);
            if (rule.maxCallsPerRun() != Long.MAX_VALUE && safety == Safety.UNSAFE) {
                quotas.add(HostCallPolicy.quota(rule.name(), rule.maxCallsPerRun(), Long.MAX_VALUE));
            }
            if (rule.maxCallsPerRun() != Long.MAX_VALUE && safety == Safety.SAFE) {
                throw contract.error(at + ".max_calls", "a SAFE function never consults the policy, so a call bound needs safety 'unsafe'");
            }
        }
    }

    /**
     * The contract's mounts, each the host's mount at that point ({@code registry.filesystem()})
     * narrowed as the contract says: a mode no looser (read-only below overlay below read-write;
     * memory only as memory), a quota no larger, no handle or file quota above the host's. A
     * mount is a {@code filesystem} effect, a written one (memory, overlay, read-write) also
     * {@code writes:fs}; either may be forbidden.
     */
    private static dev.luavm.vfs.Vfs filesystem(Contract contract, Capabilities registry) {
        FilesystemRule rule = contract.filesystem();
        dev.luavm.vfs.Vfs host = registry.filesystem();
        dev.luavm.vfs.Vfs vfs = dev.luavm.vfs.Vfs.create();
        for (int i = 0; i < rule.mounts().size(); i++) {
            FilesystemRule.MountRule m = rule.mounts().get(i);
            String at = "filesystem.mounts[" + i + "]";
            dev.luavm.vfs.Vfs.Mount offered = host == null ? null : host.mount(m.path());
            if (offered == null) {
                List<String> points = new ArrayList<>();
                if (host != null) for (dev.luavm.vfs.Vfs.Mount o : host.mounts()) points.add(o.path());
                throw contract.error(at + ".path", "'" + m.path() + "' is not a mount the host offers (it offers: "
                        + (points.isEmpty() ? "none" : String.join(", ", points)) + ")");
            }
            if (!FilesystemRule.within(m.mode(), offered.mode())) {
                throw contract.error(at + ".mode", "'" + m.mode().word + "' is looser than the host's '" + offered.mode().word
                        + "' (a contract may only make a mount stricter)");
            }
            if (m.quota() != null && m.mode() != offered.mode() && offered.mode() == dev.luavm.vfs.Vfs.Mode.READ_ONLY
                    || m.quota() != null && m.quota() > offered.quota()) {
                throw contract.error(at + ".quota", m.quota() + " bytes is more than the host's quota of " + offered.quota());
            }
            String banned = forbids(contract.forbidden(), "filesystem");
            if (banned == null && m.writable()) banned = forbids(contract.forbidden(), "writes:fs");
            if (banned != null) {
                throw contract.error(at, "'" + m.path() + "' " + (m.writable() ? "is written (effects 'filesystem', 'writes:fs')"
                        : "is read (effect 'filesystem')") + ", which the contract forbids ('" + banned + "' at line "
                        + contract.line("forbidden") + ")");
            }
            vfs = FilesystemRule.mount(vfs, offered, m);
        }
        int open = rule.maxOpenFiles() == null ? host.maxOpenFiles() : Math.min(rule.maxOpenFiles(), host.maxOpenFiles());
        long files = rule.maxFiles() == null ? host.maxFiles() : Math.min(rule.maxFiles(), host.maxFiles());
        vfs = vfs.withMaxOpenFiles(open).withMaxFiles(files);
        // relative names keep the host's working directory while one of the contract's mounts holds it
        return vfs.reaches(host.workingDirectory()) ? vfs.withWorkingDirectory(host.workingDirectory()) : vfs;
    }

    /** The forbidden tag matching {@code effect} ({@code writes} matches {@code writes:ledger}), or null. */
    static String forbids(List<String> forbidden, String effect) {
        for (String f : forbidden) {
            if (effect.equals(f) || effect.startsWith(f + ":")) return f;
        }
        return null;
    }

    /** Grants {@code g} again with the contract's safety class and audit rule (to one module's code, if not null). */
    private static void regrant(Capabilities.Builder caps, Capabilities.Grant g, Safety safety, AuditRule audit, String module) {
        Capabilities.Builder.Declaration d = caps.declare(g.path(), g.description()).safety(safety);
        if (module != null) d.module(module);
        if (g.onSandboxThread()) d.onSandboxThread();
        for (Param p : g.params()) {
            d.param(p.name(), p.type(), p.description(), p.constraints().toArray(new dev.luavm.host.ArgConstraint[0]));
        }
        for (Param r : g.returns()) d.returns(r.type(), r.description());
        d.effects(g.effects().toArray(new String[0]));
        Redactor own = g.redactor();
        if (!audit.arguments() || !audit.results()) {
            d.redact((name, value) -> {
                boolean result = name.startsWith("return#");
                return (result ? audit.results() : audit.arguments()) ? own.redact(name, value) : AuditRule.NOT_KEPT;
            });
        } else {
            d.redact(own);
        }
        d.grant(g.function());
    }

    public Contract contract() {
        return contract;
    }

    /** The source of the contract's module {@code name} ({@code require}'s host resolver), or null. */
    private String moduleSource(String name) {
        for (ModuleRule m : contract.modules()) {
            if (m.name().equals(name)) return m.source();
        }
        return null;
    }

    /**
     * The policy of a run's sandbox: the contract's per-function call bounds, then the host's
     * policy (for a host serving the contract's grants another way, such as an MCP server).
     */
    public HostCallPolicy policy() {
        return policy;
    }

    /** What a run's sandbox is granted: the contract's bundles, then its functions. */
    public Capabilities capabilities() {
        return capabilities;
    }

    /**
     * How a run's sandbox is set up beyond the contract: its name, where else its log goes, its
     * seed and clock, and whether the log carries the recording a replay needs
     * ({@code Sandbox.Builder.record}).
     */
    public record Settings(String sandboxName, AuditSink audit, Long randomSeed, Clock clock, boolean record) {
        /** A sandbox named "contract", no extra log, the default seed ({@link dev.luavm.Sandbox#DEFAULT_RANDOM_SEED}), the system clock, no recording. */
        public static final Settings DEFAULT = new Settings("contract", null, null, null, false);

        public Settings withAudit(AuditSink sink) {
            return new Settings(sandboxName, sink, randomSeed, clock, record);
        }

        public Settings withRandomSeed(long seed) {
            return new Settings(sandboxName, audit, seed, clock, record);
        }

        public Settings withClock(Clock c) {
            return new Settings(sandboxName, audit, randomSeed, c, record);
        }

        public Settings withSandboxName(String name) {
            return new Settings(name, audit, randomSeed, clock, record);
        }

        /** Writes the recording (source, inputs, host results in full) to the log, for replay. */
        public Settings withRecording(boolean on) {
            return new Settings(sandboxName, audit, randomSeed, clock, on);
        }
    }

    /**
     * Runs {@code script} on the input given as JSON text: text that is not JSON (or more than
     * {@value #MAX_INPUT_BYTES} bytes) is {@link Category#MALFORMED_INPUT}, like input that fails the schema.
     */
    public Outcome run(String chunkName, byte[] script, byte[] inputJson, Settings settings) {
        JsonNode input = parseInput(inputJson);
        if (input == null) return notJson(contract, Digests.sha256(script));
        return run(chunkName, script, input, settings);
    }

    /** The outcome of input that is not JSON at all. */
    static Outcome notJson(Contract contract, String sha) {
        Disclosure d = new Disclosure(contract, "input", new byte[0]);
        return new Outcome(Category.MALFORMED_INPUT, null, null, d.fixed("the input is not JSON"), NO_USAGE, List.of(),
                sha, null, null, d.detail());
    }

    /** The largest input read as text. */
    public static final int MAX_INPUT_BYTES = 16 << 20;

    /** {@code bytes} as one JSON value, or null when they are not JSON. */
    static JsonNode parseInput(byte[] bytes) {
        if (bytes.length > MAX_INPUT_BYTES) return null;
        try (com.fasterxml.jackson.core.JsonParser p = INPUT_JSON.createParser(bytes)) {
            JsonNode n = INPUT_JSON.readTree(p);
            if (n == null || n.isMissingNode() || p.nextToken() != null) return null;   // nothing, or trailing data
            return n;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper INPUT_JSON = new com.fasterxml.jackson.databind.ObjectMapper()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());

    /** Runs {@code script} on {@code input} under the contract, with default settings. */
    public Outcome run(String chunkName, byte[] script, JsonNode input) {
        return run(chunkName, script, input, Settings.DEFAULT);
    }

    /**
     * Runs {@code script} (Lua source; the chunk's {@code ...} is the input) on {@code input}
     * under the contract.
     *
     * @throws LuaAuditException when the caller's audit sink fails (the run is stopped: fail closed)
     */
    public Outcome run(String chunkName, byte[] script, JsonNode input, Settings settings) {
        String sha = Digests.sha256(script);
        Disclosure disclosure = new Disclosure(contract, chunkName, script);
        Outcome rejected = malformed(contract, disclosure, input, sha);
        if (rejected != null) return rejected;
        Object arg = inputValue(input);
        CompiledChunk chunk;
        try {
            chunk = vm.compile(chunkName, script);
        } catch (LuaException e) {
            return compileFailure(disclosure, e, sha);
        }
        // room for the contract's audit bound (about 1 KiB of heap per event), never less than the default budget
        MemoryAuditSink log = new MemoryAuditSink(Math.max(MemoryAuditSink.DEFAULT_MAX_BYTES,
                Math.min(Long.MAX_VALUE >> 10, contract.limits().auditEvents()) << 10));
        AuditSink extra = settings.audit();
        AuditSink sink = extra == null ? log : event -> {
            extra.write(event);   // the caller's log first: if it fails, the run stops (fail closed)
            log.write(event);
        };
        BoundedBuffer printed = new BoundedBuffer(contract.limits().outputBytes());
        Sandbox.Builder b = vm.sandbox().name(settings.sandboxName()).capabilities(capabilities)
                .limits(contract.limits().toLimits()).policy(policy).audit(sink).output(printed::write);
        if (!contract.modules().isEmpty()) b.modules(this::moduleSource);
        if (settings.randomSeed() != null) b.randomSeed(settings.randomSeed());
        if (settings.clock() != null) b.clock(settings.clock());
        if (settings.record()) b.record(true);
        List<Object> results = null;
        LuaException failure = null;
        Usage usage;
        Sandbox built;
        try {
            built = b.build();
        } catch (LuaException e) {
            // the libraries did not fit the memory limit: nothing ran
            return compileFailure(disclosure, e, sha);
        }
        try (Sandbox sb = built) {
            try {
                results = sb.run(chunk, arg);
            } catch (LuaAuditException e) {
                throw e;
            } catch (LuaException e) {
                failure = e;
            }
            usage = sb.usage();
        }
        List<AuditEvent> events = log.events();
        String output = contract.audit().output() ? printed.text() : null;
        JsonNode returned = null;
        JsonValues.NotConvertible problem = null;
        if (failure == null) {
            try {
                returned = JsonValues.toJson(results.isEmpty() ? null : results.get(0));
            } catch (JsonValues.NotConvertible e) {
                problem = e;
            }
        }
        return classify(contract, disclosure, events, returned, problem, usage, sha, output);
    }

    /**
     * The outcome of an input that fails the schema (null when it conforms). No Lua runs, so
     * there is no usage and no log.
     */
    static Outcome malformed(Contract contract, Disclosure d, JsonNode input, String sha) {
        JsonSchema.Failures bad = contract.input().failures(input);
        String why = null;
        if (!bad.none()) {
            why = d.schema("input does not match the contract's input schema", bad.messages(), bad.schemaPaths());
        } else {
            try {
                JsonValues.toJava(input, "input", 0);
            } catch (JsonValues.NotConvertible e) {
                why = d.notConvertible("input cannot enter the sandbox", e);
            }
        }
        return why == null ? null
                : new Outcome(Category.MALFORMED_INPUT, null, null, why, NO_USAGE, List.of(), sha, null, null, d.detail());
    }

    /**
     * The outcome of a script that does not compile (a syntax error, or the compiler's own gas or
     * memory bound): no sandbox ran, so there is no log; {@link ContractLog} keeps the source so a
     * replay can compile it again.
     */
    static Outcome compileFailure(Disclosure d, LuaException e, String sha) {
        if (e instanceof LuaLimitException l) {
            return new Outcome(Category.LIMIT, null, d.limitLabel(l.limit().label),
                    d.fixed("compiling the script: " + l.getMessage()), NO_USAGE, List.of(), sha, null, null, d.detail());
        }
        int line = e instanceof dev.luavm.LuaSyntaxException se ? se.line() : -1;
        return new Outcome(Category.LOGIC_ERROR, null, null, d.syntaxError(e.getMessage(), line), NO_USAGE, List.of(), sha,
                null, null, d.detail());
    }

    /** Compiles {@code script} as a run would; the failure's outcome, or null when it compiles. */
    static Outcome compileFailure(LuaVM vm, Disclosure d, String chunkName, byte[] script) {
        try {
            vm.compile(chunkName, script);
            return null;
        } catch (LuaException e) {
            return compileFailure(d, e, Digests.sha256(script));
        }
    }

    private static Object inputValue(JsonNode input) {
        try {
            return JsonValues.toJava(input, "input", 0);
        } catch (JsonValues.NotConvertible e) {
            throw new IllegalStateException(e);   // malformed() checked it
        }
    }

    static final Usage NO_USAGE = new Usage(0, 0, 0, 0, Duration.ZERO);

    /**
     * Classifies a run from its log (the blocked calls, how the run ended) and what it returned;
     * the same function classifies a replayed run ({@link ContractReplay}), so both agree. The
     * message says as much as the contract's {@code error_detail} lets it ({@link Disclosure}).
     *
     * @param returned the first result as JSON, for a run that returned; null otherwise
     * @param problem  why the first result has no JSON form, for a run that returned; else null
     */
    static Outcome classify(Contract contract, Disclosure d, List<AuditEvent> events, JsonNode returned,
                            JsonValues.NotConvertible problem, Usage usage, String sha, String output) {
        ErrorDetail detail = d.detail();
        List<String[]> blocked = new ArrayList<>();
        RunEnded end = null;
        for (AuditEvent e : events) {
            if (e instanceof HostCallEvent h && (h.verdict() == HostCallEvent.Verdict.DENIED
                    || h.verdict() == HostCallEvent.Verdict.FORBIDDEN)) {
                blocked.add(new String[] {h.function(), h.verdict().name().toLowerCase(), h.reason()});
            }
            if (e instanceof RunEnded r) end = r;
        }
        if (end == null) {
            return new Outcome(Category.LOGIC_ERROR, null, null, d.fixed("the run has no end in its log"), usage, events, sha,
                    output, null, detail);
        }
        boolean returnedOk = end.outcome() == RunEnded.Outcome.OK;
        if (!blocked.isEmpty()) {
            String then = !returnedOk ? "; the run then ended: " + ending(d, end) : "; the script caught the refusal and returned";
            return new Outcome(Category.BLOCKED_CAPABILITY, null, null, d.blocked(blocked, then), usage, events, sha, output,
                    returned, detail);
        }
        switch (end.outcome()) {
            case LIMIT:
                return new Outcome(Category.LIMIT, null, d.limitLabel(end.limit()), ending(d, end), usage, events, sha, output,
                        null, detail);
            case CANCELLED:
                return new Outcome(Category.LIMIT, null, d.limitLabel(LuaLimitException.Limit.CANCELLED.label), ending(d, end),
                        usage, events, sha, output, null, detail);
            case ERROR:
            case FAILED:
            case AUDIT_FAILED:
                Category c = end.outcome() == RunEnded.Outcome.FAILED ? Category.BAD_OUTPUT : Category.LOGIC_ERROR;
                return new Outcome(c, null, null, ending(d, end), usage, events, sha, output, null, detail);
            default:
                break;
        }
        if (returned == null) {
            return new Outcome(Category.BAD_OUTPUT, null, null, d.notConvertible("the result is not JSON", problem), usage,
                    events, sha, output, null, detail);
        }
        JsonSchema.Failures bad = contract.output().failures(returned);
        if (!bad.none()) {
            return new Outcome(Category.BAD_OUTPUT, null, null,
                    d.schema("the result does not match the contract's output schema", bad.messages(), bad.schemaPaths()),
                    usage, events, sha, output, returned, detail);
        }
        return new Outcome(Category.OK, returned, null, null, usage, events, sha, output, returned, detail);
    }

    /** How a run that did not return ended, as {@code d} lets it say. */
    private static String ending(Disclosure d, RunEnded end) {
        return switch (end.outcome()) {
            case LIMIT -> d.limit(end.limit(), end.error());
            case CANCELLED -> d.limit(LuaLimitException.Limit.CANCELLED.label, end.error());
            case ERROR -> d.luaError(end.error());
            // the input was checked before the run, so what failed to convert is the result
            case FAILED -> d.described("the result cannot leave the sandbox", end.error());
            case AUDIT_FAILED -> d.described("the audit log failed", end.error());
            default -> d.fixed("returned");
        };
    }

    /** Keeps what the script prints, up to the output limit (which the sandbox enforces too). */
    private static final class BoundedBuffer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final long max;

        BoundedBuffer(long max) {
            this.max = max;
        }

        synchronized void write(byte[] b, int off, int len) {
            int n = (int) Math.max(0, Math.min(len, max - bytes.size()));
            bytes.write(b, off, n);
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }
}
