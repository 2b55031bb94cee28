package dev.luavm.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Warm mode: each program of shared/bench compiled once per trial, then run once per
 * invocation in a fresh global environment, its output checked against lua5.3's.
 *
 * <p>The programs run 0.5-1.5 s each under lua5.3, so one invocation is one sample
 * ({@link Mode#SingleShotTime}); warmup iterations let the JIT settle first. A run whose
 * output differs from the expected output throws, so JMH reports the benchmark as failed
 * instead of a time. A skipped pair ({@link Skips}) throws in setup with its reason.
 *
 * <p>The {@code program} default list mirrors shared/bench when this was written;
 * {@code run-all.sh} passes the current list with {@code -p program=...}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g", "-Xss16m"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class ProgramBenchmark {

    @Param({"binary_trees", "bitops", "closures", "coroutines", "fannkuch", "fib", "intdiv", "mandelbrot", "nbody", "sort", "sort_cmp", "spectral_norm", "string_build", "table_ops"})
    public String program;

    @Param({"luavm-metered", "luavm", "luaj", "luavm-compiled", "luajc", "luna"})
    public String engine;

    private Engine.Program compiled;
    private String scriptName;
    private List<String> args;
    private String expected;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        String skip = Skips.reason(engine, program);
        if (skip != null) {
            throw new IllegalStateException("skipped: " + engine + " " + program + ": " + skip);
        }
        String size = Programs.size();
        expected = Programs.expected(program, size);
        args = Programs.args(size);
        scriptName = Programs.file(program).toString();
        compiled = Engines.create(engine).compile("@" + program + ".lua", Programs.source(program));
    }

    @Benchmark
    public String run() throws Exception {
        String out = compiled.run(scriptName, args);
        if (!out.equals(expected)) {
            throw new WrongOutputException(engine, program, expected, out);
        }
        return out;
    }
}
