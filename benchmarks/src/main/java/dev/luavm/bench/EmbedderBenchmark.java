package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.nio.charset.StandardCharsets;
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
 * The embedder's path (issue 26): a program run the way an application on {@code dev.luavm:luavm}
 * runs a script, through the public API only, with nothing chosen that an embedder would not
 * choose: {@code LuaVM.create()} (so the tier is the default, the compiled tier being part of the
 * artifact), {@code Limits.defaults()} with enough gas for the program, the standard capabilities,
 * the sandbox's own in-memory output read back with {@link Sandbox#output()}, and a fresh sandbox
 * per run. Compared in RESULTS.md with {@link ProgramBenchmark}'s {@code luavm-compiled} figure for
 * the same program (same JMH settings: single shot per run, the same JVM options), which the goal
 * wants within 10%.
 *
 * <p>{@code runCompiled} compiles once ({@code vm.compile}) and runs the chunk in each fresh
 * sandbox, as a server running one script per request does; {@code evalSource} hands the source
 * to {@code sb.eval} each time (the compile inside the measured run).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g", "-Xss16m"})
@Warmup(iterations = 3)
@Measurement(iterations = 5)
public class EmbedderBenchmark {
    /** An embedder's gas for a program of a second or so of lua5.3 (the default, 10^8, is for short scripts). */
    static final long GAS = 10_000_000_000L;

    @Param({"fib"})
    public String program;

    private LuaVM vm;
    private CompiledChunk chunk;
    private String source;
    private String expected;
    private Limits limits;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if (Programs.size() != null) {
            throw new IllegalStateException("EmbedderBenchmark runs each program at its default size");
        }
        expected = Programs.expected(program, null);
        source = new String(Programs.source(program), StandardCharsets.UTF_8);
        vm = LuaVM.create();
        limits = Limits.defaults().withGas(GAS).withTimeout(java.time.Duration.ofMinutes(5));
        chunk = vm.compile(program + ".lua", source);
    }

    private Sandbox newSandbox() {
        return vm.sandbox().capabilities(Capabilities.standard()).limits(limits).build();
    }

    /** A fresh sandbox runs the chunk compiled once. */
    @Benchmark
    public String runCompiled() {
        try (Sandbox sb = newSandbox()) {
            sb.run(chunk);
            return checked(sb.output());
        }
    }

    /** A fresh sandbox compiles and runs the source. */
    @Benchmark
    public String evalSource() {
        try (Sandbox sb = newSandbox()) {
            sb.eval(program + ".lua", source);
            return checked(sb.output());
        }
    }

    private String checked(String out) {
        // the expected text is lua5.3's bytes as ISO-8859-1; the sandbox's output is decoded as UTF-8
        String want = new String(expected.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        if (!out.equals(want)) {
            throw new WrongOutputException("embedder", program, want, out);
        }
        return out;
    }
}
