package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.vm.tier.Tier;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The soak: a long life for one runtime. At least a million runs spread over a thousand
 * sandboxes by eight threads, the compiled tier on, a tenth of them attacks; every run's outcome
 * checked against what it must be, and the process's heap, metaspace, loaded classes, threads
 * and file handles measured at checkpoints between segments of runs (all threads paused, the
 * heap collected). The verdict fails when any run ended otherwise than it must, or when a figure
 * keeps growing ({@link Trend}): a run that leaks a few hundred bytes, a class, a thread or a file
 * handle shows up over a million runs.
 *
 * <p>Each run is one of the {@link Kind}s: five ordinary workloads (strings, tables and sort
 * with a comparator, coroutines and recursion, a typed host module with records, enums, lists
 * and a callback, and a chunk {@code load}ed afresh each run and run hot enough to be compiled)
 * and six attacks (gas, memory, depth, output, a cancel from another thread, malformed arguments
 * to the typed module). Sandboxes are long-lived, as an embedder's are: each run takes a free
 * one at random, and one run in {@value #CHURN} closes its sandbox and puts a new one in its
 * place.
 *
 * <p>usage: {@code Soak [--runs N] [--sandboxes N] [--threads N] [--tier interp|auto|compile-all]
 * [--checkpoints N] [--seed N] [--results RESULTS.md]}. With {@code --results}, the report
 * replaces the section between the soak markers of that file (appended when absent). Exit
 * status 1 when the verdict fails.
 */
public final class Soak {
    static final String BEGIN = "<!-- soak: begin (written by benchmarks/soak) -->";
    static final String END = "<!-- soak: end -->";
    /** One run in this many replaces its sandbox with a new one. */
    static final int CHURN = 500;
    /** One run in this many is an attack. */
    static final int ATTACK_ONE_IN = 10;

    /** What a run does, and what it must come to. */
    enum Kind {
        STRINGS(false, """
                local n = ...
                local parts = {}
                for i = 1, 120 do parts[#parts + 1] = string.format('%d:%s', i * n, ('ab'):rep(i % 7)) end
                local s = table.concat(parts, ',')
                local digits = 0
                for w in s:gmatch('%d+') do digits = digits + #w end
                local replaced = s:gsub('ab', 'x')
                return digits .. ':' .. #replaced .. ':' .. s:upper():sub(1, 12)"""),
        TABLES(false, """
                local n = ...
                local t, x = {}, n
                for i = 1, 250 do x = (x * 1103515245 + 12345) % 2147483648 t[i] = x % 1000 end
                table.sort(t, function(a, b) return a > b end)
                local sum = 0
                for i, v in ipairs(t) do sum = sum + v * i end
                local m = {}
                for i = 1, 100 do m['k' .. (i % 37)] = (m['k' .. (i % 37)] or 0) + i end
                local keys = 0
                for k, v in pairs(m) do keys = keys + v end
                return sum .. ':' .. keys"""),
        COROUTINES(false, """
                local n = ...
                local gen = coroutine.wrap(function() for i = 1, 100 do coroutine.yield(i * n) end end)
                local acc = 0
                for i = 1, 100 do acc = acc + gen() end
                local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
                return acc + fib(10 + n % 4)"""),
        HOST(false, """
                local n = ...
                local o = soak.order({id = 'o' .. n, lines = {{sku = 'A', qty = n}, {sku = 'B', qty = 2}}, status = 'OPEN'})
                local doubled = soak.map({1, 2, 3, n}, function(x) return x * 2 end)
                local s = 0
                for _, v in ipairs(doubled) do s = s + v end
                return o.id .. ':' .. o.total .. ':' .. o.status .. ':' .. s .. ':' .. soak.echo('x' .. n)"""),
        LOAD(false, """
                local n = ...
                local f = load('local a = ... local s = 0 for i = 1, 3000 do s = s + (i * a + ' .. n .. ') % 7 end return s')
                local total = 0
                for i = 1, 4 do total = total + f(i) end
                return total"""),
        GAS(true, "while true do end"),
        /** A table of strings, or (even n) one string doubling. */
        MEMORY(true, """
                local n = ...
                if n % 2 == 0 then local s = 'x' while true do s = s .. s end end
                local t, i = {}, 0 while true do i = i + 1 t[i] = ('x'):rep(4000) .. i end"""),
        DEPTH(true, "local function f(n) return 1 + f(n + 1) end return f(1)"),
        OUTPUT(true, "local s = ('x'):rep(200) while true do print(s) end"),
        /** Spins in a host call until another thread cancels the run. */
        CANCEL(true, "while true do soak.pause() end"),
        /** Every argument wrong in its own way; each must be a Lua error the script catches, naming no Java class. */
        HOST_ARGS(true, """
                local n = ...
                local bad, calls = 0, 0
                local function try(f, ...)
                  calls = calls + 1
                  local ok, e = pcall(f, ...)
                  if ok then error('malformed call ' .. calls .. ' succeeded') end
                  bad = bad + 1
                  local text = tostring(e)
                  if text:find('Exception', 1, true) or text:find('java.', 1, true) or #text > 400 then error('leaked: ' .. text) end
                end
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 2^40}}, status = 'OPEN'})
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 0/0}}, status = 'OPEN'})
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 1.5}}, status = 'OPEN'})
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 1}}, status = 'open'})
                try(soak.order, {id = 'x', lines = 'none', status = 'OPEN'})
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 1, colour = 'red'}}, status = 'OPEN'})
                try(soak.order, {id = 'x', lines = {{sku = 'A', qty = 1}}, status = ('S'):rep(100000)})
                local cyc = {id = 'c', status = 'OPEN'} cyc.lines = {cyc}
                try(soak.order, cyc)
                try(soak.order, nil)
                try(soak.map, {1, 2}, 'not a function')
                try(soak.map, {1, 2}, function(x) return 'text' end)
                try(soak.map, {1, 2}, function(x) error({code = n}) end)
                try(soak.map, {1.5}, function(x) return x end)
                try(soak.echo)
                soak.keep(function() return 1 end)
                try(soak.call_kept)
                return bad .. ' of ' .. calls""");

        final boolean attack;
        final String source;

        Kind(boolean attack, String source) {
            this.attack = attack;
            this.source = source;
        }
    }

    record Settings(long runs, int sandboxes, int threads, Tier tier, int checkpoints, long seed) {
        static Settings full() {
            return new Settings(1_000_000, 1_000, 8, Tier.AUTO, 20, 1);
        }
    }

    /** One checkpoint's figures, measured with every worker paused and the heap collected. */
    record Sample(long runs, long heapBytes, long metaspaceBytes, long classes, int threads, long fileHandles, double seconds) {}

    /** The outcome of a soak. */
    record Report(Settings settings, List<Sample> samples, Map<Kind, Long> counts, long unexpected, List<String> examples,
                  List<Trend> trends, long newSandboxes, long compiledFunctions, double seconds) {
        boolean passed() {
            return unexpected == 0 && trends.stream().noneMatch(Trend::growing);
        }
    }

    /**
     * Whether a figure keeps growing: from the baseline (the checkpoint after warm-up) to the end
     * it grew by more than {@code slack}, and it was still growing over the second half (more
     * than half the slack from the middle checkpoint to the end). A one-time step (a late
     * compilation, a cache filled once) grows in one half only; a leak grows in both.
     */
    record Trend(String name, long baseline, long middle, long end, long slack) {
        boolean growing() {
            return end - baseline > slack && end - middle > slack / 2;
        }

        static Trend of(String name, List<Sample> samples, java.util.function.ToLongFunction<Sample> f, long fixed, double ratio) {
            Sample base = samples.get(Math.min(1, samples.size() - 1));
            Sample mid = samples.get(Math.max(1, samples.size() / 2));
            Sample end = samples.get(samples.size() - 1);
            long b = f.applyAsLong(base);
            return new Trend(name, b, f.applyAsLong(mid), f.applyAsLong(end), Math.max(fixed, (long) (b * ratio)));
        }
    }

    private final Settings settings;
    private final LuaVM vm;
    private final Capabilities caps;
    private final Limits limits;
    private final Map<Kind, dev.luavm.CompiledChunk> chunks = new EnumMap<>(Kind.class);
    /** what each ordinary kind returns for n = 1..16, from a reference run before the soak */
    private final Map<Kind, Object[]> expected = new EnumMap<>(Kind.class);
    private final AtomicReferenceArray<Sandbox> slots;
    private final ReentrantLock[] locks;
    private final ScheduledExecutorService canceller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "soak-canceller");
        t.setDaemon(true);
        return t;
    });
    private final Map<Kind, LongAdder> counts = new EnumMap<>(Kind.class);
    private final LongAdder unexpected = new LongAdder();
    private final List<String> examples = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final LongAdder newSandboxes = new LongAdder();
    private final AtomicLong sandboxNames = new AtomicLong();

    Soak(Settings settings) {
        this.settings = settings;
        this.vm = LuaVM.builder().tier(settings.tier()).build();
        this.caps = Capabilities.standard().toBuilder().module(new SoakHost()).build();
        this.limits = Limits.defaults().withGas(Long.MAX_VALUE / 4).withRunGas(3_000_000).withMemory(2 << 20)
                .withCallDepth(1_000).withOutput(64 << 10).withTimeout(java.time.Duration.ofSeconds(20));
        for (Kind k : Kind.values()) {
            chunks.put(k, vm.compile(k.name().toLowerCase(Locale.ROOT) + ".lua", k.source));
            counts.put(k, new LongAdder());
        }
        slots = new AtomicReferenceArray<>(settings.sandboxes());
        locks = new ReentrantLock[settings.sandboxes()];
        for (int i = 0; i < settings.sandboxes(); i++) {
            slots.set(i, newSandbox());
            locks[i] = new ReentrantLock();
        }
        newSandboxes.reset();
        referenceResults();
    }

    /** A sandbox as the soak's, for tests. */
    Sandbox newSandboxForTest() {
        return newSandbox();
    }

    private Sandbox newSandbox() {
        newSandboxes.increment();
        return vm.sandbox().name("soak-" + sandboxNames.incrementAndGet()).capabilities(caps).limits(limits)
                .output(OutputStream.nullOutputStream()).build();
    }

    /** What the ordinary kinds and HOST_ARGS return, computed once in a sandbox of their own. */
    private void referenceResults() {
        for (Kind k : Kind.values()) {
            if (k.attack && k != Kind.HOST_ARGS) continue;
            Object[] r = new Object[17];
            try (Sandbox sb = newSandbox()) {
                for (int n = 1; n <= 16; n++) r[n] = sb.run(chunks.get(k), (long) n).first();
            }
            expected.put(k, r);
        }
        newSandboxes.reset();
    }

    /** Runs the soak: checkpoints between segments of runs, every worker paused at each. */
    Report run(java.io.PrintStream progress) throws Exception {
        long start = System.nanoTime();
        List<Sample> samples = new ArrayList<>();
        samples.add(sample(0, start));
        ExecutorService workers = Executors.newFixedThreadPool(settings.threads(), r -> {
            Thread t = new Thread(r, "soak-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            long done = 0;
            for (int c = 1; c <= settings.checkpoints(); c++) {
                long upTo = settings.runs() * c / settings.checkpoints();
                AtomicLong next = new AtomicLong(done);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < settings.threads(); t++) {
                    long seed = settings.seed() * 1_000_003L + c * 101L + t;
                    fs.add(workers.submit(() -> work(next, upTo, new SplittableRandom(seed))));
                }
                for (Future<?> f : fs) f.get();
                done = upTo;
                Sample s = sample(done, start);
                samples.add(s);
                if (progress != null) {
                    progress.printf(Locale.ROOT, "soak: %,d runs, %.0f s: heap %s, metaspace %s, classes %,d, threads %d, files %d, unexpected %d%n",
                            done, s.seconds(), mib(s.heapBytes()), mib(s.metaspaceBytes()), s.classes(), s.threads(), s.fileHandles(),
                            unexpected.sum());
                }
            }
        } finally {
            workers.shutdownNow();
            workers.awaitTermination(1, TimeUnit.MINUTES);
        }
        for (int i = 0; i < slots.length(); i++) slots.get(i).close();
        canceller.shutdownNow();
        Map<Kind, Long> counted = new EnumMap<>(Kind.class);
        counts.forEach((k, v) -> counted.put(k, v.sum()));
        List<Trend> trends = List.of(
                Trend.of("heap (after GC)", samples, Sample::heapBytes, 24L << 20, 0.05),
                Trend.of("metaspace", samples, Sample::metaspaceBytes, 4L << 20, 0.02),
                Trend.of("loaded classes", samples, Sample::classes, 400, 0.0),
                Trend.of("threads", samples, s -> s.threads(), 2, 0.0),
                Trend.of("file handles", samples, Sample::fileHandles, 8, 0.0));
        return new Report(settings, samples, counted, unexpected.sum(), List.copyOf(examples), trends, newSandboxes.sum(),
                vm.compiledFunctions().size(), (System.nanoTime() - start) / 1e9);
    }

    /** One worker's share of a segment: runs until the segment's runs are taken. */
    private void work(AtomicLong next, long upTo, SplittableRandom rnd) {
        while (next.getAndIncrement() < upTo) {
            Kind kind = pick(rnd);
            long n = 1 + rnd.nextInt(16);
            int slot = rnd.nextInt(slots.length());
            while (!locks[slot].tryLock()) slot = (slot + 1) % slots.length();
            try {
                Sandbox sb = slots.get(slot);
                String problem = runOne(sb, kind, n);
                counts.get(kind).increment();
                if (problem != null) {
                    unexpected.increment();
                    if (examples.size() < 10) examples.add(kind + " (n=" + n + "): " + problem);
                }
                if (problem != null || rnd.nextInt(CHURN) == 0) {
                    sb.close();
                    slots.set(slot, newSandbox());
                }
            } finally {
                locks[slot].unlock();
            }
        }
    }

    private static final Kind[] ATTACKS = java.util.Arrays.stream(Kind.values()).filter(k -> k.attack).toArray(Kind[]::new);
    /**
     * The ordinary kinds, weighted: {@link Kind#LOAD} compiles a new function every run (about
     * ten times the cost of the others), so it is one ordinary run in thirteen.
     */
    private static final Kind[] ORDINARY = {Kind.STRINGS, Kind.STRINGS, Kind.STRINGS, Kind.TABLES, Kind.TABLES, Kind.TABLES,
        Kind.COROUTINES, Kind.COROUTINES, Kind.COROUTINES, Kind.HOST, Kind.HOST, Kind.HOST, Kind.LOAD};

    private static Kind pick(SplittableRandom rnd) {
        if (rnd.nextInt(ATTACK_ONE_IN) == 0) return ATTACKS[rnd.nextInt(ATTACKS.length)];
        return ORDINARY[rnd.nextInt(ORDINARY.length)];
    }

    /** Runs one run; null when it ended as it must, else what went wrong. */
    String runOne(Sandbox sb, Kind kind, long n) {
        // the cancel names this run (Sandbox.cancel() ignores an idle sandbox, and on a loaded
        // machine the 2 ms may pass before the run starts: the run then ends at its start)
        java.util.concurrent.ScheduledFuture<?> cancel = kind == Kind.CANCEL
                ? canceller.schedule(sb.nextRun()::cancel, 2, TimeUnit.MILLISECONDS) : null;
        try {
            Object result = sb.run(chunks.get(kind), n).first();
            if (kind.attack && kind != Kind.HOST_ARGS) return "returned " + result + " instead of ending with a limit";
            Object want = expected.get(kind)[(int) n];
            return java.util.Objects.equals(want, result) ? null : "returned " + result + ", expected " + want;
        } catch (LuaLimitException e) {
            LuaLimitException.Limit want = switch (kind) {
                case GAS -> LuaLimitException.Limit.GAS;
                case MEMORY -> LuaLimitException.Limit.MEMORY;
                case DEPTH -> LuaLimitException.Limit.DEPTH;
                case OUTPUT -> LuaLimitException.Limit.OUTPUT;
                case CANCEL -> LuaLimitException.Limit.CANCELLED;
                default -> null;
            };
            return e.limit() == want ? null : "ended with the " + e.limit().label + " limit";
        } catch (LuaException e) {
            return "ended with " + e.getClass().getSimpleName() + ": " + cut(e.getMessage());
        } catch (Throwable e) {
            return "a Java exception reached the host: " + e;
        } finally {
            if (cancel != null) cancel.cancel(false);
        }
    }

    private static String cut(String s) {
        return s == null || s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    /** The figures now, with every worker paused: the heap collected first, until it settles. */
    static Sample sample(long runs, long start) throws InterruptedException {
        java.lang.management.MemoryMXBean mem = java.lang.management.ManagementFactory.getMemoryMXBean();
        long heap = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {   // the least of three collections: a concurrent phase may leave garbage behind once
            System.gc();
            Thread.sleep(50);
            heap = Math.min(heap, mem.getHeapMemoryUsage().getUsed());
        }
        long metaspace = 0;
        for (java.lang.management.MemoryPoolMXBean p : java.lang.management.ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getName().equals("Metaspace")) metaspace = p.getUsage().getUsed();
        }
        long classes = java.lang.management.ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
        int threads = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCount();
        return new Sample(runs, heap, metaspace, classes, threads, fileHandles(), (System.nanoTime() - start) / 1e9);
    }

    /** Open file descriptors of this process: the JVM's count, else /proc/self/fd, else -1. */
    static long fileHandles() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u) {
            return u.getOpenFileDescriptorCount();
        }
        try (var s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    /** The report as a RESULTS.md section. */
    static String markdown(Report r) {
        StringBuilder b = new StringBuilder();
        Settings s = r.settings();
        b.append(BEGIN).append('\n');
        b.append("## Soak: ").append(String.format(Locale.ROOT, "%,d", s.runs())).append(" runs over ")
                .append(String.format(Locale.ROOT, "%,d", s.sandboxes())).append(" sandboxes\n\n");
        String when = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        b.append(String.format(Locale.ROOT, "`benchmarks/soak`, %s, %d threads, tier %s, %s, %.0f s (%,.0f runs/s); Java %s, %d processors, max heap %s%s.%n%n",
                when, s.threads(), s.tier().name().toLowerCase(Locale.ROOT).replace('_', '-'), r.passed() ? "**passed**" : "**FAILED**",
                r.seconds(), s.runs() / r.seconds(), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                mib(Runtime.getRuntime().maxMemory()), commit()));
        b.append("Runs by kind (a tenth are attacks, each of which must end as it must):\n\n");
        b.append("| kind | runs | must end |\n|---|---:|---|\n");
        for (Kind k : Kind.values()) {
            b.append("| ").append(k.name().toLowerCase(Locale.ROOT)).append(" | ")
                    .append(String.format(Locale.ROOT, "%,d", r.counts().getOrDefault(k, 0L))).append(" | ").append(mustEnd(k)).append(" |\n");
        }
        b.append(String.format(Locale.ROOT, "%nUnexpected outcomes: %,d. Sandboxes replaced (one run in %d, and after any unexpected outcome): %,d. "
                + "Functions the compiled tier compiled: %,d (the runtime keeps the first 10,000 names).%n%n", r.unexpected(), CHURN, r.newSandboxes(), r.compiledFunctions()));
        for (String e : r.examples()) b.append("- ").append(e).append('\n');
        if (!r.examples().isEmpty()) b.append('\n');
        b.append("Figures at the start, after warm-up (the baseline: the first checkpoint after the start), in the middle and at the end,"
                + " each with every worker paused and the heap collected. A figure keeps growing when it grew by more than its allowance"
                + " from the baseline to the end and by more than half of it over the second half:\n\n");
        b.append("| figure | start | baseline | middle | end | baseline to end | second half | allowed | verdict |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        Sample first = r.samples().get(0);
        for (Trend t : r.trends()) {
            boolean bytes = t.name().startsWith("heap") || t.name().startsWith("metaspace");
            long startValue = switch (t.name()) {
                case "heap (after GC)" -> first.heapBytes();
                case "metaspace" -> first.metaspaceBytes();
                case "loaded classes" -> first.classes();
                case "threads" -> first.threads();
                default -> first.fileHandles();
            };
            b.append("| ").append(t.name()).append(" | ").append(fmt(startValue, bytes)).append(" | ").append(fmt(t.baseline(), bytes))
                    .append(" | ").append(fmt(t.middle(), bytes)).append(" | ").append(fmt(t.end(), bytes)).append(" | ")
                    .append(signed(t.end() - t.baseline(), bytes)).append(" | ").append(signed(t.end() - t.middle(), bytes))
                    .append(" | ").append(fmt(t.slack(), bytes)).append(" | ").append(t.growing() ? "**keeps growing**" : "flat").append(" |\n");
        }
        b.append("\nEvery checkpoint:\n\n| runs | seconds | heap | metaspace | classes | threads | files |\n|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Sample x : r.samples()) {
            b.append(String.format(Locale.ROOT, "| %,d | %.0f | %s | %s | %,d | %d | %d |%n", x.runs(), x.seconds(), mib(x.heapBytes()),
                    mib(x.metaspaceBytes()), x.classes(), x.threads(), x.fileHandles()));
        }
        b.append(END).append('\n');
        return b.toString();
    }

    private static String signed(long v, boolean bytes) {
        return (v > 0 ? "+" : v < 0 ? "-" : "") + fmt(Math.abs(v), bytes);
    }

    private static String fmt(long v, boolean bytes) {
        return bytes ? mib(v) : String.format(Locale.ROOT, "%,d", v);
    }

    private static String mustEnd(Kind k) {
        return switch (k) {
            case GAS -> "gas limit";
            case MEMORY -> "memory limit";
            case DEPTH -> "depth limit";
            case OUTPUT -> "output limit";
            case CANCEL -> "cancelled by another thread after 2 ms, inside a host call";
            case HOST_ARGS -> "each of 15 malformed calls (out of range, NaN, 1.5, wrong enum case, a 100,000-character enum"
                    + " name, unknown field, cyclic table, bad callback results, a kept callback) a caught Lua error naming no Java class";
            default -> "its reference result";
        };
    }

    private static String commit() {
        String c = System.getProperty("soak.commit", "");
        return c.isEmpty() ? "" : ", commit " + c;
    }

    static void writeSection(Path file, String section) throws IOException {
        String old = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        int a = old.indexOf(BEGIN);
        int z = old.indexOf(END);
        String text;
        if (a >= 0 && z > a) {
            text = old.substring(0, a) + section.strip() + old.substring(z + END.length());
        } else {
            text = old + (old.isEmpty() || old.endsWith("\n\n") ? "" : old.endsWith("\n") ? "\n" : "\n\n") + section;
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        Settings d = Settings.full();
        long runs = d.runs();
        int sandboxes = d.sandboxes(), threads = d.threads(), checkpoints = d.checkpoints();
        Tier tier = d.tier();
        long seed = d.seed();
        Path results = null;
        int perKind = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--per-kind" -> perKind = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Long.parseLong(args[++i].replace("_", ""));
                case "--sandboxes" -> sandboxes = Integer.parseInt(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--tier" -> tier = Tier.parse(args[++i]);
                case "--checkpoints" -> checkpoints = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--results" -> results = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: Soak [--runs N] [--sandboxes N] [--threads N] [--tier interp|auto|compile-all]"
                            + " [--checkpoints N] [--seed N] [--results RESULTS.md]");
                    System.exit(2);
                }
            }
        }
        if (checkpoints < 4) throw new IllegalArgumentException("--checkpoints must be at least 4");
        if (perKind > 0) {
            // the cost of each kind alone: one sandbox, one thread, perKind runs after as many to warm up
            Soak soak = new Soak(new Settings(1, 1, 1, tier, checkpoints, seed));
            try (Sandbox sb = soak.newSandbox()) {
                for (Kind k : Kind.values()) {
                    for (int i = 0; i < perKind; i++) soak.runOne(sb, k, 1 + i % 16);
                    long t0 = System.nanoTime();
                    String problem = null;
                    for (int i = 0; i < perKind && problem == null; i++) problem = soak.runOne(sb, k, 1 + i % 16);
                    System.out.printf(Locale.ROOT, "%-10s %8.3f ms/run%s%n", k, (System.nanoTime() - t0) / 1e6 / perKind,
                            problem == null ? "" : "  " + problem);
                }
            }
            return;
        }
        Report r = new Soak(new Settings(runs, sandboxes, threads, tier, checkpoints, seed)).run(System.err);
        String md = markdown(r);
        System.out.println(md);
        if (results != null) writeSection(results, md);
        if (!r.passed()) {
            System.err.println("soak: FAILED (" + r.unexpected() + " unexpected outcomes; growing: "
                    + r.trends().stream().filter(Trend::growing).map(Trend::name).toList() + ")");
            System.exit(1);
        }
    }

    /** The typed host module every soak sandbox is granted. */
    @dev.luavm.binding.LuaModule("soak")
    public static final class SoakHost {
        public enum Status { OPEN, PAID }

        public record Line(String sku, int qty) {}

        public record Order(String id, List<Line> lines, Status status) {}

        public record Summary(String id, long total, Status status) {}

        /** by sandbox name: host functions run on host-call threads, so a thread names no caller */
        private final Map<String, Runnable> kept = new ConcurrentHashMap<>();

        @dev.luavm.binding.LuaFunction(description = "Totals an order", safety = dev.luavm.host.Safety.SAFE)
        public Summary order(Order o) {
            long total = 0;
            for (Line l : o.lines()) total += l.qty();
            return new Summary(o.id(), total, o.status());
        }

        @dev.luavm.binding.LuaFunction(description = "Maps a function over numbers", safety = dev.luavm.host.Safety.SAFE)
        public List<Long> map(List<Long> xs, java.util.function.Function<Long, Long> f) {
            List<Long> out = new ArrayList<>(xs.size());
            for (Long x : xs) out.add(f.apply(x));
            return out;
        }

        @dev.luavm.binding.LuaFunction(description = "Gives its argument back", safety = dev.luavm.host.Safety.SAFE)
        public String echo(String s) {
            return s;
        }

        @dev.luavm.binding.LuaFunction(description = "Waits a millisecond", safety = dev.luavm.host.Safety.SAFE)
        public void pause() throws InterruptedException {
            Thread.sleep(1);
        }

        @dev.luavm.binding.LuaFunction(description = "Keeps a callback past its call", safety = dev.luavm.host.Safety.SAFE)
        public void keep(dev.luavm.host.HostCall call, Runnable r) {
            kept.put(call.sandboxName(), r);
        }

        @dev.luavm.binding.LuaFunction(description = "Calls the kept callback", safety = dev.luavm.host.Safety.SAFE)
        public void callKept(dev.luavm.host.HostCall call) {
            Runnable r = kept.remove(call.sandboxName());
            if (r != null) r.run();
        }
    }
}
