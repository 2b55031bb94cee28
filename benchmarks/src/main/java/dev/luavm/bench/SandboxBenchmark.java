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
}
