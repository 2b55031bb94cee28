package dev.luavm.spark.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.spark.LuaSpark;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The same fee rule three ways over one cached dataset, in one run, on one core
 * ({@code local[1]}, so rows per second are rows per second per core): a Lua script through
 * {@link LuaSpark#rows}, a plain Java {@code mapPartitions} doing the same Row-to-Row work, and a
 * Spark SQL expression. Each operation is one job over {@link #ROWS} rows written to Spark's
 * {@code noop} sink (every column materialized, nothing stored). {@link Sandboxes} measures what
 * a fresh sandbox per row costs: a row's run in a fresh sandbox against the same run in one
 * reused sandbox.
 *
 * <p>Run with {@code spark/bench.sh} (docs/SPARK.md, "Benchmark"); rows/s/core = ROWS / (s/op).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsPrepend = {"-XX:+IgnoreUnrecognizedVMOptions", "--add-modules=jdk.incubator.vector",
        "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
        "--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
        "-Dio.netty.tryReflectionSetAccessible=true", "-Xmx2g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class FeeRuleBenchmark {
    /** Rows per job. */
    public static final int ROWS = 200_000;

    static final String FEE = String.join("\n",
            "local tx = ...",
            "local rate = tx.country == 'US' and 0.029 or 0.034",
            "if tx.amount > 1000 then rate = rate - 0.005 end",
            "return { fee = math.floor(tx.amount * rate * 100 + 0.5) / 100,",
            "         tier = tx.amount > 1000 and 'large' or 'small' }");
    static final String FEE_SQL = "floor(amount * (CASE WHEN country = 'US' THEN 0.029D ELSE 0.034D END "
            + "- CASE WHEN amount > 1000 THEN 0.005D ELSE 0D END) * 100 + 0.5) / 100";

    static final StructType TX = new StructType().add("id", DataTypes.LongType).add("amount", DataTypes.DoubleType)
            .add("country", DataTypes.StringType);
    static final StructType OUT = new StructType().add("fee", DataTypes.DoubleType).add("tier", DataTypes.StringType);

    private SparkSession spark;
    private Dataset<Row> tx;

    @Setup(Level.Trial)
    public void start() {
        spark = SparkSession.builder().master("local[1]").appName("fee-benchmark").config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "1").getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        Dataset<Row> rows = spark.range(ROWS).selectExpr("id", "CAST((id * 37) % 3000 AS DOUBLE) + 0.5 AS amount",
                "element_at(array('US', 'FR', 'DE', 'JP'), CAST(id % 4 AS INT) + 1) AS country");
        tx = rows.repartition(4).cache();
        tx.count();
        check();
    }

    /** The three ways agree on every row before anything is timed. */
    private void check() {
        long differ = lua().join(javaMap(), "id").join(sql(), "id")
                .where("abs(lua_fee - java_fee) > 1e-9 OR abs(lua_fee - sql_fee) > 1e-9 OR lua_error IS NOT NULL").count();
        if (differ != 0) throw new IllegalStateException(differ + " rows differ between Lua, Java and SQL");
    }

    private Dataset<Row> lua() {
        return LuaSpark.rows(tx).script("fee.lua", FEE).limits(Limits.defaults().withGas(100_000).withMemory(1 << 20))
                .output(OUT).map().selectExpr("id", "fee AS lua_fee", "lua_error");
    }

    private Dataset<Row> javaMap() {
        return tx.mapPartitions(new JavaFee(), Encoders.row(TX.add("fee", DataTypes.DoubleType).add("tier", DataTypes.StringType)))
                .selectExpr("id", "fee AS java_fee");
    }

    private Dataset<Row> sql() {
        return tx.selectExpr("id", FEE_SQL + " AS sql_fee");
    }

    /** The rule in Java, Row to Row like the Lua path. */
    static final class JavaFee implements MapPartitionsFunction<Row, Row> {
        @Override
        public Iterator<Row> call(Iterator<Row> rows) {
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public Row next() {
                    Row r = rows.next();
                    double amount = r.getDouble(1);
                    double rate = "US".equals(r.getString(2)) ? 0.029 : 0.034;
                    if (amount > 1000) rate -= 0.005;
                    return RowFactory.create(r.get(0), amount, r.get(2), Math.floor(amount * rate * 100 + 0.5) / 100,
                            amount > 1000 ? "large" : "small");
                }
            };
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        spark.stop();
    }

    private static void sink(Dataset<Row> ds) {
        ds.write().format("noop").mode("overwrite").save();
    }

    /** The rule as Lua, one fresh sandbox per row. */
    @Benchmark
    public void luaRows() {
        sink(LuaSpark.rows(tx).script("fee.lua", FEE).limits(Limits.defaults().withGas(100_000).withMemory(1 << 20))
                .output(OUT).map());
    }

    /** The rule as a Java mapPartitions. */
    @Benchmark
    public void javaMapPartitions() {
        sink(tx.mapPartitions(new JavaFee(), Encoders.row(TX.add("fee", DataTypes.DoubleType).add("tier", DataTypes.StringType))));
    }

    /** The rule as a Spark SQL expression (whole-stage code generation). */
    @Benchmark
    public void sqlExpression() {
        sink(tx.selectExpr("*", FEE_SQL + " AS fee", "CASE WHEN amount > 1000 THEN 'large' ELSE 'small' END AS tier"));
    }

    /**
     * The per-row overhead of a fresh sandbox, without Spark: the fee rule's chunk run in a new
     * sandbox (built as {@code LuaSpark.rows} builds it: the row's limits, seed, virtual clock,
     * discarded output) against the same run in one sandbox reused for every call.
     */
    @State(Scope.Benchmark)
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @Fork(value = 1, jvmArgsPrepend = "-Xmx1g")
    @Warmup(iterations = 3, time = 3)
    @Measurement(iterations = 5, time = 3)
    public static class Sandboxes {
        private final LuaVM vm = LuaVM.create();
        private final Limits limits = Limits.defaults().withGas(100_000).withMemory(1 << 20);
        private final CompiledChunk fee = vm.compile("fee.lua", FEE);
        private final CompiledChunk empty = vm.compile("empty.lua", "return {}");
        private final java.util.Map<String, Object> row = java.util.Map.of("id", 7L, "amount", 1200.5, "country", "US");
        private Sandbox reused;
        private long seed;

        @Setup(Level.Trial)
        public void open() {
            reused = vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).randomSeed(1)
                    .virtualTime(Instant.EPOCH).output(OutputSink.discard()).build();
        }

        private Sandbox fresh() {
            return vm.sandbox().capabilities(Capabilities.standard()).limits(limits).randomSeed(++seed)
                    .virtualTime(LuaSpark.DEFAULT_CLOCK).output(OutputSink.discard()).name("fee.lua").build();
        }

        @Benchmark
        public List<Object> feeInFreshSandbox() {
            try (Sandbox sb = fresh()) {
                return sb.run(fee, row);
            }
        }

        @Benchmark
        public List<Object> feeInReusedSandbox() {
            return reused.run(fee, row);
        }

        @Benchmark
        public List<Object> emptyInFreshSandbox() {
            try (Sandbox sb = fresh()) {
                return sb.run(empty);
            }
        }

        @Benchmark
        public List<Object> emptyInReusedSandbox() {
            return reused.run(empty);
        }

        @TearDown(Level.Trial)
        public void close() {
            reused.close();
        }
    }
}
