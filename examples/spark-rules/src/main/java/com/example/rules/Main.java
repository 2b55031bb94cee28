package com.example.rules;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.spark.LuaSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Three tenants' fee rules over generated transactions, each rule run once per row in its own
 * sandbox by luavm-spark: {@code acme} and {@code globex} are ordinary (globex raises an error on
 * an unknown channel), {@code mallory} turns hostile on some rows (a runaway loop, a memory bomb,
 * a {@code string.rep} flood, a bad output). The job goes on whatever a row does, and prints how
 * many rows ran ok and why the others failed, per tenant, with the throughput.
 *
 * <p>Usage: {@code Main [transactions]} (default 1,000,000), in {@code local[*]} mode.
 */
public final class Main {
    static final List<String> TENANTS = List.of("acme", "globex", "mallory");
    static final List<String> CAUSES = List.of("ok", "script error", "gas", "memory", "time", "bad output");

    public static void main(String[] args) throws IOException {
        long n = args.length > 0 ? Long.parseLong(args[0].replace("_", "").replace(",", "")) : 1_000_000L;
        SparkSession spark = SparkSession.builder().master("local[*]").appName("spark-rules")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "8") // the summary is a few dozen rows
                .config("spark.driver.bindAddress", "127.0.0.1") // local mode: no network needed
                .config("spark.driver.host", "127.0.0.1")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        try {
            run(spark, n);
        } finally {
            spark.stop();
        }
    }

    static void run(SparkSession spark, long n) throws IOException {
        Dataset<Row> tx = spark.range(n).selectExpr("id",
                "element_at(array('acme', 'globex', 'mallory'), CAST(id % 3 AS INT) + 1) AS tenant",
                "CAST((id * 7919) % 1000000 AS DOUBLE) / 100 + 0.5 AS amount",
                "element_at(array('NO', 'SE', 'DE', 'US'), CAST((id DIV 3) % 4 AS INT) + 1) AS country",
                "'NO' AS home",
                "CASE WHEN id % 997 = 0 THEN 'kiosk' ELSE element_at(array('pos', 'web', 'phone'), "
                        + "CAST((id DIV 7) % 3 AS INT) + 1) END AS channel");
        StructType output = new StructType().add("fee", DataTypes.DoubleType).add("risk", DataTypes.StringType);
        // per row: a million units of gas, 8 MiB held, 200 ms at most
        Limits perRow = Limits.defaults().withGas(1_000_000).withMemory(8 << 20).withTimeout(Duration.ofMillis(200));

        Dataset<Row> all = null;
        for (String tenant : TENANTS) {
            Dataset<Row> rows = LuaSpark.rows(tx.where(tx.col("tenant").equalTo(tenant)))
                    .script(tenant + ".lua", rule(tenant))
                    .capabilities(Capabilities.standard())
                    .limits(perRow)
                    .output(output)
                    .seedColumn("id")
                    .usageColumns(true)
                    .map();
            all = all == null ? rows : all.unionByName(rows);
        }
        Dataset<Row> classified = all.selectExpr("tenant", "lua_error", "lua_gas",
                "CASE WHEN lua_error IS NULL THEN 'ok' "
                        + "WHEN lua_error = 'gas limit exceeded' THEN 'gas' "
                        + "WHEN lua_error = 'memory limit exceeded' THEN 'memory' "
                        + "WHEN lua_error = 'time limit exceeded' THEN 'time' "
                        + "WHEN lua_error LIKE 'column %' OR lua_error LIKE 'result:%' THEN 'bad output' "
                        + "ELSE 'script error' END AS cause");

        long start = System.nanoTime();
        List<Row> counts = classified.groupBy("tenant", "cause")
                .agg(org.apache.spark.sql.functions.count("*").as("rows"),
                        org.apache.spark.sql.functions.sum("lua_gas").as("gas"),
                        org.apache.spark.sql.functions.min("lua_error").as("example"))
                .collectAsList();
        double seconds = (System.nanoTime() - start) / 1e9;
        print(counts, n, seconds, spark.sparkContext().defaultParallelism());
    }

    static String rule(String tenant) throws IOException {
        try (InputStream in = Main.class.getResourceAsStream("/rules/" + tenant + ".lua")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void print(List<Row> counts, long n, double seconds, int cores) {
        Map<String, Map<String, Long>> table = new TreeMap<>();
        Map<String, String> examples = new TreeMap<>();
        long total = 0;
        for (Row r : counts) {
            table.computeIfAbsent(r.getString(0), k -> new TreeMap<>()).put(r.getString(1), r.getLong(2));
            total += r.getLong(2);
            if (r.get(4) != null) examples.putIfAbsent(r.getString(1), r.getString(0) + ": " + r.getString(4));
        }
        StringBuilder header = new StringBuilder(String.format("%-10s %10s", "tenant", "rows"));
        for (String c : CAUSES) header.append(String.format(" %12s", c));
        System.out.println(header);
        System.out.println("-".repeat(header.length()));
        Map<String, Long> sums = new TreeMap<>();
        for (String tenant : TENANTS) {
            Map<String, Long> row = table.getOrDefault(tenant, Map.of());
            long rows = row.values().stream().mapToLong(Long::longValue).sum();
            StringBuilder line = new StringBuilder(String.format("%-10s %,10d", tenant, rows));
            for (String c : CAUSES) {
                long v = row.getOrDefault(c, 0L);
                sums.merge(c, v, Long::sum);
                line.append(String.format(" %,12d", v));
            }
            System.out.println(line);
        }
        StringBuilder line = new StringBuilder(String.format("%-10s %,10d", "all", total));
        for (String c : CAUSES) line.append(String.format(" %,12d", sums.getOrDefault(c, 0L)));
        System.out.println(line);
        System.out.println();
        for (Map.Entry<String, String> e : examples.entrySet()) System.out.println("  " + e.getKey() + ", e.g. " + e.getValue());
        System.out.println();
        System.out.printf("%,d transactions in %.1f s: %,.0f rows/s on %d cores (%,.0f rows/s/core)%n",
                n, seconds, n / seconds, cores, n / seconds / cores);
        if (total != n) throw new IllegalStateException("lost rows: " + total + " of " + n);
    }
}
