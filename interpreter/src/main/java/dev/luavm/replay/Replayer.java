package dev.luavm.replay;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.RunStarted;
import dev.luavm.host.HostCall;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.HostFunction;
import dev.luavm.host.Results;
import dev.luavm.host.Safety;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a {@link Recording} again, with no live host function, and reports whether the replay is
 * identical (same output, results, error and gas, the same host calls with the same arguments,
 * the same clock reads, in the same order) or where it first diverged.
 *
 * <p>The replay sandbox gets everything that once came from outside from the recording: the
 * random seed, the wall clock (each read answered with the value recorded for it) and its zone,
 * {@code os.clock}, the run's inputs, and each host call's answer: the function registered under
 * the granted name returns the recorded results or raises the recorded error, in order; the
 * policy answers UNSAFE calls with the recorded verdict. With the original declarations
 * ({@link Builder#capabilities}) the gateway checks arguments and constraints as it did, and
 * verdicts and reasons are compared too; without them, every granted name found in the log
 * becomes a stub that answers from the recording (gas is then the same unless the original
 * grants had constraints, whose checks are not repeated).
 *
 * <p>Pass a {@link LuaVM} built like the original's (its bundles, converter settings): the
 * sandbox's limits, seed, clocks, modules and capabilities come from the recording.
 *
 * <h2>Limits and the ceiling</h2>
 * The replay runs with exactly the recorded limits ({@code gas}, memory, depth, output, sizes,
 * timeout, audit events) and capabilities, which the recording's seals vouch for
 * ({@link Recording}), but never beyond its own ceiling ({@link Builder#ceiling}, default
 * {@value #DEFAULT_MAX_GAS} gas and {@link #DEFAULT_TIMEOUT}; {@link Builder#maxMemory}, default
 * {@value #DEFAULT_MAX_MEMORY} bytes held), whatever the log claims: gas for the whole replay,
 * memory held, and time per run and for the whole replay (checked between runs; the host may
 * also {@link #cancel()} from another thread, as {@code luavm replay} does at its deadline). A
 * replay stopped by its ceiling never reached the recorded end: it is not identical, and
 * {@link ReplayResult#ceiling()} names the ceiling.
 *
 * <p>A run the host stopped (time limit, cancel) during a host call is stopped at the same call;
 * one stopped between host calls ends where the replay's own time limit ends it, and only its
 * ending kind is compared.
 *
 * <p>A replay of a changed script ({@link Builder#source}) reports the first event the change
 * made different, not the changed source digest itself.
 *
 * <h2>Runs that used a file system</h2>
 * The log records a sandbox's mounts ({@link Recording#mounts()}) and every write, remove and
 * rename ({@code fs.write}, {@code fs.remove}, {@code fs.rename} host-call events), but not the
 * bytes the script read: a replay cannot reproduce its file reads. So a recording with mounts is
 * replayed only against a file system given for it ({@link Builder#filesystem}, or the original
 * capabilities' {@link Capabilities#filesystem()}) whose mounts are the recorded ones (the same
 * points, modes and quotas); without one, {@link #replay()} refuses before running anything. The
 * replay then reads the files as they are now, so it is identical only when they still hold what
 * the run read, and it writes again where the run wrote (give a copy of a read-write directory).
 */
public final class Replayer {
    /** The replay's default gas ceiling: 1,000,000,000 units for the whole replay. */
    public static final long DEFAULT_MAX_GAS = 1_000_000_000L;
    /** The replay's default time ceiling: 60 seconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** The replay's default memory ceiling: 1 GiB held by the script. */
    public static final long DEFAULT_MAX_MEMORY = 1L << 30;

    private final LuaVM vm;
    private final Recording recording;
    private final Capabilities declared;
    private final OutputSink output;
    private final Map<Long, byte[]> sources;
    private final long maxGas;
    private final Duration timeout;
    private final long maxMemory;
    private final dev.luavm.vfs.Vfs filesystem;
    /** the sandbox replaying, while it runs (for {@link #cancel()} from another thread) */
    private volatile Sandbox running;
    private volatile boolean cancelled;

    private Replayer(Builder b) {
        this.vm = b.vm;
        this.recording = b.recording;
        this.declared = b.capabilities;
        this.output = b.output;
        this.sources = Map.copyOf(b.sources);
        this.maxGas = b.maxGas;
        this.timeout = b.timeout;
        this.maxMemory = b.maxMemory;
        this.filesystem = b.filesystem;
    }

    /**
     * Stops the replay at once (from any thread): it ends as stopped by its time ceiling. What a
     * host calls at its own deadline for the whole replay.
     */
    public void cancel() {
        cancelled = true;
        Sandbox s = running;
        if (s != null) s.cancel();
    }

    public static Builder builder(LuaVM vm, Recording recording) {
        return new Builder(vm, recording);
    }

    /** Replays with the defaults: stubs for the host functions, output discarded. */
    public static ReplayResult replay(LuaVM vm, Recording recording) {
        return builder(vm, recording).build().replay();
    }

    /** Options of a replay. */
    public static final class Builder {
        private final LuaVM vm;
        private final Recording recording;
        private Capabilities capabilities;
        private OutputSink output = (b, off, len) -> { };
        private final Map<Long, byte[]> sources = new HashMap<>();
        private long maxGas = DEFAULT_MAX_GAS;
        private Duration timeout = DEFAULT_TIMEOUT;
        private long maxMemory = DEFAULT_MAX_MEMORY;
        private dev.luavm.vfs.Vfs filesystem;

        private Builder(LuaVM vm, Recording recording) {
            this.vm = Objects.requireNonNull(vm);
            this.recording = Objects.requireNonNull(recording);
        }

        /**
         * The original capabilities: bundles and declared host functions (their functions are not
         * called; each answers from the recording). Default: bundles and names from the log.
         */
        public Builder capabilities(Capabilities original) {
            this.capabilities = Objects.requireNonNull(original);
            return this;
        }

        /** Where the replay's output goes (default: discarded). */
        public Builder output(OutputSink sink) {
            this.output = Objects.requireNonNull(sink);
            return this;
        }

        /** Runs {@code source} instead of run {@code run}'s recorded source (to see where a change diverges). */
        public Builder source(long run, byte[] source) {
            sources.put(run, source.clone());
            return this;
        }

        public Builder source(long run, String source) {
            return source(run, source.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * The replay's own ceiling: at most {@code maxGas} gas for the whole replay, and
         * {@code timeout} of wall-clock time per run and for the whole replay (default
         * {@value Replayer#DEFAULT_MAX_GAS} and 60 seconds), whatever limits the log claims.
         */
        public Builder ceiling(long maxGas, Duration timeout) {
            if (maxGas <= 0) throw new IllegalArgumentException("the gas ceiling must be positive: " + maxGas);
            if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("the time ceiling must be positive: " + timeout);
            this.maxGas = maxGas;
            this.timeout = timeout;
            return this;
        }

        /** The most memory the replayed script may hold, whatever the log claims (default 1 GiB). */
        public Builder maxMemory(long bytes) {
            if (bytes <= 0) throw new IllegalArgumentException("the memory ceiling must be positive: " + bytes);
            this.maxMemory = bytes;
            return this;
        }

        /**
         * The file system to replay a run that used one against: its mounts must be the
         * recorded ones ({@link Recording#mounts()}: points, modes and quotas, in order). The
         * replay reads the files as they are now and writes where the run wrote. Default: the
         * original capabilities' file system, else none (a recording with mounts is then refused).
         */
        public Builder filesystem(dev.luavm.vfs.Vfs mounts) {
            this.filesystem = Objects.requireNonNull(mounts);
            return this;
        }

        public Replayer build() {
            return new Replayer(this);
        }
    }

    /**
     * Replays every recorded run in order, in one fresh sandbox, and stops at the first divergence.
     *
     * @throws IllegalArgumentException the recorded capabilities or limits cannot be set up here
     *                                  (a bundle this runtime does not have), or the run used a
     *                                  file system and none with the recorded mounts was given
     *                                  (nothing is replayed)
     */
    public ReplayResult replay() {
        dev.luavm.vfs.Vfs files = filesystem != null ? filesystem : declared != null ? declared.filesystem() : null;
        checkMounts(recording.mounts(), files);
        List<Recording.Run> runs = recording.runs();
        Recording.Run first = runs.get(0);
        RunStarted s0 = first.started();
        List<String> notes = new ArrayList<>();
        boolean withDeclarations = declared != null;
        EventComparator comparator = new EventComparator(withDeclarations, recording.unit());
        Limits recorded = limitsOf(s0);
        Limits limits = capped(recorded);
        ReplayClock clock = new ReplayClock(zoneOf(first.zone()));
        Recording.Run[] current = {first};
        long[] cpuReads = {0};
        Sandbox[] box = {null};

        HostFunction answer = call -> answer(current[0], call, box[0], notes);
        HostCallPolicy policy = request -> {
            HostCallEvent e = current[0].hostCall(request.callNumber());
            if (e == null) return HostCallPolicy.Decision.deny("no such call in the recording");
            return switch (e.verdict()) {
                case ALLOWED -> HostCallPolicy.Decision.allow(e.reason());
                case UNDECIDED -> {
                    box[0].cancel(); // the recorded run ended while this call waited for a decision
                    yield HostCallPolicy.Decision.deny(String.valueOf(e.reason()));
                }
                default -> HostCallPolicy.Decision.deny(e.reason());
            };
        };
        Sandbox.Builder sb = vm.sandbox()
                .name(recording.sandbox())
                .capabilities(capabilities(answer, files))
                .limits(limits)
                .randomSeed(s0.randomSeed())
                .clock(clock)
                .cpuClock(() -> current[0].cpuClockNanos(++cpuReads[0]))
                .modules(name -> module(runs, current[0], name))
                .output(output)
                .audit(comparator)
                .record(true)
                .policy(policy);
        java.io.InputStream input = recordedInput(runs);
        if (input != null) sb.input(input);
        int replayed = 0;
        String ceiling = null;
        long gasUsed = 0;
        Duration elapsed = Duration.ZERO;
        Sandbox built;
        try {
            built = sb.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the recorded capabilities cannot be granted here: " + e.getMessage(), e);
        } catch (LuaLimitException e) {
            // the libraries did not fit in the memory the replay allows: nothing was replayed
            boolean capped = limits.memoryBytes() < recorded.memoryBytes();
            comparator.startRun(first, false);
            comparator.ceiling(capped ? "the replay's ceiling" : "the replay's sandbox", "its sandbox could not be set up ("
                    + e.getMessage() + ")");
            return new ReplayResult(comparator.divergence(), 0, notes, List.of(), capped ? "memory: " + maxMemory + " bytes" : null);
        }
        try (Sandbox sandbox = built) {
            box[0] = sandbox;
            running = sandbox;
            for (Recording.Run run : runs) {
                current[0] = run;
                cpuReads[0] = 0;
                clock.startRun(run);
                byte[] replaced = sources.get(run.number());
                if (replaced != null) notes.add("run " + run.number() + ": source replaced");
                comparator.startRun(run, replaced != null);
                if (cancelled || elapsed.compareTo(timeout) >= 0) {
                    ceiling = "time: " + seconds(timeout);
                    comparator.ceiling("the replay's ceiling", "stopped by the replay's time ceiling before run " + run.number());
                    break;
                }
                for (Map.Entry<String, Object> g : run.globals()) {
                    sandbox.setGlobal(g.getKey(), g.getValue() == Recording.NIL ? null : g.getValue());
                }
                replayed++;
                LuaLimitException.Limit ended = execute(sandbox, run, replaced);
                comparator.finishRun();
                gasUsed += sandbox.usage().gas();
                elapsed = elapsed.plus(sandbox.usage().elapsed());
                ceiling = stoppedByCeiling(ended, recorded, limits, gasUsed);
                if (ceiling != null) {
                    comparator.ceiling("the replay's ceiling", "stopped by the replay's ceiling (" + ceiling + ")");
                    break;
                }
                if (comparator.divergence() != null) break;
            }
        } finally {
            running = null;
        }
        return new ReplayResult(comparator.divergence(), replayed, notes, comparator.ends(), ceiling);
    }

    /** The recorded limits, lowered to the replay's ceiling where they claim more. */
    private Limits capped(Limits l) {
        Limits c = l.withGas(Math.min(l.gas(), maxGas)).withMemory(Math.min(l.memoryBytes(), maxMemory));
        return l.timeout().compareTo(timeout) > 0 ? c.withTimeout(timeout) : c;
    }

    /** Which ceiling ended the replayed run, when one that was below the recorded limit did; else null. */
    private String stoppedByCeiling(LuaLimitException.Limit ended, Limits recorded, Limits capped, long gasUsed) {
        if (ended == null) return null;
        return switch (ended) {
            case CANCELLED -> cancelled ? "time: " + seconds(timeout) : null;
            case GAS -> capped.gas() < recorded.gas() && gasUsed >= capped.gas() ? "gas: " + maxGas : null;
            case TIME -> capped.timeout().compareTo(recorded.timeout()) < 0 ? "time: " + seconds(timeout) : null;
            case MEMORY -> capped.memoryBytes() < recorded.memoryBytes() ? "memory: " + maxMemory + " bytes" : null;
            default -> null;
        };
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /** Runs one recorded run again; the limit that ended it, if one did (also behind a divergence that stopped it). */
    private LuaLimitException.Limit execute(Sandbox sandbox, Recording.Run run, byte[] replaced) {
        RunStarted s = run.started();
        Object[] inputs = run.inputs().toArray();
        byte[] src = replaced != null ? replaced : run.source();
        try {
            switch (s.kind()) {
                case "eval" -> sandbox.evalAll(run.loadName(), new String(src, StandardCharsets.UTF_8));
                case "run" -> {
                    CompiledChunk chunk = vm.compile(run.loadName(), src);
                    sandbox.run(chunk, inputs);
                }
                case "close" -> sandbox.close(); // the finalizers a closing sandbox ran
                default -> sandbox.call(s.chunk(), inputs);
            }
            return null;
        } catch (LuaLimitException e) {
            return e.limit();
        } catch (LuaAuditException e) {
            // the comparator stopped the run at a divergence (it holds the details), perhaps as a limit ended it
            for (Throwable t : e.getSuppressed()) if (t instanceof LuaLimitException l) return l.limit();
            return null;
        } catch (LuaException e) {
            return null; // the recorded run failed too, or the comparator will say it did not
        }
    }

    /** What the recorded sandbox's input stream delivered, over all runs, or null when it had none. */
    private static java.io.InputStream recordedInput(List<Recording.Run> runs) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        boolean present = false;
        for (Recording.Run r : runs) {
            present |= r.hasInput();
            for (byte[] b : r.input()) all.writeBytes(b);
        }
        return present ? new java.io.ByteArrayInputStream(all.toByteArray()) : null;
    }

    /** The source the recording says {@code require} got for {@code name}: this run's, else the latest earlier run's. */
    private static String module(List<Recording.Run> runs, Recording.Run current, String name) {
        Object found = null;
        for (Recording.Run r : runs) {
            Object s = r.modules().get(name);
            if (s != null) found = s;
            if (r == current) break;
        }
        if (found == null || found == Recording.NIL) return null;
        return found instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : found.toString();
    }

    /** A host function's answer: the recorded results or error of the call with the same number. */
    private static Object answer(Recording.Run run, HostCall call, Sandbox sandbox, List<String> notes) {
        long seq = call.callNumber();
        HostCallEvent e = run.hostCall(seq);
        if (e == null || !e.function().equals(call.name())) return null; // the comparator reports the call
        if (run.redacted(seq)) notes.add("run " + run.number() + ", host call #" + seq + ": results were redacted in the recording");
        String error = run.hostError(seq);
        switch (e.outcome()) {
            case RAISED, REFUSED -> throw new LuaError(LuaString.of(error != null ? error : String.valueOf(e.error())));
            case RUN_ENDED -> {
                sandbox.cancel(); // the recorded run was stopped during this call: stop here too
                return null;
            }
            default -> {
                List<Object> r = run.hostResults(seq);
                return new Results(r != null ? r : e.results());
            }
        }
    }

    /** The names of the file system's {@code writes:fs} events, logged as host calls but never granted as functions. */
    private static final Set<String> FILE_EVENTS = Set.of("fs.write", "fs.remove", "fs.rename");

    /**
     * Refuses, before anything runs, a recording whose sandbox had a file system unless
     * {@code files} has exactly its mounts, and a file system given for a recording without one.
     */
    private static void checkMounts(List<String> recorded, dev.luavm.vfs.Vfs files) {
        List<String> given = new ArrayList<>();
        if (files != null) given.addAll(files.grantLines());
        if (given.equals(recorded)) return;
        if (files == null) {
            throw new IllegalArgumentException("the run used a file system (mounts " + String.join("; ", recorded)
                    + "): replay cannot reproduce its file reads; replay it against the same mounts (luavm replay --mount SPEC)"
                    + " to read the files as they are now");
        }
        if (recorded.isEmpty()) {
            throw new IllegalArgumentException("the run used no file system, but mounts were given for its replay ("
                    + String.join("; ", given) + ")");
        }
        throw new IllegalArgumentException("the mounts given for the replay (" + String.join("; ", given)
                + ") are not the run's (" + String.join("; ", recorded) + "): give the same points, modes and quotas"
                + " (and working directory: relative names resolve from it)");
    }

    /** The recorded bundles, and the grants: the original declarations answering from the recording, or stubs. */
    private Capabilities capabilities(HostFunction answer, dev.luavm.vfs.Vfs files) {
        Capabilities.Builder b = Capabilities.builder();
        if (files != null) b.filesystem(files);
        if (declared != null) {
            b.bundles(declared.bundles());
            for (Capabilities.Grant g : declared.hostFunctions().values()) {
                // withFunction keeps the rest of the declaration, the module a grant is bound to included
                b.grant(g.withFunction(g.safety() == Safety.FORBIDDEN ? g.function() : answer));
            }
            return b.build();
        }
        Set<String> names = new LinkedHashSet<>();
        List<String> bundles = new ArrayList<>();
        for (String line : recording.runs().get(0).started().capabilities()) {
            if (line.startsWith("bundle ")) bundles.add(line.substring(7));
            else if (!line.startsWith(Recording.MOUNT_LINE)) names.add(grantPath(line));
        }
        Set<String> granted = Set.copyOf(names);
        for (Recording.Run r : recording.runs()) {
            for (int i = 0; i < r.events().size(); i++) {
                if (r.events().get(i) instanceof HostCallEvent h
                        && !(files != null && FILE_EVENTS.contains(h.function()) && !granted.contains(h.function()))) {
                    names.add(h.function()); // the file system's own events are its, not stubs
                }
            }
        }
        b.bundles(bundles);
        for (String name : names) {
            b.grant(new Capabilities.Grant(name, "replayed from the recording", answer, Safety.SAFE, List.of(), List.of(),
                    List.of(), null));
        }
        return b.build();
    }

    /** The path at the start of a grant's description line ({@code "a.b(x: string) [SAFE] - ..."}, {@code "a.b - ..."}). */
    static String grantPath(String line) {
        int end = line.length();
        int paren = line.indexOf('(');
        int dash = line.indexOf(" - ");
        if (paren >= 0) end = paren;
        if (dash >= 0 && dash < end) end = dash;
        return line.substring(0, end).trim();
    }

    private static ZoneId zoneOf(String id) {
        if (id == null) return ZoneOffset.UTC;
        try {
            return ZoneId.of(id);
        } catch (RuntimeException e) {
            return ZoneOffset.UTC;
        }
    }

    /** The limits a run was recorded with (for a {@link LuaVM} to replay in: its compile limits). */
    public static Limits limitsOf(RunStarted s) {
        Map<String, Object> m = s.limits();
        Limits l = Limits.unlimited();
        if (m.get("gas") instanceof Number n) l = l.withGas(n.longValue());
        if (m.get("memoryBytes") instanceof Number n) l = l.withMemory(n.longValue());
        if (m.get("callDepth") instanceof Number n) l = l.withCallDepth(n.intValue());
        if (m.get("outputBytes") instanceof Number n) l = l.withOutput(n.longValue());
        if (m.get("timeoutMillis") instanceof Number n && n.longValue() < Long.MAX_VALUE / 1_000_000) {
            l = l.withTimeout(Duration.ofMillis(n.longValue()));
        }
        if (m.get("sourceBytes") instanceof Number n) l = l.withSourceBytes(n.longValue());
        if (m.get("parseDepth") instanceof Number n) l = l.withParseDepth(n.intValue());
        if (m.get("runGas") instanceof Number n) l = l.withRunGas(n.longValue());
        if (m.get("auditEvents") instanceof Number n) l = l.withAuditEvents(n.longValue());
        return l;
    }
}
