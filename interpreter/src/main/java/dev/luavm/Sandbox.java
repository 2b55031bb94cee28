package dev.luavm;

import dev.luavm.audit.AuditSink;
import dev.luavm.audit.AuditTrail;
import dev.luavm.audit.Digests;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.HostGateway;
import dev.luavm.host.Results;
import dev.luavm.host.ValueConverter;
import dev.luavm.lib.CallContext;
import dev.luavm.lib.Library;
import dev.luavm.meter.Collector;
import dev.luavm.meter.LiveHeapWalker;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.snapshot.StateReader;
import dev.luavm.value.Builtin;
import dev.luavm.vm.VmSnapshots;
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
 * {@link LuaVM} ({@code dev.luavm.lib.TableTemplate}), so each sandbox writes only its own copy
 * (a copy shares the template's arrays until its first write, which clones them first).
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
 * Results come back as {@link Results}, a list of Java values (see {@link ValueConverter} for
 * the rules; in short: integers Long, floats Double, strings String (byte[] when not UTF-8),
 * sequences List, other tables Map, functions {@link LuaHandle}), with typed access by the
 * rules of {@link TypedAccess}: {@link #evalAs}, {@link Results#first(Class)},
 * {@link #getGlobal(String, Class)}.
 *
 * <h2>Threads</h2>
 * A sandbox is used by one thread at a time; a second thread calling in while a run is in
 * progress gets a {@link LuaSandboxStateException} (BUSY), as does any use after
 * {@link #close()} (CLOSED). {@link #cancel()} and {@link #close()} may be
 * called from any thread. Cancellation is per run: a cancel while a run is in progress ends that
 * run promptly wherever it is (a loop, a pattern match, a sort, a read of the input, a host
 * function: the latter is interrupted, and abandoned if it does not return within
 * {@link HostGateway#GRACE_MILLIS} ms, as at the deadline) with
 * {@link LuaLimitException.Limit#CANCELLED}, unless the run finishes first
 * (then the cancel is dropped); a cancel that lands while a run is starting ends it before its
 * code. <b>A cancel while no run is in progress does nothing</b>: in a pool where sandboxes are
 * reused, a watchdog's late cancel never reaches the next tenant's run. A watchdog that must
 * name its run holds a {@link Run}: {@link #currentRun()} is the run in progress,
 * {@link #nextRun()} the run this sandbox will start next (cancelling it before it starts ends it
 * at its start); {@link Run#cancel()} ends that run and never another. After a cancelled run the
 * sandbox is usable again.
 *
 * <h2>Output</h2>
 * {@code print} writes to the {@link OutputSink} chosen with {@link Builder#output}; by default
 * the output of the latest run is kept in memory and read with {@link #output()}.
 *
 * <h2>Determinism</h2>
 * What a script observes depends only on the script, its inputs and what the host injected:
 * {@code tostring} ids and the {@code pairs} order of reference keys come from per-sandbox
 * numbers ({@link dev.luavm.value.Identity}), randomness from the seed, time from the clocks
 * ({@link Builder#clock}, {@link Builder#cpuClock}, or {@link Builder#virtualTime} for none at
 * all). The seed of {@code math.random} and of {@code table.sort}'s pivots is
 * {@link #DEFAULT_RANDOM_SEED} unless the host sets one ({@link Builder#randomSeed}) or asks for
 * entropy ({@link Builder#randomSeedFromEntropy}), so by default the same script prints the same
 * bytes and uses the same gas in every sandbox and every process, as lua5.3's
 * {@code math.random} gives the same sequence until {@code math.randomseed}; only the clocks
 * still vary. With {@link Builder#record} the audit log becomes a recording that
 * {@link dev.luavm.replay.Replayer} replays.
 *
 * <h2>Snapshots</h2>
 * {@link #snapshot()} writes the whole state between runs; {@link LuaVM#restore} and
 * {@link Builder#restoreFrom} rebuild it in any JVM, and the restored sandbox goes on as this one
 * would have (docs/SNAPSHOT.md). A policy's {@code suspend} pauses a run at a host call
 * ({@link LuaSuspendedException}); {@link LuaVM#resume} continues it later
 * ({@link #resumedResults()}). The format is read and written by {@code dev.luavm.snapshot}.
 *
 * <h2>Errors</h2>
 * A run ends with a result, a {@link LuaScriptException} (uncaught Lua error), or a
 * {@link LuaLimitException}; a sandbox that cannot run throws {@link LuaSandboxStateException}.
 * Every failure of a method of this class is a {@link LuaException}, except programming errors
 * in the arguments (a null name or code: {@link NullPointerException}). Nothing of the script
 * runs after a run returns or throws.
 */
public final class Sandbox implements AutoCloseable {
    /**
     * The seed of {@code math.random} and {@code table.sort}'s pivots in a sandbox whose host
     * neither set one ({@link Builder#randomSeed}) nor asked for entropy
     * ({@link Builder#randomSeedFromEntropy}): runs are deterministic by default.
     */
    public static final long DEFAULT_RANDOM_SEED = 0;
    private static final AtomicLong IDS = new AtomicLong();
    /** Compiled on first use (an error's position), not at start-up: regex classes and lambdas cost ~2 ms. */
    private static final class Position {
        static final Pattern POSITION = Pattern.compile("^(.*?):(\\d+): ", Pattern.DOTALL);
    }
    private static final String NOT_ENOUGH_MEMORY = "not enough memory";
    private static final LuaString TOSTRING = LuaString.of("__tostring");

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
    /** the granted file system's session, or null; and its side of the sandbox */
    private final dev.luavm.vfs.session.Session files;
    private final FileSystemHost filesHost;
    /** the host's input, read so that the run's end interrupts a wait for it; null without input */
    private final InterruptibleInput input;

    private final Object runLock = new Object();
    /** the thread in a run, or null (guarded by runLock) */
    private Thread runner;
    private volatile boolean closed;
    /** how many runs this sandbox started: the id of the run in progress, or of the latest (guarded by runLock) */
    private long runsStarted;
    /** the id of a run not yet started that its {@link Run} cancelled, or 0 (guarded by runLock) */
    private long cancelledBeforeStart;
    /** the latest run ended with os.exit without its close argument: close() runs no finalizer, as lua5.3 exits without lua_close */
    private volatile boolean exitedWithoutClose;
    /** set when the sandbox may be inconsistent (a Java error escaped the VM); it then refuses to run */
    private volatile String broken;
    private Usage usage = new Usage(0, 0, 0, 0, Duration.ZERO);
    /** each granted host function's builtin and its grant name (snapshots name them so) */
    private final java.util.IdentityHashMap<Builtin, String> grantNames;
    private final java.util.Map<String, Builtin> grantsByName;
    private final LuaVM vm;
    /** when the run in progress began (for a paused run's time), on the host clock */
    private long runStartNanos;
    /** what the paused run continued at build time returned ({@link #resumedResults}) */
    private Results resumedResults;

    private Sandbox(Builder b) {
        LuaVM vm = b.vm;
        this.vm = vm;
        this.name = b.name != null ? b.name : "sandbox-" + IDS.incrementAndGet();
        this.capabilities = b.capabilities;
        // sized for the grants (most sandboxes have few or none: the default size is 64 slots)
        int grants = capabilities.hostFunctions().size();
        this.grantNames = new java.util.IdentityHashMap<>(grants);
        this.grantsByName = new java.util.HashMap<>(Math.max(2, grants * 2));
        this.limits = b.limits != null ? b.limits : vm.defaultLimits();
        this.meter = new MemoryMeter(limits.memoryBytes());
        this.converter = vm.converter(new Handles(), meter);
        OutputSink sink = b.output;
        if (sink == null) {
            buffer = new ByteArrayOutputStream();
            sink = buffer::write;
        } else {
            buffer = null;
        }
        byte[] snapshot = b.restore != null ? b.restore : b.resume;
        if (snapshot != null && (b.seed != null || b.entropy)) {
            throw new IllegalStateException("randomSeed and restoreFrom exclude each other: a snapshot carries its seed");
        }
        long seed = snapshot != null ? Snapshots.seedOf(snapshot)
                : b.seed != null ? b.seed : b.entropy ? vm.freshSeed() : DEFAULT_RANDOM_SEED;
        this.input = b.input == null ? null : new InterruptibleInput(b.input);
        RecordedInput recordedInput = b.record && this.input != null ? new RecordedInput(this.input) : null;
        java.io.InputStream scriptInput = recordedInput != null ? recordedInput : this.input;
        VirtualClock virtual = b.virtualStart != null ? new VirtualClock(b.virtualStart, b.clock) : null;
        Clock clock = virtual != null ? virtual : b.clock != null ? b.clock : new SystemClock();
        this.env = new SandboxEnvironment(clock, seed, sink, b.modules,
                b.moduleDirectories == null ? null : new dev.luavm.host.ModuleFiles(b.moduleDirectories), scriptInput,
                b.errorOutput);
        this.engine = new Engine(meter, env, limits);
        if (this.input != null) this.input.poll(engine::poll); // a read waiting for input ends with the run
        env.onExit(() -> { throw engine.exit(); });
        if (virtual != null) {
            virtual.nanos(() -> engine.gasUsed() * VirtualClock.NANOS_PER_GAS);
            env.cpuClock(() -> engine.gasUsed() * VirtualClock.NANOS_PER_GAS);
        } else if (b.cpuClock != null) {
            env.cpuClock(b.cpuClock);
        }
        engine.tiering(vm.tiering());
        this.audit = new AuditTrail(name, b.audit != null ? b.audit : vm.auditSink(), b.record);
        audit.meter(new AuditTrail.Meter() { // the log's writes cost gas; a full log ends the run
            @Override
            public void chargeGas(long units) {
                engine.chargeGas(units);
            }

            @Override
            public RuntimeException auditLimit() {
                return engine.terminate(LuaLimitException.Limit.AUDIT);
            }
        });
        if (audit.enabled()) {
            env.onClockRead(audit::clockRead);
            env.digestOutput(); // the run's end seals its output's digest
        }
        if (recordedInput != null && audit.recording()) recordedInput.recordTo(audit);
        if (audit.recording()) {
            env.onCpuClockRead(audit::cpuClockRead);
            env.onModuleRead(audit::moduleRead);
        }
        this.gateway = new HostGateway(name, b.policy != null ? b.policy : vm.policy(), converter, engine::poll, audit,
                engine::gasUsed);
        if (capabilities.filesystem() != null) {
            this.filesHost = new FileSystemHost(gateway, meter, engine, seed);
            this.files = new dev.luavm.vfs.session.Session(capabilities.filesystem(), filesHost);
            env.fileSystem(files);
            engine.state().addSnapshotParticipant(files.snapshotParticipant()); // memory and overlay mounts go in snapshots
        } else {
            this.filesHost = null;
            this.files = null;
        }
        Collector collector = new Collector();
        meter.setCollector(collector);
        meter.setLiveSizer(new LiveHeapWalker(push -> {
            engine.pushRoots(push);
            meter.pushPins(push); // host values being converted, not yet reachable
        }, engine::visitVmObject, collector));
        int mark = converter.pinMark();
        try {
            install(vm);
        } catch (LuaError e) {
            throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
        } finally {
            converter.unpin(mark);
        }
        VmSnapshots.onPause(engine.state(), this::onPause);
        if (b.restore != null) Snapshots.restore(this, vm, b.restore);
        if (b.resume != null) pending = Snapshots.readPaused(this, vm, b.resume);
    }

    /** The paused run read from the snapshot at build time, continued by {@link Builder#build} ({@link #resumePending}). */
    private StateReader.Paused pending;

    /** Builder: claims the paused run's token, then continues the run with the host's answer. */
    private void resumePending(Object[] results, String error) {
        StateReader.Paused p = pending;
        pending = null;
        if (!vm.resumeLedger().claim(p.token())) {
            throw new LuaSnapshotException("this paused run was resumed already (each snapshot of a paused run resumes"
                    + " once; LuaVM.fork makes a copy that may be resumed again)");
        }
        resumedResults = execute(new RunSource("resume", p.callName(), () -> null, null, null), () -> null, new Object[0],
                new Resumption(p, results, error));
    }

    private void install(LuaVM vm) {
        // in the order granted, except that bundles which list the others come after them
        List<Library> last = new ArrayList<>();
        for (String bundle : capabilities.bundles()) {
            Library lib = vm.bundle(bundle);
            if (lib.installsLast()) last.add(lib);
            else engine.install(lib, capabilities);
        }
        for (Library lib : last) engine.install(lib, capabilities);
        for (Capabilities.Grant g : capabilities.hostFunctions().values()) {
            String[] parts = g.path().split("\\.");
            LuaTable t = parentTable(parts, i -> new IllegalArgumentException("cannot grant '" + g.path() + "': '"
                    + parts[i] + "' is not a table"));
            Builtin fn = gateway.wrap(g);
            grantNames.put(fn, g.path());
            grantsByName.put(g.path(), fn);
            t.put(converter.luaString(parts[parts.length - 1]), fn);
        }
    }

    /**
     * The table holding the last of {@code parts}: the globals, or the tables along the path,
     * made where missing; {@code notATable.apply(i)} is thrown when {@code parts[i]} holds
     * something else.
     */
    private LuaTable parentTable(String[] parts, java.util.function.IntFunction<RuntimeException> notATable) {
        LuaTable t = engine.globals();
        for (int i = 0; i < parts.length - 1; i++) {
            LuaString key = converter.luaString(parts[i]);
            Object next = t.get(key);
            if (next == null) {
                next = new LuaTable(meter);
                t.put(key, next);
            } else if (!(next instanceof LuaTable)) {
                throw notATable.apply(i);
            }
            t = (LuaTable) next;
        }
        return t;
    }

    // ------------------------------------------------------------------ runs

    /**
     * Compiles and runs {@code code} (chunk name "input").
     *
     * @param code Lua source text
     * @return the chunk's first result converted to Java, or null when it returns none
     * @throws LuaException the chunk did not compile, raised an error, was ended by a limit, or
     *         the sandbox could not run (see {@link LuaException} for the kinds)
     */
    public Object eval(String code) {
        return eval("input", code);
    }

    /**
     * Compiles and runs {@code code}; {@code args} are the chunk's {@code ...}. With two strings,
     * the first is always the chunk name: {@code eval("return ...", "x")} runs "x".
     *
     * @param chunkName the name messages show ("job.lua" gives {@code job.lua:3:})
     * @param code Lua source text
     * @param args the chunk's arguments, converted to Lua
     * @return the chunk's first result converted to Java, or null when it returns none
     * @throws LuaException as {@link #eval(String)}
     */
    public Object eval(String chunkName, String code, Object... args) {
        return evalAll(chunkName, code, args).first();
    }

    /**
     * Compiles and runs {@code code} (chunk name "input") and converts its first result to
     * {@code type} by the rules of {@link TypedAccess}: {@code int n = sb.evalAs("return 6 * 7", int.class)}.
     *
     * @param <T> the requested type
     * @param code Lua source text
     * @param type the Java type wanted
     * @return the first result as {@code type} (none reads as nil)
     * @throws LuaConversionException the result does not convert to {@code type}
     * @throws LuaException as {@link #eval(String)}
     */
    public <T> T evalAs(String code, Class<T> type) {
        return evalAll("input", code).first(type);
    }

    /**
     * Compiles and runs {@code code} with arguments and converts its first result to {@code type}.
     *
     * @param <T> the requested type
     * @param chunkName the name messages show
     * @param code Lua source text
     * @param type the Java type wanted
     * @param args the chunk's {@code ...}, converted to Lua
     * @return the first result as {@code type} (none reads as nil)
     * @throws LuaConversionException the result does not convert to {@code type}
     * @throws LuaException as {@link #eval(String)}
     */
    public <T> T evalAs(String chunkName, String code, Class<T> type, Object... args) {
        return evalAll(chunkName, code, args).first(type);
    }

    /**
     * Compiles and runs {@code code}; {@code args} are the chunk's {@code ...}.
     *
     * @param chunkName the name messages show
     * @param code Lua source text
     * @param args the chunk's arguments, converted to Lua
     * @return all the chunk's results
     * @throws LuaException as {@link #eval(String)}
     */
    public Results evalAll(String chunkName, String code, Object... args) {
        Objects.requireNonNull(code, "code");
        byte[] src = code.getBytes(StandardCharsets.UTF_8);
        return execute(new RunSource("eval", LuaVM.displayName(chunkName), () -> Digests.sha256(src),
                        LuaVM.loadName(chunkName), src),
                () -> engine.load(LuaVM.compile(chunkName, src, limits.sourceBytes(), engine.compileMeter())),
                args);
    }

    /**
     * Runs a chunk compiled with {@link LuaVM#compile}.
     *
     * @param chunk the compiled chunk (from any runtime)
     * @param args the chunk's {@code ...}, converted to Lua
     * @return all the chunk's results
     * @throws LuaException as {@link #eval(String)}
     */
    public Results run(CompiledChunk chunk, Object... args) {
        Objects.requireNonNull(chunk, "chunk");
        return execute(new RunSource("run", chunk.name(), chunk::sourceSha256, chunk.loadName(), chunk.source()),
                () -> engine.load(chunk.prototype()), args);
    }

    /**
     * Calls the function at {@code name} with {@code args} converted to Lua. The name is a path
     * (see {@link #getGlobal(String)} for the rule): {@code "app.handle"} is field
     * {@code handle} of global {@code app}.
     *
     * @param name a global's name or a dotted path
     * @param args the arguments, converted to Lua
     * @return all the function's results
     * @throws LuaScriptException nothing callable is there ("attempt to call a nil value
     *         (global 'app.handle')"), or the function raised an error
     * @throws LuaException as {@link #eval(String)}
     */
    public Results call(String name, Object... args) {
        Objects.requireNonNull(name, "name");
        return execute(new RunSource("call", name, () -> null, null, null), () -> {
            Object fn = rawPath(name);
            if (fn == null) throw LuaError.of("attempt to call a nil value (global '" + name + "')");
            return fn;
        }, args);
    }

    /** {@link LuaHandle#call}: a run calling the handle's function. */
    Results callHandle(LuaHandle handle, Object[] args) {
        return execute(new RunSource("call", "(" + handle.type() + " handle)", () -> null, null, null), () -> handle.valueFor(this),
                args);
    }

    /**
     * Reads the value at {@code name}, converted to Java.
     *
     * <p><b>Names.</b> {@code getGlobal}, {@code setGlobal} and {@code call} read a name the
     * same way, as grants of host functions do: split at each dot into a path of table fields,
     * so {@code "cfg.limit"} is field {@code limit} of the table in global {@code cfg}; a name
     * without dots is a global. Fields are read and written raw (no metamethods run). Reading
     * through a step that is nil or not a table gives nil. A global whose own name contains a
     * dot is not reachable by these methods (use {@code _G["a.b"]} in Lua).
     *
     * @param name a global's name or a dotted path
     * @return the value converted to Java, or null for nil
     * @throws LuaConversionException the value cannot be converted (cyclic, too deep, too big)
     * @throws LuaSandboxStateException the sandbox is closed or running
     */
    public Object getGlobal(String name) {
        Objects.requireNonNull(name, "name");
        synchronized (runLock) {
            checkIdle();
            return converter.toJava(rawPath(name));
        }
    }

    /**
     * Reads the value at {@code name} (see {@link #getGlobal(String)}) converted to {@code type}
     * by the rules of {@link TypedAccess}.
     *
     * @param <T> the requested type
     * @param name a global's name or a dotted path
     * @param type the Java type wanted
     * @return the value as {@code type}
     * @throws LuaConversionException the value does not convert to {@code type}
     * @throws LuaSandboxStateException the sandbox is closed or running
     */
    public <T> T getGlobal(String name, Class<T> type) {
        return TypedAccess.as(getGlobal(name), type);
    }

    /**
     * Sets the value at {@code name}, converting {@code value} to Lua (its memory counts against
     * the sandbox's cap, charged before each piece is built; a value that does not fit is refused
     * and the global is left as it was). Setting null allocates nothing, so it always works, also
     * in a sandbox whose heap is at the cap. The name is a path (see {@link #getGlobal(String)}): missing tables
     * along it are created, so {@code setGlobal("cfg.limit", 5)} makes {@code cfg} a table if it
     * was nil; a step holding something other than a table fails.
     *
     * @param name a global's name or a dotted path
     * @param value the value; null sets nil
     * @throws LuaConversionException the value cannot be converted, or a step of the path is
     *         not a table
     * @throws LuaLimitException the value does not fit in the sandbox's memory (MEMORY)
     * @throws LuaSandboxStateException the sandbox is closed or running
     */
    public void setGlobal(String name, Object value) {
        Objects.requireNonNull(name, "name");
        synchronized (runLock) {
            checkIdle();
            if (value == null) {
                // removing allocates nothing (no tables made along the path, no key stored)
                int dot = name.lastIndexOf('.');
                Object parent = dot < 0 ? engine.globals() : rawPath(name.substring(0, dot));
                if (parent instanceof LuaTable t) t.put(LuaString.of(name.substring(dot + 1)), null);
                audit.recordGlobal(name, null);
                return;
            }
            String[] parts = name.split("\\.", -1);
            int mark = converter.pinMark();
            try {
                LuaTable t = parentTable(parts, i -> new LuaConversionException("cannot set '" + name + "': '"
                        + String.join(".", Arrays.copyOf(parts, i + 1)) + "' is not a table"));
                t.put(converter.luaString(parts[parts.length - 1]), converter.toLua(value));
                audit.recordGlobal(name, value); // what entered the sandbox, for a replay
            } catch (LuaError e) {
                throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
            } finally {
                converter.unpin(mark);
            }
        }
    }

    /** The names of the globals whose keys are strings, in traversal order (JSR-223 lists them as its bindings). */
    public java.util.Set<String> globalNames() {
        synchronized (runLock) {
            checkIdle();
            java.util.Set<String> out = new java.util.LinkedHashSet<>();
            Object[] kv = new Object[2];
            for (Object k = null; engine.globals().next(k, kv); k = kv[0]) {
                if (kv[0] instanceof LuaString s) out.add(s.toString());
            }
            return out;
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

    /** The sandbox's side of handle conversion: its handles, and only its own taken back. */
    private final class Handles implements ValueConverter.Handles {
        @Override
        public Object wrap(Object luaValue, String type) {
            return new LuaHandle(Sandbox.this, luaValue, type, dev.luavm.value.Identity.of(luaValue, meter));
        }

        @Override
        public Object unwrap(LuaHandle handle) {
            return handle.valueFor(Sandbox.this);
        }
    }

    private interface FunctionSupplier {
        Object get();
    }

    /** What a run executes, for its audit log: eval, run or call; the chunk or function; the source's SHA-256, load name and bytes (null for a call). */
    private record RunSource(String kind, String chunk, Supplier<String> sha256, String loadName, byte[] source) {}

    private Results execute(RunSource source, FunctionSupplier target, Object[] args) {
        return execute(source, target, args, null);
    }

    /** A run; with {@code resumption}, the rest of a paused run restored into this sandbox. */
    private Results execute(RunSource source, FunctionSupplier target, Object[] args, Resumption resumption) {
        Thread me = Thread.currentThread();
        boolean cancelledBeforeStart;
        synchronized (runLock) {
            checkUsable();
            if (runner != null) {
                // a host function's own thread counts as the run's (a host-call thread, HostGateway)
                throw runner == me || gateway.runsHostFunctionOn(me)
                        ? new LuaSandboxStateException(LuaSandboxStateException.Reason.REENTRANT,
                                "sandbox is already running (re-entrant call)")
                        : new LuaSandboxStateException(LuaSandboxStateException.Reason.BUSY,
                                "sandbox is in use by another thread");
            }
            // under the lock, so a Run's cancel lands either before this run (recorded) or during it
            long id = ++runsStarted;
            exitedWithoutClose = false;
            cancelledBeforeStart = this.cancelledBeforeStart == id;
            this.cancelledBeforeStart = 0;
            Duration timeout = limits.timeout();
            if (resumption == null) {
                engine.startRun(timeout, limits.runGas());
            } else {
                // the paused run's consumption carries over: its gas, its time, its output (below)
                StateReader.Paused p = resumption.paused();
                if (timeout.compareTo(Duration.ofDays(365)) < 0) {
                    timeout = Duration.ofNanos(Math.max(1, timeout.toNanos() - p.runNanos()));
                }
                engine.startResumedRun(timeout, limits.runGas(), p.runGas());
            }
            // after the meter's: the gateway's deadline is then never earlier than the meter's, so
            // when it interrupts a host function the safepoint after it sees the time up (read in
            // the other order, a host call interrupted between the two deadlines returned nil and
            // the run went on)
            gateway.reset(timeout);
            runner = me;
        }
        if (buffer != null) buffer.reset();
        long start = System.nanoTime();
        runStartNanos = start - (resumption == null ? 0 : Math.min(resumption.paused().runNanos(), Long.MAX_VALUE / 4));
        Results results = null;
        Throwable failure = null;
        try {
            try {
                audit.begin(source.kind(), source.chunk(), source.sha256(), Arrays.asList(args), capabilities::describe, limits,
                        env.randomSeed(), env.currentTimeMillis()); // fails closed: no log, no run
            } catch (dev.luavm.vm.LuaTermination t) {
                throw new LuaLimitException(Engine.terminationLimit(t)); // a full audit sink: no room, no run
            }
            // the zone only when recording: resolving it reads the time-zone rules (~7 ms of a CLI start-up)
            if (audit.recording()) audit.recordStart(source.loadName(), source.source(), Arrays.asList(args), env.zoneId());
            env.startRun(limits.outputBytes(), () -> { throw engine.terminate(LuaLimitException.Limit.OUTPUT); });
            // an overlay's uncommitted changes are gone; a resumed run is the same run going on
            if (files != null && resumption == null) files.startRun();
            if (resumption != null) {
                env.carryOutput(resumption.paused().runOutput());
                gateway.restoreCallCounts(resumption.paused().hostCalls(), resumption.paused().callName());
            }
            // a cancel() that came while the sandbox was idle, or since this run began, ends it
            // before any of its code (a short run would otherwise finish before the VM's next poll)
            if (cancelledBeforeStart || engine.cancelled()) throw new LuaLimitException(LuaLimitException.Limit.CANCELLED);
            return results = runTranslated(target, args, resumption);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            endFiles(failure);
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

    /**
     * Closes the streams a run left open (host file handles never outlive a run), flushing them
     * first unless a limit ended it (lua5.3's exit flushes; a killed process does not).
     */
    private void endFiles(Throwable failure) {
        if (files == null) return;
        boolean flush = failure == null || failure instanceof LuaScriptException || failure instanceof LuaExitException;
        try {
            filesHost.ending(() -> files.endRun(flush));
        } catch (RuntimeException e) {
            // a stream that cannot be flushed is closed anyway; the run's own outcome stands
        }
    }

    /** Runs the target (or continues a paused run); the VM's errors and signals become the API's exceptions. */
    private Results runTranslated(FunctionSupplier target, Object[] args, Resumption resumption) {
        try {
            Object fn = resumption == null ? target.get() : null;
            int mark = converter.pinMark();
            Object[] results;
            try {
                if (resumption == null) {
                    // the arguments stay pinned (counted) for the run: the host holds them for its length
                    Object[] luaArgs = converter.toLuaAll(Arrays.asList(args));
                    results = engine.call(fn, luaArgs);
                } else {
                    results = continuePaused(resumption);
                }
            } finally {
                converter.unpin(mark);
            }
            return new Results(converter.toJavaAll(results, 0, results.length));
        } catch (LuaException e) {
            throw e;
        } catch (dev.luavm.vm.RunPaused p) {
            if (p.failure != null) throw p.failure;
            throw new LuaSuspendedException(p.snapshot, p.callName(), p.arguments());
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
            if (Engine.isExit(e)) {
                exitedWithoutClose = !env.exitClose();
                throw new LuaExitException(env.exitStatus());
            }
            LuaLimitException.Limit limit = Engine.terminationLimit(e);
            if (limit == null) throw e;
            throw new LuaLimitException(limit);
        }
    }

    /**
     * The host call's answer given to the paused call, converted as the gateway converts a host
     * function's results (and charged the same), then the rest of the run.
     */
    private Object[] continuePaused(Resumption r) {
        String name = r.paused().callName();
        if (r.error() != null) return engine.continuePaused(null, engine.pausedCallError(r.error()));
        List<?> values = r.results().length == 1 && r.results()[0] instanceof Results rs ? rs.values()
                : Arrays.asList(r.results());
        Object[] lua;
        try {
            lua = converter.toLuaAll(values, engine::chargeGas);
        } catch (LuaConversionException e) {
            return engine.continuePaused(null, engine.pausedCallError("host function '" + name
                    + "' returned an unconvertible value (" + e.getMessage() + ")"));
        } catch (LuaError e) {
            return engine.continuePaused(null, e); // not enough memory: refused before it was built
        }
        return engine.continuePaused(lua, null);
    }

    /** What a resumed run continues with: the paused run read from the snapshot, the host's answer. */
    private record Resumption(StateReader.Paused paused, Object[] results, String error) {}

    /** The snapshot of the run pausing now (the VM's pause handler: called inside the run, state as the pause left it). */
    private void onPause(dev.luavm.vm.RunPaused p) {
        p.snapshot = Snapshots.write(this, new dev.luavm.snapshot.StateWriter.Paused(vm.freshToken(), engine.gasUsed(),
                env.outputUsed(), System.nanoTime() - runStartNanos, p.callName(), gateway.callCounts()));
    }

    /**
     * The results of the paused run this sandbox continued when it was built
     * ({@link LuaVM#resume}, {@link Builder#resumeFrom}); null for a sandbox that resumed no run.
     */
    public Results resumedResults() {
        return resumedResults;
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
            Matcher m = Position.POSITION.matcher(message);
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
        LuaScriptException ex = new LuaScriptException(message, javaValue, chunk, line, e.luaTraceback(), gateway.causeOf(value));
        if (value instanceof LuaTable || value instanceof dev.luavm.value.Userdata) {
            ex.luaValue = value;
            ex.sandbox = this;
        }
        return ex;
    }

    /**
     * Runs {@code chunk} and, when it returns values, calls the global function {@code printer}
     * with them as Lua values (so tables keep their identity and {@code __tostring}): lua.c's
     * REPL ({@code l_print}). One run, under the same limits as {@link #run}.
     */
    public void runAndPrint(CompiledChunk chunk, String printer) {
        LuaString key = LuaString.of(printer);
        Builtin body = Builtin.of("?", c -> {
            Object[] r = c.call(engine.load(chunk.prototype()));
            if (r.length > 0) c.call(engine.globals().get(key), r);
            return c.ret();
        });
        execute(new RunSource("run", chunk.name(), chunk::sourceSha256, chunk.loadName(), chunk.source()), () -> body, new Object[0]);
    }

    /**
     * What {@code lua.c}'s message handler makes of an uncaught error object of this sandbox that
     * has a {@code __tostring} metamethod returning a string: that string (lua.c prints it alone,
     * without a traceback); null when the error is a string or number or has no such metamethod
     * (then {@link LuaScriptException#getMessage()} and the traceback are what lua.c prints). The
     * metamethod runs as a run of this sandbox (kind "tostring" in the audit log) under its
     * limits, so one that loops ends on gas or time with a {@link LuaLimitException}, and one
     * that fails with a {@link LuaScriptException}.
     */
    public String errorMessage(LuaScriptException e) {
        if (e.sandbox != this) return null;
        Object value = e.luaValue;
        LuaTable meta = value instanceof LuaTable t ? t.getMetatable() : ((dev.luavm.value.Userdata) value).getMetatable();
        if (meta == null) return null; // nothing to run (a run would only show up in the audit log)
        Builtin handler = Builtin.of("tostring", c -> {
            LuaTable mt = c.getMetatable(value);
            Object tm = mt == null ? null : mt.get(TOSTRING);
            if (tm == null) return c.ret();
            Object s = c.call1(tm, value);
            return s instanceof LuaString ? c.ret(s) : c.ret();
        });
        List<Object> r = execute(new RunSource("tostring", "=(error object)", () -> null, null, null), () -> handler, new Object[0]);
        return !r.isEmpty() && r.get(0) instanceof String s ? s : null;
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

    // ------------------------------------------------------------------ snapshots

    /**
     * The sandbox's whole state as bytes (docs/SNAPSHOT.md): everything a script can reach
     * (globals, tables with their metatables, closures with their shared upvalues, strings byte
     * for byte, integers and floats exactly, weak tables as they are, suspended coroutines with
     * their frames), the registry and the metatables of the basic types, the random generator,
     * the seed of {@code table.sort}'s pivots and the {@code tostring} numbering. Functions are
     * carried as the source text of their chunks (recompiled on restore, never as bytecode);
     * library functions and granted host functions by name. {@link LuaVM#restore} or
     * {@link Builder#restoreFrom} rebuild it, in this JVM or another, and the restored sandbox
     * goes on as this one would have: the same output, gas and {@code tostring} ids from then on.
     * Taking a snapshot changes nothing in the sandbox.
     *
     * @return the snapshot, at most about twice {@link Usage#memoryBytes()} after a collection
     * @throws LuaSnapshotException a run is in progress, or the state holds what a snapshot cannot
     *         carry: a host object (a Java handle passed in as userdata), a function a library made
     *         that it cannot rebuild, a function compiled without its source; the message says
     *         where it was found ({@code global 'conn'})
     * @throws LuaSandboxStateException the sandbox is closed or unusable
     */
    public byte[] snapshot() {
        synchronized (runLock) {
            checkUsable();
            if (runner != null) throw new LuaSnapshotException("cannot snapshot the sandbox while a run is in progress");
            return Snapshots.write(this, null);
        }
    }

    Engine engine() {
        return engine;
    }

    LuaVM runtime() {
        return vm;
    }

    MemoryMeter meter() {
        return meter;
    }

    SandboxEnvironment environment() {
        return env;
    }

    java.util.IdentityHashMap<Builtin, String> grantNames() {
        return grantNames;
    }

    java.util.Map<String, Builtin> grantsByName() {
        return grantsByName;
    }

    // ------------------------------------------------------------------ control

    /**
     * Ends the run in progress with {@link LuaLimitException.Limit#CANCELLED} as soon as the VM
     * reaches a safepoint (a loop, a call, a charge of library work) or, inside a host function,
     * by interrupting it; a run that finishes before then returns normally and the cancel is
     * dropped. <b>When no run is in progress, it does nothing</b>: no later run is affected. To
     * cancel one particular run, the one a watchdog watched or one about to start, use its
     * {@link Run} ({@link #currentRun()}, {@link #nextRun()}). Any thread.
     */
    public void cancel() {
        synchronized (runLock) {
            if (runner != null) cancelInProgress();
        }
    }

    /** Holds runLock, a run in progress. */
    private void cancelInProgress() {
        engine.cancel();
        gateway.cancel();
    }

    /**
     * The run in progress, for a watchdog that must cancel it and never a later one; null when
     * the sandbox is idle. Any thread.
     */
    public Run currentRun() {
        synchronized (runLock) {
            return runner == null ? null : new Run(this, runsStarted);
        }
    }

    /**
     * The next run this sandbox starts (the next {@link #eval}, {@link #run}, {@link #call},
     * {@link LuaHandle#call}...), for a watchdog armed before it starts: {@link Run#cancel()}
     * before the run starts ends it at its start, before any of its code; during the run, as
     * {@link #cancel()}; after it, nothing. Any thread.
     */
    public Run nextRun() {
        synchronized (runLock) {
            return new Run(this, runsStarted + 1);
        }
    }

    /**
     * One run of a sandbox, named by its number (the sandbox's first run is 1), so that a
     * cancel reaches that run only: a watchdog holding the {@code Run} of a run that has ended
     * cancels nothing, whatever the sandbox runs next. From {@link Sandbox#currentRun()} and
     * {@link Sandbox#nextRun()}. Any thread; equal when the sandbox and the number are.
     */
    public static final class Run {
        private final Sandbox sandbox;
        private final long id;

        private Run(Sandbox sandbox, long id) {
            this.sandbox = sandbox;
            this.id = id;
        }

        /** The run's number in its sandbox: 1 for the first run, then one more for each. */
        public long id() {
            return id;
        }

        /** The sandbox the run belongs to. */
        public Sandbox sandbox() {
            return sandbox;
        }

        /**
         * Cancels this run: in progress, it ends with {@link LuaLimitException.Limit#CANCELLED}
         * as {@link Sandbox#cancel()} ends it; not yet started, it will end so at its start; ended
         * (or never to start, its sandbox closed), nothing happens.
         */
        public void cancel() {
            synchronized (sandbox.runLock) {
                if (sandbox.closed) return;
                if (sandbox.runner != null && sandbox.runsStarted == id) sandbox.cancelInProgress();
                else if (id > sandbox.runsStarted) sandbox.cancelledBeforeStart = id;
            }
        }

        /** True while this run is in progress. */
        public boolean isRunning() {
            synchronized (sandbox.runLock) {
                return sandbox.runner != null && sandbox.runsStarted == id;
            }
        }

        /** True once this run has ended (however it ended). */
        public boolean hasEnded() {
            synchronized (sandbox.runLock) {
                return id < sandbox.runsStarted || id == sandbox.runsStarted && sandbox.runner == null;
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Run r && r.sandbox == sandbox && r.id == id;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id); // no identity hash (HostAccessTest); equals tells sandboxes apart
        }

        @Override
        public String toString() {
            return "Run[" + sandbox.name + " #" + id + "]";
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

    /** The sandbox's name, as in audit logs and policies. */
    public String name() {
        return name;
    }

    /**
     * The host's side of the sandbox's file system (overlay commits, files placed or read by
     * name), or null when none was granted ({@link Capabilities.Builder#filesystem}).
     */
    public SandboxFiles files() {
        return files == null ? null : new SandboxFiles(this, files);
    }

    /** Runs {@code action} for the host between runs (under the run lock, the sandbox usable and idle). */
    <T> T whileIdle(java.util.function.Supplier<T> action) {
        synchronized (runLock) {
            checkIdle();
            return action.get();
        }
    }

    /** What the sandbox was granted. */
    public Capabilities capabilities() {
        return capabilities;
    }

    /** The sandbox's limits. */
    public Limits limits() {
        return limits;
    }

    /**
     * Host calls of this sandbox given up at a run's deadline or cancel whose functions have not
     * returned yet (each holds a host-call thread; at {@link HostGateway#MAX_ABANDONED} the
     * sandbox's host calls are refused until one returns). See docs/API.md, "Host calls at the
     * deadline".
     */
    public int abandonedHostCalls() {
        return gateway.abandonedCalls();
    }

    /**
     * Closes the sandbox; later calls fail. Any thread. Idle, it first runs the {@code __gc}
     * finalizers of every object still marked for finalization, reachable or not, as
     * {@code lua_close} does: those a collection queued already, then the others in the reverse
     * order of their marking, as one last run (kind {@code close} in the audit log) under the
     * sandbox's limits, an error in one dropped (as lua5.3 drops it) and a limit ending them all.
     * A run in progress is cancelled instead, and no finalizer runs; none runs either when the
     * latest run ended with {@code os.exit(code)} (lua5.3 exits without closing the state unless
     * the script passes {@code os.exit(code, true)}), or when the sandbox is broken.
     */
    @Override
    public void close() {
        if (!closed && finalizersAtClose()) {
            try {
                execute(new RunSource("close", "=(close)", () -> null, null, null), () -> CLOSE_FINALIZERS, new Object[0]);
            } catch (LuaException e) {
                // a limit ended the finalizers, or a run started meanwhile (BUSY): close anyway
            }
        }
        synchronized (runLock) {
            closed = true;
            if (runner != null) cancelInProgress();
        }
        if (input != null) input.close(); // ends its reader thread; the host's stream stays open
    }

    /** True when close() has finalizers to run: idle, usable, and an object is marked or queued. */
    private boolean finalizersAtClose() {
        synchronized (runLock) {
            if (runner != null || broken != null || closed || exitedWithoutClose) return false;
            Collector gc = meter.collector();
            return gc != null && (gc.hasPending() || !gc.finalizable().isEmpty());
        }
    }

    /**
     * The close run: every finalizer still due, errors dropped ({@code luaC_freeallobjects}). Not a
     * lambda: the first non-capturing lambda of a process costs ~2.5 ms of start-up (PROFILE.md).
     */
    private static final Builtin CLOSE_FINALIZERS = new Builtin("close") { @Override public int call(CallContext c) {
        Collector gc = c.memory().collector();
        gc.separateAll();
        // claimed, so that the library calls inside one finalizer do not run the others (Finalizers)
        if (!gc.enterFinalizers()) return c.ret();
        try {
            Object o;
            while ((o = gc.nextToFinalize()) != null) {
                Object f = Collector.finalizerOf(o);
                if (!(f instanceof dev.luavm.value.LuaFunction)) continue;
                try {
                    c.callImplicitly(f, o);
                } catch (dev.luavm.vm.LuaError e) {
                    // lua_close ignores a finalizer's error and goes on with the next
                }
            }
        } finally {
            gc.exitFinalizers();
        }
        return c.ret();
    }};

    private void checkUsable() {
        if (closed) throw new LuaSandboxStateException(LuaSandboxStateException.Reason.CLOSED, "sandbox is closed");
        if (broken != null) {
            throw new LuaSandboxStateException(LuaSandboxStateException.Reason.BROKEN, "sandbox is unusable: " + broken);
        }
    }

    /** For host access between runs: usable, and no run in progress. Holds runLock. */
    private void checkIdle() {
        checkUsable();
        if (runner != null) {
            throw new LuaSandboxStateException(runner == Thread.currentThread() ? LuaSandboxStateException.Reason.REENTRANT
                    : LuaSandboxStateException.Reason.BUSY, "sandbox is running");
        }
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
        private boolean entropy;
        private Function<String, String> modules;
        private List<java.nio.file.Path> moduleDirectories;
        private java.io.InputStream input;
        private OutputSink errorOutput;
        private String name;
        private AuditSink audit;
        private HostCallPolicy policy;
        private boolean record;
        private java.util.function.LongSupplier cpuClock;
        private java.time.Instant virtualStart;
        private byte[] restore;
        private byte[] resume;
        private Object[] resumeResults;
        private String resumeError;

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

        /** Where print writes: a stream (written on the sandbox's thread, never closed by it). */
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

        /**
         * The seed of {@code math.random} and of {@code table.sort}'s pivots (default
         * {@link Sandbox#DEFAULT_RANDOM_SEED}: the same sequence, and the same gas, in every sandbox and
         * every run until the script calls {@code math.randomseed}). Replaces
         * {@link #randomSeedFromEntropy}.
         */
        public Builder randomSeed(long seed) {
            this.seed = seed;
            this.entropy = false;
            return this;
        }

        /**
         * A seed from the operating system's entropy instead of the fixed default: each sandbox
         * then has its own sequence of {@code math.random}, and a {@code table.sort}'s gas may
         * differ from run to run (the pivots are random). The seed is in the audit log's
         * run-started events, so a recorded run still replays. Replaces {@link #randomSeed}.
         */
        public Builder randomSeedFromEntropy() {
            this.seed = null;
            this.entropy = true;
            return this;
        }

        /** Where require finds module sources (with the package bundle); null results mean "not found". */
        public Builder modules(Function<String, String> resolver) {
            this.modules = resolver;
            return this;
        }

        /**
         * Directories {@code require} reads Lua source modules from (with the {@code package}
         * bundle), read-only, in order: {@code package.path} becomes {@code D/?.lua;D/?/init.lua}
         * for each, with {@code D} as given here. Each directory is resolved when the sandbox is
         * built (a relative one against the working directory, through symbolic links, as the
         * operating system resolves it; {@code ../src} works). Nothing outside them is read: a
         * {@code ..} in the part of a name under a directory, names outside them and symbolic
         * links leaving them count as absent; binary chunks never load.
         */
        public Builder moduleDirectories(List<java.nio.file.Path> directories) {
            this.moduleDirectories = List.copyOf(directories);
            return this;
        }

        /** The stream {@code io.read}, {@code io.lines()} and {@code io.stdin} read (with the {@code io} bundle; default: none, and they are absent). */
        public Builder input(java.io.InputStream in) {
            this.input = Objects.requireNonNull(in);
            return this;
        }

        /** Where {@code io.stderr} writes (default: the {@link #output} sink); both share the output limit. */
        public Builder errorOutput(OutputSink sink) {
            this.errorOutput = Objects.requireNonNull(sink);
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

        /**
         * Builds the sandbox from a snapshot ({@link Sandbox#snapshot()}) instead of empty: its
         * capabilities and limits are this builder's (the snapshot carries neither), and so are
         * the output, clock, policy, audit log and the other options; the state, the random
         * generator's and the sort's seed included, is the snapshot's (so {@link #randomSeed}
         * cannot be set with it). The restored sandbox's usage starts at zero under the new limits.
         * {@link #build()} then throws {@link LuaSnapshotException} for a snapshot it cannot
         * read or that needs a grant these capabilities lack (the message names it), and
         * {@link LuaLimitException} for one that does not fit the limits (MEMORY; DEPTH for a
         * coroutine deeper than the call depth; GAS or TIME when reading it needs more work than
         * one run may do). A snapshot of a paused run is refused: {@link LuaVM#resume} continues it.
         */
        public Builder restoreFrom(byte[] snapshot) {
            this.restore = Objects.requireNonNull(snapshot, "snapshot").clone();
            return this;
        }

        /**
         * Builds the sandbox from the snapshot of a run paused at a host call
         * ({@link LuaSuspendedException#snapshot()}) and continues that run in {@link #build()}
         * as if the host call had returned {@code hostResults} (converted as a host function's
         * results are; one {@link Results} gives several). The run keeps what it consumed before
         * the pause: its gas, output and time count against this builder's limits. Each paused
         * snapshot resumes once per resume token ({@link LuaVM.Builder#resumeLedger});
         * {@link LuaVM#fork} makes a copy with a token of its own. {@link #build()} returns the
         * sandbox when the run has ended normally ({@link Sandbox#resumedResults()} has its
         * results) and throws what the run throws otherwise (another
         * {@link LuaSuspendedException} when it pauses again), as well as the exceptions of
         * {@link #restoreFrom}.
         */
        public Builder resumeFrom(byte[] snapshot, Object... hostResults) {
            this.resume = Objects.requireNonNull(snapshot, "snapshot").clone();
            this.resumeResults = hostResults == null ? new Object[] {null} : hostResults.clone();
            this.resumeError = null;
            return this;
        }

        /**
         * As {@link #resumeFrom}, but the paused call raises the Lua error {@code message} (with
         * the caller's position, as a host function's error) instead of returning: a denied
         * approval, say. The script may catch it with {@code pcall}.
         */
        public Builder resumeFailing(byte[] snapshot, String message) {
            this.resume = Objects.requireNonNull(snapshot, "snapshot").clone();
            this.resumeResults = null;
            this.resumeError = Objects.requireNonNull(message, "message");
            return this;
        }

        /** A name for logs and policies (default "sandbox-N"). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * The sandbox, with its libraries installed (and its state restored, with
         * {@link #restoreFrom}).
         *
         * @throws LuaLimitException the libraries (or the restored state) do not fit in the limits
         * @throws LuaSnapshotException the snapshot given to {@link #restoreFrom} cannot be restored
         */
        public Sandbox build() {
            if (restore != null && resume != null) throw new IllegalStateException("restoreFrom and resumeFrom exclude each other");
            Sandbox sb;
            try {
                sb = new Sandbox(this);
            } catch (LuaError e) {
                // a cap too small for even the meter's own tables (the globals, the registry)
                throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
            }
            if (resume != null) sb.resumePending(resumeResults, resumeError);
            return sb;
        }
    }

}
