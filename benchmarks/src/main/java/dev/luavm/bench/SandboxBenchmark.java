package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sandbox latency in a warm JVM: create a sandbox (a fresh global environment with the
 * standard libraries), evaluate {@code return 1} in it, close it. LuaJ and Luna are
 * reference points. Retained bytes per sandbox are measured by {@link Footprint}.
 *
 * <p>{@link Luavm} splits luavm's figure in two through its own API: create + close alone,
 * and create + run of a chunk compiled once + close (no compilation per sandbox).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SandboxBenchmark {

    @Param({"luavm", "luaj", "luna"})
    public String engine;

    private Engine vm;

    @Setup
    public void setUp() throws Exception {
        vm = Engines.create(engine);
        Object one = newSandboxEval();
        if (one == null || !one.toString().equals("1")) {
            throw new IllegalStateException(engine + ": 'return 1' gave " + one);
        }
    }

    /** Creates a sandbox, evaluates {@code return 1}, closes it. */
    @Benchmark
    public Object newSandboxEval() throws Exception {
        try (Engine.Session s = vm.newSession()) {
            return s.eval("return 1");
        }
    }

    /**
     * luavm only, through its API, with the same limits as the {@code luavm} engine
     * ({@code Limits.unlimited()}) and {@link Capabilities#standard()}.
     */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public static class Luavm {
        private LuaVM vm;
        private CompiledChunk returnOne;

        @Setup
        public void setUp() {
            vm = LuaVM.create();
            returnOne = vm.compile("input", "return 1");
            List<Object> r = runCompiled();
            if (!r.equals(List.of(1L))) {
                throw new IllegalStateException("luavm: compiled 'return 1' gave " + r);
            }
        }

        private Sandbox newSandbox() {
            return vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).build();
        }

        /** Creates a sandbox and closes it. */
        @Benchmark
        public Sandbox createClose() {
            Sandbox sb = newSandbox();
            sb.close();
            return sb;
        }

        /** Creates a sandbox, runs {@code return 1} compiled once in setup, closes it. */
        @Benchmark
        public List<Object> runCompiled() {
            try (Sandbox sb = newSandbox()) {
                return sb.run(returnOne);
            }
        }
    }

    /**
     * The fresh sandbox per call that {@code LuaSpark} makes for each row (its limits, a seed per
     * row, a virtual clock, output discarded) running {@code return {}} compiled once, against the
     * same run in one reused sandbox; then create + close alone. Prints, per operation, this
     * thread's CPU time and the bytes it allocated (after warm-up rounds): figures a loaded machine
     * disturbs far less than JMH's wall-clock time. The collector's own work is not in the CPU
     * figure; the bytes say how much of it there is. Argument: operations per round (100,000).
     */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        LuaVM vm = LuaVM.create();
        Limits rowLimits = Limits.defaults().withGas(100_000).withMemory(1 << 20);
        CompiledChunk empty = vm.compile("empty.lua", "return {}");
        Sandbox reused = vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).randomSeed(1)
                .virtualTime(java.time.Instant.EPOCH).output(dev.luavm.OutputSink.discard()).build();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long[] seed = {0};
        java.util.function.Supplier<Sandbox> fresh = () -> vm.sandbox().capabilities(Capabilities.standard())
                .limits(rowLimits).randomSeed(++seed[0]).virtualTime(java.time.Instant.EPOCH)
                .output(dev.luavm.OutputSink.discard()).name("row.lua").build();
        Object keep = null;
        System.out.println("load average at start: " + loadAverage());
        for (int round = 0; round < 6; round++) {
            long t0 = mx.getCurrentThreadCpuTime();
            long a0 = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) {
                try (Sandbox sb = fresh.get()) {
                    keep = sb.run(empty);
                }
            }
            long t1 = mx.getCurrentThreadCpuTime();
            long a1 = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) keep = reused.run(empty);
            long t2 = mx.getCurrentThreadCpuTime();
            long a2 = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) {
                Sandbox sb = fresh.get();
                sb.close();
                keep = sb;
            }
            long t3 = mx.getCurrentThreadCpuTime();
            long a3 = mx.getCurrentThreadAllocatedBytes();
            if (round < 3) continue; // warm-up
            System.out.printf("round %d\treturn {} in a fresh sandbox %.2f us CPU, %d B\tin a reused one %.2f us CPU, %d B"
                            + "\tcreate + close %.2f us CPU, %d B%n", round - 3,
                    (t1 - t0) / 1e3 / n, (a1 - a0) / n, (t2 - t1) / 1e3 / n, (a2 - a1) / n, (t3 - t2) / 1e3 / n, (a3 - a2) / n);
        }
        System.out.println("load average at end: " + loadAverage() + (keep == null ? "" : ""));
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
