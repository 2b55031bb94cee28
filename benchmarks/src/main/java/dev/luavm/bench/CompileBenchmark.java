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
 * the report turns it into source bytes and lines per second. Luna is a reference point.
 * {@code -p source=plus} compiles 1.2 MB of {@code return 1+1+...+1} instead, and
 * {@code -p source=data} a generated data file of about 500 KB (issue 26's parse-heavy
 * inputs; {@link CompileVsLuac} sets all of them beside {@code luac5.3}).
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

    /** generated (the default), plus or data. */
    @Param({"generated"})
    public String source;

    private Engine vm;
    private byte[] chunk;

    @Setup
    public void setUp() {
        vm = Engines.create(engine);
        chunk = switch (source) {
            case "plus" -> ("return 1" + "+1".repeat(600_000) + "\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            case "data" -> dataFile();
            default -> GeneratedChunk.source();
        };
    }

    private static byte[] dataFile() {
        StringBuilder d = new StringBuilder("return {\n");
        for (int i = 0; i < 6_000; i++) {
            d.append("  {id = ").append(i).append(", name = \"item").append(i).append("\", price = ").append(i % 997)
                .append('.').append(i % 89).append(", tags = {\"a").append(i % 13).append("\", \"b").append(i % 7)
                .append("\"}, ok = ").append(i % 2 == 0).append("},\n");
        }
        return d.append("}\n").toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Compiles the chunk (the generated one is about 0.46 MB of source). */
    @Benchmark
    public Object compile() throws Exception {
        return vm.compile("=generated", chunk);
    }
}
