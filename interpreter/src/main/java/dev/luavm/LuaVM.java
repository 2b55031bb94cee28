package dev.luavm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.CompileMeter;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.host.ValueConverter;
import dev.luavm.lib.Library;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.vm.LuaError;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The entry point of the luavm API: a Lua 5.3 runtime for untrusted scripts.
 *
 * <h2>Quick start</h2>
 * <pre>{@code
 * try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard())) {
 *     Object r = sb.eval("return 6 * 7");          // 42L
 * }
 * }</pre>
 * A {@code LuaVM} holds what sandboxes share: the capability bundles found on the class path,
 * default {@link Limits}, the {@link HostCallPolicy} and conversion settings. It compiles chunks
 * once ({@link #compile}) for any number of sandboxes ({@link #sandbox()}). It is immutable and
 * thread-safe; a {@link Sandbox} is used by one thread at a time.
 *
 * <h2>Architecture</h2>
 * <ul>
 *   <li>{@link Capabilities}: what a sandbox may use; bundles are {@code Library} implementations
 *       found with {@link ServiceLoader} (the stdlib module), host functions are granted one by
 *       one and called through the one {@link dev.luavm.host.HostGateway}, governed by a
 *       {@link HostCallPolicy} and written to an audit log ({@link dev.luavm.audit.AuditSink});</li>
 *   <li>{@link Limits}: gas (the VM's per-instruction costs, {@code dev.luavm.bytecode.OpCode#gas},
 *       plus library work), memory ({@code dev.luavm.meter.MemoryMeter} with the live-heap walk
 *       {@code dev.luavm.meter.LiveHeapWalker}), call depth, output, time;</li>
 *   <li>{@link ValueConverter}: values between Java and Lua, bounded both ways;</li>
 *   <li>errors: {@link LuaException} and its subclasses.</li>
 * </ul>
 */
public final class LuaVM {
    private static volatile LuaVM shared;

    /** Default of {@link Builder#compileMemory}: 128 MiB. */
    public static final long DEFAULT_COMPILE_MEMORY = 128L << 20;

    private final Limits limits;
    private final HostCallPolicy policy;
    private final dev.luavm.audit.AuditSink auditSink;
    private final int conversionDepth;
    private final long conversionElements;
    private final boolean binaryStrings;
    private final long compileMemory;
    private final Map<String, Library> bundles;
    /** the compiled tier shared by this runtime's sandboxes (code, never counts) */
    private final dev.luavm.vm.Tiering tiering;
    /** the key snapshots are sealed with ({@link Builder#snapshotKey}), or null */
    private final byte[] snapshotKey;
    /** the resume tokens used ({@link Builder#resumeLedger}) */
    private final ResumeLedger ledger;
    /** fresh sandbox seeds: unpredictable to scripts, drawn in batches (guarded by itself) */
    private final SeedSource seeds = new SeedSource();

    private LuaVM(Builder b) {
        this.limits = b.limits;
        this.policy = b.policy;
        this.auditSink = b.auditSink;
        this.conversionDepth = b.conversionDepth;
        this.conversionElements = b.conversionElements;
        this.binaryStrings = b.binaryStrings;
        this.compileMemory = b.compileMemory;
        this.ledger = b.ledger != null ? b.ledger : ResumeLedger.inMemory();
        this.snapshotKey = b.snapshotKey;
        this.bundles = Collections.unmodifiableMap(b.libraries != null ? byName(b.libraries) : classPathBundles());
        this.tiering = new dev.luavm.vm.Tiering(b.tier, b.tier == dev.luavm.vm.tier.Tier.INTERP ? null
                : b.functionCompiler != null ? b.functionCompiler : dev.luavm.vm.Tiering.findCompiler(LuaVM.class.getClassLoader()));
    }

    /** The bundles {@link ServiceLoader} finds on the class path, by name (the first of a name wins). */
    private static Map<String, Library> classPathBundles() {
        // Loading them initialises the library's classes, whose static tables and lambda
        // bootstraps need more Java stack than a small host thread has (128 KiB is not enough),
        // and a class whose initialisation failed stays unusable: so the first time, on a
        // thread with room. Later runtimes find the classes initialised.
        if (bundleClassesReady) return byName(ServiceLoader.load(Library.class, LuaVM.class.getClassLoader()));
        Map<String, Library> found = dev.luavm.vm.RoomyStack.call("bundles",
                () -> byName(ServiceLoader.load(Library.class, LuaVM.class.getClassLoader())));
        bundleClassesReady = true;
        return found;
    }

    /** Set once the bundles' classes have been initialised (on a roomy thread); never reset. */
    private static volatile boolean bundleClassesReady;

    private static Map<String, Library> byName(Iterable<Library> libs) {
        Map<String, Library> found = new LinkedHashMap<>();
        for (Library lib : libs) found.putIfAbsent(lib.name(), lib);
        return found;
    }

    /** A runtime with default settings. */
    public static LuaVM create() {
        return builder().build();
    }

    /** A builder of a runtime: default limits, policy, audit sink, conversion bounds, bundles. */
    public static Builder builder() {
        return new Builder();
    }

    /** A sandbox from a shared default runtime, with default limits. */
    public static Sandbox newSandbox(Capabilities caps) {
        return sharedVM().sandbox(caps);
    }

    /** A sandbox from a shared default runtime. */
    public static Sandbox newSandbox(Capabilities caps, Limits limits) {
        return sharedVM().sandbox(caps, limits);
    }

    /**
     * A sandbox of the shared default runtime rebuilt from a snapshot ({@link Sandbox#snapshot()},
     * taken in this JVM or another), with {@code caps} and {@code limits}; its usage starts at
     * zero. Restoring the same bytes twice gives two independent sandboxes (a fork). For the
     * other options of a sandbox use {@link Sandbox.Builder#restoreFrom}.
     *
     * @throws LuaSnapshotException the bytes are not a snapshot this runtime reads (another
     *         format version, damaged, malformed), the state needs a grant {@code caps} lacks (the
     *         message names it), or it holds a paused run ({@link #resume} continues those)
     * @throws LuaLimitException the state does not fit {@code limits} (MEMORY, DEPTH), or reading
     *         it needs more gas or time than a run may use (GAS, TIME)
     */
    public static Sandbox restore(byte[] snapshot, Capabilities caps, Limits limits) {
        return sharedVM().sandbox().capabilities(caps).limits(limits).restoreFrom(snapshot).build();
    }

    /**
     * Continues a run paused at a host call ({@link LuaSuspendedException}), in a sandbox of the
     * shared default runtime with {@code caps} and {@code limits}, as if the call had returned
     * {@code hostResults}; in this JVM or another. The run keeps what it consumed before the pause
     * (gas, output, time) against {@code limits}. Returns the sandbox once the run has ended;
     * {@link Sandbox#resumedResults()} holds what it returned and {@link Sandbox#output()} what it
     * printed after the pause. Each paused snapshot resumes at most once per resume token (this
     * runtime's {@link ResumeLedger}); {@link #fork} makes an explicit copy. For the other options
     * of a sandbox use {@link Sandbox.Builder#resumeFrom}.
     *
     * @throws LuaSuspendedException the run paused again (at another host call)
     * @throws LuaScriptException the run raised an error nothing caught
     * @throws LuaLimitException the run ended on a limit, or the state does not fit {@code limits}
     * @throws LuaSnapshotException the bytes are not the snapshot of a paused run this runtime
     *         reads, it needs a grant {@code caps} lacks, or its token was used already
     */
    public static Sandbox resume(byte[] snapshot, Capabilities caps, Limits limits, Object... hostResults) {
        return sharedVM().sandbox().capabilities(caps).limits(limits).resumeFrom(snapshot, hostResults).build();
    }

    /**
     * A copy of a paused run's snapshot with a resume token of its own: both may be resumed once.
     * This is how a host runs a paused run twice on purpose (a retry after a failure, a test);
     * resuming the same bytes twice fails the second time.
     *
     * @throws LuaSnapshotException the bytes are not the snapshot of a paused run
     */
    public static byte[] fork(byte[] pausedSnapshot) {
        try {
            return dev.luavm.snapshot.SnapshotFormat.withToken(pausedSnapshot, sharedVM().freshToken());
        } catch (dev.luavm.snapshot.SnapshotProblem p) {
            throw new LuaSnapshotException(p.getMessage());
        }
    }

    private static LuaVM sharedVM() {
        LuaVM vm = shared;
        if (vm == null) {
            synchronized (LuaVM.class) {
                if (shared == null) shared = create();
                vm = shared;
            }
        }
        return vm;
    }

    /** A builder for a sandbox of this runtime: capabilities, limits, output, clock, seed... */
    public Sandbox.Builder sandbox() {
        return new Sandbox.Builder(this);
    }

    /** A sandbox of this runtime with {@code caps} and the runtime's default limits. */
    public Sandbox sandbox(Capabilities caps) {
        return sandbox().capabilities(caps).build();
    }

    /** A sandbox of this runtime with {@code caps} and {@code limits}. */
    public Sandbox sandbox(Capabilities caps, Limits limits) {
        return sandbox().capabilities(caps).limits(limits).build();
    }

    /**
     * Compiles Lua source text once, for {@link Sandbox#run} in any sandbox. The source is
     * bounded by the default limits' {@link Limits#sourceBytes()}, compilation work by their
     * gas and the compiler's heap by {@link Builder#compileMemory} (the compiler holds the code
     * it builds, 10 to 20 bytes per source byte of typical code, while it works). A chunk name starting with {@code @} or {@code =} is used as Lua's {@code load} would;
     * any other name is shown as it is ({@code "invoice.lua"} gives {@code invoice.lua:3:}).
     *
     * @throws LuaSyntaxException the source does not compile, is too big, or is a binary chunk
     * @throws LuaLimitException compilation needed more work than the gas limit (GAS) or more
     *         heap than the compile memory limit (MEMORY)
     */
    public CompiledChunk compile(String chunkName, String source) {
        return compile(chunkName, source.getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #compile(String, String)} for source bytes (Lua source need not be UTF-8). */
    public CompiledChunk compile(String chunkName, byte[] source) {
        byte[] text = source.clone(); // the chunk keeps it (snapshots carry it): the caller may reuse the array
        Prototype p = compile(chunkName, text, limits.sourceBytes(), new HostCompile(limits.gas(), compileMemory));
        return new CompiledChunk(displayName(chunkName), p, loadName(chunkName), text); // hashed when an audit log asks
    }

    /**
     * A compilation with no sandbox to charge ({@link #compile}): bounded by the default gas and
     * by {@link Builder#compileMemory}, ending with {@link LuaLimitException} past either.
     */
    private static final class HostCompile implements CompileMeter {
        private final long gas;
        private final long memory;
        private long work;
        private long held;

        HostCompile(long gas, long memory) {
            this.gas = gas;
            this.memory = memory;
        }

        @Override
        public void work(long units) {
            work += units;
            if (work > gas) throw new LuaLimitException(LuaLimitException.Limit.GAS);
        }

        @Override
        public void hold(long bytes) {
            if (bytes > memory - held) throw new LuaLimitException(LuaLimitException.Limit.MEMORY);
            held += bytes;
        }

        @Override
        public void release(long bytes) {
            held -= bytes;
        }
    }

    /**
     * Compiles with a meter; errors become {@link LuaSyntaxException}, except the meter's own
     * ({@code not enough memory} from a sandbox's memory meter goes on, for the sandbox to report).
     * The main function keeps {@code source} ({@link Prototype#attachChunkText}), which the
     * caller must not modify afterwards.
     */
    static Prototype compile(String chunkName, byte[] source, long maxBytes, CompileMeter meter) {
        Objects.requireNonNull(source, "source");
        String name = loadName(chunkName);
        String shown = displayName(chunkName);
        if (source.length > maxBytes) {
            throw new LuaSyntaxException(shown + ": source too large (" + source.length + " bytes, limit is "
                    + maxBytes + ")", shown, -1);
        }
        if (source.length > 0 && source[0] == 0x1b) {
            throw new LuaSyntaxException("attempt to load a binary chunk (mode is 't')", shown, -1);
        }
        try {
            Prototype p = LuaCompiler.compile(source, name, meter);
            p.attachChunkText(source);
            return p;
        } catch (LuaError e) {
            if (MemoryMeter.isOutOfMemory(e)) throw e;
            String msg = e.getMessage();
            return throwSyntax(msg, shown);
        }
    }

    private static Prototype throwSyntax(String msg, String shown) {
        int line = -1;
        String prefix = shown + ":";
        if (msg.startsWith(prefix)) {
            int end = msg.indexOf(':', prefix.length());
            if (end > prefix.length()) {
                try {
                    line = Integer.parseInt(msg.substring(prefix.length(), end));
                } catch (NumberFormatException ignored) {
                    // not a line number
                }
            }
        }
        throw new LuaSyntaxException(msg, shown, line);
    }

    /** The name given to the compiler: "=name" unless the host already chose "@" or "=". */
    static String loadName(String chunkName) {
        if (chunkName == null || chunkName.isEmpty()) return "=input";
        char c = chunkName.charAt(0);
        return c == '=' || c == '@' ? chunkName : "=" + chunkName;
    }

    /** The name as messages show it. */
    static String displayName(String chunkName) {
        return loadName(chunkName).substring(1);
    }

    /** Names of the bundles available to {@link Capabilities}. */
    public Set<String> availableBundles() {
        return bundles.keySet();
    }

    Library bundle(String name) {
        Library lib = bundles.get(name);
        if (lib == null) {
            throw new IllegalArgumentException("unknown capability bundle '" + name + "' (available: "
                    + String.join(", ", bundles.keySet()) + ")");
        }
        return lib;
    }

    /** A fresh resume token for a paused run (16 random bytes). */
    byte[] freshToken() {
        byte[] t = new byte[dev.luavm.snapshot.SnapshotFormat.TOKEN_BYTES];
        for (int i = 0; i < t.length; i += 8) {
            long v = seeds.next();
            for (int j = 0; j < 8 && i + j < t.length; j++) t[i + j] = (byte) (v >>> (8 * j));
        }
        return t;
    }

    /** The key this runtime seals and checks snapshots with, or null. */
    byte[] snapshotKey() {
        return snapshotKey;
    }

    /** Where this runtime records the resume tokens it has used ({@link Builder#resumeLedger}). */
    ResumeLedger resumeLedger() {
        return ledger;
    }

    /** A seed from entropy, for a sandbox whose host asked for one ({@link Sandbox.Builder#randomSeedFromEntropy}). */
    long freshSeed() {
        return seeds.next();
    }

    /**
     * One {@link SecureRandom} per runtime, read 32 seeds at a time: one call per sandbox cost
     * about as much as the rest of a sandbox's creation.
     */
    private static final class SeedSource {
        private static final int BATCH = 32;
        /** made only where the kernel's pool cannot be read directly */
        private SecureRandom random;
        private final ByteBuffer batch = ByteBuffer.allocate(BATCH * Long.BYTES).position(BATCH * Long.BYTES);

        synchronized long next() {
            if (!batch.hasRemaining()) {
                fill(batch.array());
                batch.clear();
            }
            return batch.getLong();
        }

        /**
         * The same bytes NativePRNG would give, read directly: setting up SecureRandom's provider
         * framework was the largest single item of the command line's start-up.
         */
        private void fill(byte[] b) {
            try (java.io.InputStream in = new java.io.FileInputStream("/dev/urandom")) {
                if (in.readNBytes(b, 0, b.length) == b.length) return;
            } catch (java.io.IOException | SecurityException e) {
                // no /dev/urandom here: the portable way below
            }
            if (random == null) random = new SecureRandom();
            random.nextBytes(b);
        }
    }

    Limits defaultLimits() {
        return limits;
    }

    HostCallPolicy policy() {
        return policy;
    }

    dev.luavm.vm.Tiering tiering() {
        return tiering;
    }

    /** The tier this runtime runs (see {@link Builder#tier}). */
    public dev.luavm.vm.tier.Tier tier() {
        return tiering.mode();
    }

    /** Functions this runtime's sandboxes have compiled so far, in order ({@code ./luavm -l}). */
    public java.util.List<String> compiledFunctions() {
        return tiering.compiledFunctions();
    }

    /** The default audit sink of sandboxes, or null (no log). */
    dev.luavm.audit.AuditSink auditSink() {
        return auditSink;
    }

    ValueConverter converter(ValueConverter.Handles handles, dev.luavm.meter.MemoryMeter meter) {
        return new ValueConverter(handles, meter, conversionDepth, conversionElements, binaryStrings);
    }

    /** Settings shared by the sandboxes of one runtime. */
    public static final class Builder {
        private Limits limits = Limits.defaults();
        private HostCallPolicy policy = HostCallPolicy.allowAll();
        private dev.luavm.audit.AuditSink auditSink;
        private int conversionDepth = 100;
        private long conversionElements = 1_000_000;
        private boolean binaryStrings;
        private long compileMemory = DEFAULT_COMPILE_MEMORY;
        private Iterable<Library> libraries;
        private dev.luavm.vm.tier.Tier tier = defaultTier();
        private dev.luavm.vm.tier.FunctionCompiler functionCompiler;
        private ResumeLedger ledger;
        private byte[] snapshotKey;

        private Builder() {}

        /**
         * Seals the snapshots this runtime's sandboxes write with HMAC-SHA256 under {@code key}
         * (at least 16 bytes; keep it secret), and checks the seal of every sealed snapshot it
         * restores: one whose seal does not verify is refused. Only a snapshot sealed under this
         * key may carry functions that belong to a module ({@link Capabilities.Builder#grantToModule}):
         * an unsealed one could give a module's rights to code it wrote, or change the module's
         * own variables. Default: no key (snapshots are unsealed, and module functions cannot be
         * restored).
         */
        public Builder snapshotKey(byte[] key) {
            if (key == null || key.length < 16) throw new IllegalArgumentException("a snapshot key has at least 16 bytes");
            this.snapshotKey = key.clone();
            return this;
        }

        /**
         * Where the resume tokens of paused runs are recorded, so each snapshot of a paused run
         * resumes once (default: {@link ResumeLedger#inMemory()}, this runtime's memory: give a
         * durable one when runs resume in several processes).
         */
        public Builder resumeLedger(ResumeLedger ledger) {
            this.ledger = Objects.requireNonNull(ledger);
            return this;
        }

        /** System property {@code luavm.tier} (interp, auto, compile-all), else auto. */
        private static dev.luavm.vm.tier.Tier defaultTier() {
            String s = System.getProperty("luavm.tier");
            return s == null || s.isEmpty() ? dev.luavm.vm.tier.Tier.AUTO : dev.luavm.vm.tier.Tier.parse(s);
        }

        /**
         * Which functions run as JVM bytecode (default {@code AUTO}, or system property
         * {@code luavm.tier}): {@code AUTO} compiles hot functions, {@code COMPILE_ALL} every
         * function, {@code INTERP} none. Needs module luavm-jit on the class path (else
         * everything stays interpreted).
         * Output, errors and gas are the same in every tier.
         */
        public Builder tier(dev.luavm.vm.tier.Tier tier) {
            this.tier = Objects.requireNonNull(tier);
            return this;
        }

        /** The code generator of the compiled tier (default: the one {@link ServiceLoader} finds). */
        public Builder functionCompiler(dev.luavm.vm.tier.FunctionCompiler compiler) {
            this.functionCompiler = Objects.requireNonNull(compiler);
            return this;
        }

        /** Default limits of sandboxes and of {@link #compile} (default {@link Limits#defaults()}). */
        public Builder limits(Limits limits) {
            this.limits = Objects.requireNonNull(limits);
            return this;
        }

        /**
         * The policy every call of an UNSAFE host function is checked against (default: allow
         * all); a sandbox may have its own ({@link Sandbox.Builder#policy}).
         */
        public Builder policy(HostCallPolicy policy) {
            this.policy = Objects.requireNonNull(policy);
            return this;
        }

        /**
         * Where every sandbox's audit log goes unless its builder names another
         * ({@link Sandbox.Builder#audit}); default none. Events carry the sandbox's name, so
         * one sink may serve many sandboxes (it must then be thread-safe).
         */
        public Builder audit(dev.luavm.audit.AuditSink sink) {
            this.auditSink = Objects.requireNonNull(sink);
            return this;
        }

        /** Bounds on one value crossing between Java and Lua (default: 100 levels, 1,000,000 values). */
        public Builder conversion(int maxDepth, long maxElements) {
            if (maxDepth < 1 || maxDepth > ValueConverter.DEPTH_CEILING) {
                throw new IllegalArgumentException("depth must be in 1.." + ValueConverter.DEPTH_CEILING);
            }
            if (maxElements < 1) throw new IllegalArgumentException("elements must be positive");
            this.conversionDepth = maxDepth;
            this.conversionElements = maxElements;
            return this;
        }

        /**
         * When true, every Lua string reaches Java as {@code byte[]}; by default a string comes
         * back as {@code String} when it is valid UTF-8 and as {@code byte[]} otherwise.
         */
        public Builder binaryStrings(boolean binary) {
            this.binaryStrings = binary;
            return this;
        }

        /**
         * The heap {@link LuaVM#compile} may hold while compiling (default
         * {@value LuaVM#DEFAULT_COMPILE_MEMORY} bytes; the compiler charges what it really holds:
         * the code it builds, interned strings and a frame per level of nesting, 10 to 20 bytes per
         * source byte of typical code). Compiling for a
         * sandbox ({@code eval}, {@code load}) charges the sandbox's memory limit instead.
         */
        public Builder compileMemory(long bytes) {
            if (bytes <= 0) throw new IllegalArgumentException("compile memory must be positive: " + bytes);
            this.compileMemory = bytes;
            return this;
        }

        /**
         * Uses these bundles instead of the ones {@link ServiceLoader} finds. Capabilities that
         * name a bundle only these provide are built with
         * {@code Capabilities.builder().availableBundles(vm.availableBundles())}, since
         * {@link Capabilities.Builder#build()} otherwise checks names against the class path's.
         */
        public Builder libraries(Iterable<Library> libraries) {
            this.libraries = Objects.requireNonNull(libraries);
            return this;
        }

        /** The runtime; finds the capability bundles now. */
        public LuaVM build() {
            return new LuaVM(this);
        }
    }
}
