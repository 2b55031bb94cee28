package dev.luavm.bench;

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
 * Compile speed in a warm JVM: the large generated chunk ({@link GeneratedChunk}, Lua 5.3
 * with bitwise operators, so LuaJ cannot take part). The score is milliseconds per compile;
 * the report turns it into source bytes per second. Luna is a reference point.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CompileBenchmark {

    @Param({"luavm", "luna"})
    public String engine;

    private Engine vm;
    private byte[] chunk;

    @Setup
    public void setUp() {
        vm = Engines.create(engine);
        chunk = GeneratedChunk.source();
    }

    /** Compiles the generated chunk (about 0.46 MB of source). */
    @Benchmark
    public Object compile() throws Exception {
        return vm.compile("=generated", chunk);
    }
}
