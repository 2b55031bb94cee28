package dev.luavm;

import dev.luavm.audit.AuditSink;
import dev.luavm.audit.AuditTrail;
import dev.luavm.audit.Digests;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.HostGateway;
import dev.luavm.host.ValueConverter;
import dev.luavm.lib.Library;
import dev.luavm.meter.LiveHeapWalker;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaError;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One isolated Lua world: its own globals, registry, string metatable, random generator,
 * meters and output. Nothing is shared with other sandboxes except what is immutable: compiled
 * code, library builtins and keys. Library tables are copied from a template built once per
 * {@link LuaVM} ({@link dev.luavm.lib.TableTemplate}), so each sandbox writes only its own copy.
 *
 * <h2>Runs</h2>
 * Each {@link #eval}, {@link #run} or {@link #call} is a <em>run</em>. The time limit and the
 * output limit apply to each run; the gas limit and the memory limit (the Lua heap persists
 * between runs) apply to the sandbox's whole life. A run ended by time, output or cancellation
 * ends that run only: no Lua code of it runs after the end ({@code pcall} cannot catch it), and
 * the next run starts with fresh time and output budgets on the state the script left
 * (globals keep what was stored; coroutines the run left running are dead). A run ended by gas
 * <em>spends</em> the sandbox: the budget is gone, so every later run ends at once with
 * {@link LuaLimitException.Limit#GAS}. Memory and depth errors are ordinary Lua errors and leave
 * the sandbox usable.
 * Results come back as Java values (see
 * {@link ValueConverter} for the rules; in short: integers Long, floats Double, strings String
 * (byte[] when not UTF-8), sequences List, other tables Map, functions {@link LuaHandle}).
 *
 * <h2>Threads</h2>
 * A sandbox is used by one thread at a time; a second thread calling in while a run is in
 * progress gets an {@link IllegalStateException}. {@link #cancel()} and {@link #close()} may be
 * called from any thread. Cancellation is per run: a cancel while a run is in progress ends that
 * run promptly wherever it is (a loop, a pattern match, a sort, a host function: the latter is
 * interrupted) with {@link LuaLimitException.Limit#CANCELLED}, unless the run finishes first
 * (then the cancel is dropped); a cancel while no run is in progress ends the next run, at its
 * start, and only that one. After a cancelled run the sandbox is usable again.
 *
 * <h2>Output</h2>
 * {@code print} writes to the {@link OutputSink} chosen with {@link Builder#output}; by default
 * the output of the latest run is kept in memory and read with {@link #output()}.
 *
 * <h2>Determinism</h2>
 * What a script observes depends only on the script, its inputs and what the host injected:
 * {@code tostring} ids and the {@code pairs} order of reference keys come from per-sandbox
 * numbers ({@link dev.luavm.value.Identity}), randomness from the seed ({@link Builder#randomSeed}),
 * time from the clocks ({@link Builder#clock}, {@link Builder#cpuClock}, or
 * {@link Builder#virtualTime} for none at all). With {@link Builder#record} the audit log becomes
 * a recording that {@link dev.luavm.replay.Replayer} replays.
 *
 * <h2>Errors</h2>
 * A run ends with a result, a {@link LuaScriptException} (uncaught Lua error), or a
 * {@link LuaLimitException}. Nothing of the script runs after a run returns or throws.
 */
public final class Sandbox implements AutoCloseable {
    private static final AtomicLong IDS = new AtomicLong();
    private static final Pattern POSITION = Pattern.compile("^(.*?):(\\d+): ", Pattern.DOTALL);
    private static final String NOT_ENOUGH_MEMORY = "not enough memory";

    private final String name;
    private final Capabilities capabilities;
    private final Limits limits;
    private final MemoryMeter meter;
    private final ValueConverter converter;
    private final HostGateway gateway;
    private final AuditTrail audit;
    private final SandboxEnvironment env;
    private final ByteArrayOutputStream buffer;
    private final Engine engine;

    private final Object runLock = new Object();
    /** the thread in a run, or null (guarded by runLock) */
    private Thread runner;
    private volatile boolean closed;
    /** a cancel() that came while no run was in progress, for the next run (guarded by runLock) */
    private boolean cancelPending;
    /** set when the sandbox may be inconsistent (a Java error escaped the VM); it then refuses to run */
    private volatile String broken;
    private Usage usage = new Usage(0, 0, 0, 0, Duration.ZERO);

    private Sandbox(Builder b) {
        LuaVM vm = b.vm;
        this.name = b.name != null ? b.name : "sandbox-" + IDS.incrementAndGet();
        this.capabilities = b.capabilities;
        this.limits = b.limits != null ? b.limits : vm.defaultLimits();
        this.meter = new MemoryMeter(limits.memoryBytes());
        this.converter = vm.converter(this, meter);
        OutputSink sink = b.output;
        if (sink == null) {
            buffer = new ByteArrayOutputStream();
            sink = buffer::write;
        } else {
            buffer = null;
        }
        long seed = b.seed != null ? b.seed : vm.freshSeed();
        VirtualClock virtual = b.virtualStart != null ? new VirtualClock(b.virtualStart, b.clock) : null;
        Clock clock = virtual != null ? virtual : b.clock != null ? b.clock : Clock.systemDefaultZone();
        this.env = new SandboxEnvironment(clock, seed, sink, b.modules);
        this.engine = new Engine(meter, env, limits);
        if (virtual != null) {
            virtual.nanos(() -> engine.gasUsed() * VirtualClock.NANOS_PER_GAS);
            env.cpuClock(() -> engine.gasUsed() * VirtualClock.NANOS_PER_GAS);
        } else if (b.cpuClock != null) {
            env.cpuClock(b.cpuClock);
        }
        this.audit = new AuditTrail(name, b.audit != null ? b.audit : vm.auditSink(), b.record);
        if (audit.enabled()) env.onClockRead(audit::clockRead);
        if (audit.recording()) {
            env.onCpuClockRead(audit::cpuClockRead);
            env.onModuleRead(audit::moduleRead);
            env.digestOutput();
        }
        this.gateway = new HostGateway(name, b.policy != null ? b.policy : vm.policy(), converter, engine::poll, audit,
                engine::gasUsed);
        meter.setLiveSizer(new LiveHeapWalker(engine::pushRoots, engine::visitVmObject));
        try {
            install(vm);
        } catch (LuaError e) {
            throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
        }
    }

    private void install(LuaVM vm) {
        // in the order granted, except that bundles which list the others come after them
        List<Library> last = new ArrayList<>();
        for (String bundle : capabilities.bundles()) {
            Library lib = vm.bundle(bundle);
            if (lib.installsLast()) last.add(lib);
            else engine.install(lib);
        }
        for (Library lib : last) engine.install(lib);
        for (Capabilities.Grant g : capabilities.hostFunctions().values()) {
            String[] parts = g.path().split("\\.");
            LuaTable t = engine.globals();
            for (int i = 0; i < parts.length - 1; i++) {
                LuaString key = converter.luaString(parts[i]);
                Object next = t.get(key);
                if (next == null) {
                    next = new LuaTable(meter);
                    t.put(key, next);
                } else if (!(next instanceof LuaTable)) {
                    throw new IllegalArgumentException("cannot grant '" + g.path() + "': '" + parts[i] + "' is not a table");
                }
                t = (LuaTable) next;
            }
            t.put(converter.luaString(parts[parts.length - 1]), gateway.wrap(g));
        }
    }

    // ------------------------------------------------------------------ runs

    /** Compiles and runs {@code code} (chunk name "input"); returns the chunk's first result or null. */
    public Object eval(String code) {
        return eval("input", code);
    }

    /** Compiles and runs {@code code}; returns the chunk's first result, or null when it returns none. */
    public Object eval(String chunkName, String code) {
        return first(evalAll(chunkName, code));
    }

    /** Compiles and runs {@code code}; returns all the chunk's results. */
    public List<Object> evalAll(String chunkName, String code) {
        Objects.requireNonNull(code, "code");
        byte[] src = code.getBytes(StandardCharsets.UTF_8);
        return execute(new RunSource("eval", LuaVM.displayName(chunkName), () -> Digests.sha256(src),
                        LuaVM.loadName(chunkName), src),
                () -> engine.load(LuaVM.compile(chunkName, src, limits.sourceBytes(), engine.compileMeter())),
                new Object[0]);
    }

    /** Runs a chunk compiled with {@link LuaVM#compile}; {@code args} are the chunk's {@code ...}. */
    public List<Object> run(CompiledChunk chunk, Object... args) {
        Objects.requireNonNull(chunk, "chunk");
        return execute(new RunSource("run", chunk.name(), chunk::sourceSha256, chunk.loadName(), chunk.source()),
                () -> engine.load(chunk.prototype()), args);
    }

    /**
     * Calls the function held by global {@code name} (a dotted path such as {@code "app.handle"}
     * reads nested tables, without metamethods) with {@code args} converted to Lua.
     */
    public List<Object> call(String name, Object... args) {
        Objects.requireNonNull(name, "name");
        return execute(new RunSource("call", name, () -> null, null, null), () -> {
            Object fn = rawPath(name);
            if (fn == null) throw LuaError.of("attempt to call a nil value (global '" + name + "')");
            return fn;
        }, args);
    }

    /** Reads a global (a dotted path reads nested tables), without metamethods, converted to Java. */
    public Object getGlobal(String name) {
        synchronized (runLock) {
            checkUsable();
            if (runner != null) throw new IllegalStateException("sandbox is running");
            return converter.toJava(rawPath(name));
        }
    }

    /** Sets a global, converting {@code value} to Lua (its memory counts against the sandbox's cap). */
    public void setGlobal(String name, Object value) {
        synchronized (runLock) {
            checkUsable();
            if (runner != null) throw new IllegalStateException("sandbox is running");
            try {
                engine.globals().put(converter.luaString(name), converter.toLua(value));
                audit.recordGlobal(name, value); // what entered the sandbox, for a replay
            } catch (LuaError e) {
                throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
            }
        }
    }

    private Object rawPath(String path) {
        Object cur = engine.globals();
        for (String part : path.split("\\.", -1)) {
            if (!(cur instanceof LuaTable t)) return null;
            cur = t.get(LuaString.of(part));
        }
        return cur;
    }

    private interface FunctionSupplier {
        Object get();
    }

    /** What a run executes, for its audit log: eval, run or call; the chunk or function; the source's SHA-256, load name and bytes (null for a call). */
    private record RunSource(String kind, String chunk, Supplier<String> sha256, String loadName, byte[] source) {}

    private List<Object> execute(RunSource source, FunctionSupplier target, Object[] args) {
        Thread me = Thread.currentThread();
        boolean cancelledBeforeStart;
        synchronized (runLock) {
            checkUsable();
            if (runner != null) {
                throw new IllegalStateException(runner == me ? "sandbox is already running (re-entrant call)"
                        : "sandbox is in use by another thread");
            }
            // under the lock, so a cancel() lands either before this run (pending) or during it
            cancelledBeforeStart = cancelPending;
            cancelPending = false;
            gateway.reset();
            engine.startRun(limits.timeout());
            runner = me;
        }
        if (buffer != null) buffer.reset();
        long start = System.nanoTime();
        List<Object> results = null;
        Throwable failure = null;
        try {
            audit.begin(source.kind(), source.chunk(), source.sha256(), Arrays.asList(args), capabilities, limits,
                    env.randomSeed(), env.currentTimeMillis()); // fails closed: no log, no run
            audit.recordStart(source.loadName(), source.source(), Arrays.asList(args), env.zoneId());
            env.startRun(limits.outputBytes(), () -> { throw engine.terminate(LuaLimitException.Limit.OUTPUT); });
            // a cancel() that came while the sandbox was idle ends this run, before any of its code
            if (cancelledBeforeStart) throw new LuaLimitException(LuaLimitException.Limit.CANCELLED);
            return results = runTranslated(target, args);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            usage = new Usage(engine.gasUsed(), meter.current(), meter.peak(), env.outputUsed(),
                    Duration.ofNanos(System.nanoTime() - start));
            try {
                audit.end(results, failure, usage, env.outputSha256()); // the run-ended event, however the run ended
            } finally {
                synchronized (runLock) {
                    runner = null;
                }
            }
        }
    }

    /** Runs the target; the VM's errors and signals become the API's exceptions. */
    private List<Object> runTranslated(FunctionSupplier target, Object[] args) {
        try {
            Object fn = target.get();
            Object[] luaArgs = converter.toLuaAll(Arrays.asList(args));
            Object[] results = engine.call(fn, luaArgs);
            return converter.toJavaAll(results, 0, results.length);
        } catch (LuaException e) {
            throw e;
        } catch (LuaError e) {
            throw translate(e);
        } catch (StackOverflowError e) {
            // defence in depth: the VM must never let this happen; if it does, this sandbox is suspect
            broken = "a Java stack overflow escaped the VM";
            throw new LuaLimitException(LuaLimitException.Limit.DEPTH, e);
        } catch (OutOfMemoryError e) {
            broken = "the JVM ran out of memory during a run";
            throw new LuaLimitException(LuaLimitException.Limit.MEMORY, e);
        } catch (RuntimeException e) {
            LuaLimitException.Limit limit = Engine.terminationLimit(e);
            if (limit == null) throw e;
            throw new LuaLimitException(limit);
        }
    }

    /** An uncaught Lua error as the host sees it. */
    LuaException translate(LuaError e) {
        Object value = e.value();
        if (value instanceof LuaString s) {
            String text = s.toString();
            if (text.equals(NOT_ENOUGH_MEMORY)) return new LuaLimitException(LuaLimitException.Limit.MEMORY);
            if (Engine.isStackOverflow(e)) {
                return new LuaLimitException(LuaLimitException.Limit.DEPTH);
            }
        }
        String message = messageOf(value);
        String chunk = null;
        int line = -1;
        if (value instanceof LuaString) {
            Matcher m = POSITION.matcher(message);
            if (m.find()) {
                chunk = m.group(1);
                try {
                    line = Integer.parseInt(m.group(2));
                } catch (NumberFormatException ignored) {
                    // too long for a line number: leave unknown
                }
            }
        }
        Object javaValue;
        try {
            javaValue = converter.toJava(value);
        } catch (LuaConversionException ce) {
            javaValue = message;
        }
        return new LuaScriptException(message, javaValue, chunk, line, e.luaTraceback(), gateway.causeOf(value));
    }

    /** The message lua.c would print: the string, the number, or "(error object is a T value)". No metamethods run. */
    static String messageOf(Object value) {
        if (value instanceof LuaString s) {
            int n = Math.min(s.length(), LuaScriptException.MAX_MESSAGE);
            return LuaString.copyOf(s.bytesUnsafe(), 0, n).toString();
        }
        if (value instanceof Long l) return Long.toString(l);
        if (value instanceof Double d) return dev.luavm.value.LuaNumbers.toString(d);
        return "(error object is a " + dev.luavm.value.LuaValues.typeName(value) + " value)";
    }

    private static Object first(List<Object> results) {
        return results.isEmpty() ? null : results.get(0);
    }

    // ------------------------------------------------------------------ control

    /**
     * Ends the run in progress with {@link LuaLimitException.Limit#CANCELLED} as soon as the VM
     * reaches a safepoint (a loop, a call, a charge of library work) or, inside a host function,
     * by interrupting it; a run that finishes before then returns normally and the cancel is
     * dropped. When no run is in progress, the next run ends at its start instead (a cancel that
     * arrives just before a run still stops it), and only that run. Any thread.
     */
    public void cancel() {
        synchronized (runLock) {
            if (runner == null) {
                cancelPending = !closed;
                return;
            }
            engine.cancel();
            gateway.cancel();
        }
    }

    /** True while a run is in progress. */
    public boolean isRunning() {
        synchronized (runLock) {
            return runner != null;
        }
    }

    /** Resources used by the latest run (and memory since creation). */
    public Usage usage() {
        return usage;
    }

    /** The latest run's output when the default in-memory sink is used; empty otherwise. */
    public String output() {
        return buffer == null ? "" : buffer.toString(StandardCharsets.UTF_8);
    }

    public String name() {
        return name;
    }

    public Capabilities capabilities() {
        return capabilities;
    }

    public Limits limits() {
        return limits;
    }

    /** Closes the sandbox: a run in progress is cancelled; later calls fail. Any thread. */
    @Override
    public void close() {
        closed = true;
        cancel();
    }

    private void checkUsable() {
        if (closed) throw new IllegalStateException("sandbox is closed");
        if (broken != null) throw new IllegalStateException("sandbox is unusable: " + broken);
    }

    @Override
    public String toString() {
        return "Sandbox[" + name + "]";
    }

    /** Options of one sandbox; from {@link LuaVM#sandbox()}. */
    public static final class Builder {
        private final LuaVM vm;
        private Capabilities capabilities = Capabilities.standard();
        private Limits limits;
        private OutputSink output;
        private Clock clock;
        private Long seed;
        private Function<String, String> modules;
        private String name;
        private AuditSink audit;
        private HostCallPolicy policy;
        private boolean record;
        private java.util.function.LongSupplier cpuClock;
        private java.time.Instant virtualStart;

        Builder(LuaVM vm) {
            this.vm = vm;
        }

        /** What the sandbox may use (default {@link Capabilities#standard()}). */
        public Builder capabilities(Capabilities caps) {
            this.capabilities = Objects.requireNonNull(caps);
            return this;
        }

        /** The sandbox's limits (default: the runtime's). */
        public Builder limits(Limits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        /** Where print writes (default: an in-memory buffer of the latest run, see {@link Sandbox#output()}). */
        public Builder output(OutputSink sink) {
            this.output = Objects.requireNonNull(sink);
            return this;
        }

        public Builder output(java.io.OutputStream out) {
            return output(OutputSink.of(out));
        }

        /** The clock behind os.time and os.date, and its zone (default: the system clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        /**
         * Also write the recording to the audit log ({@link dev.luavm.audit.Recorded}: source, inputs
         * and host results in full, os.clock readings, an output digest), so that
         * {@link dev.luavm.replay.Replayer} can replay the runs. Needs an audit sink. Default false.
         */
        public Builder record(boolean record) {
            this.record = record;
            return this;
        }

        /** The clock behind os.clock, in nanoseconds (default: time since the sandbox was created). */
        public Builder cpuClock(java.util.function.LongSupplier nanos) {
            this.cpuClock = Objects.requireNonNull(nanos);
            return this;
        }

        /**
         * Deterministic time: os.time and os.date read {@code start} plus the time os.clock shows,
         * and os.clock shows the gas used ({@value VirtualClock#NANOS_PER_GAS} ns per unit, so 1 s per
         * 100 million gas), never the host's clocks. With {@link #randomSeed}, a script's output and
         * gas depend on nothing but the script and its inputs. The zone is {@link #clock}'s, else UTC.
         */
        public Builder virtualTime(java.time.Instant start) {
            this.virtualStart = Objects.requireNonNull(start);
            return this;
        }

        /** A fixed seed for math.random, for reproducible runs (default: a fresh seed per sandbox). */
        public Builder randomSeed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Where require finds module sources (with the package bundle); null results mean "not found". */
        public Builder modules(Function<String, String> resolver) {
            this.modules = resolver;
            return this;
        }

        /** Where this sandbox's audit log goes (default: the runtime's, {@link LuaVM.Builder#audit}). */
        public Builder audit(AuditSink sink) {
            this.audit = Objects.requireNonNull(sink);
            return this;
        }

        /** The policy for this sandbox's UNSAFE host calls (default: the runtime's, {@link LuaVM.Builder#policy}). */
        public Builder policy(HostCallPolicy policy) {
            this.policy = Objects.requireNonNull(policy);
            return this;
        }

        /** A name for logs and policies (default "sandbox-N"). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Sandbox build() {
            return new Sandbox(this);
        }
    }

}
