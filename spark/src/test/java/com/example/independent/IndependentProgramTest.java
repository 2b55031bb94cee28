package com.example.independent;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.spark.LuaSpark;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The acceptance check, written as a user would: only {@code dev.luavm.spark}'s public API,
 * {@code dev.luavm}'s {@code Capabilities} and {@code Limits}, and spark-sql (its own session, in
 * another package than the module). 20,000 rows, among them rule errors, runaway loops, memory
 * bombs and {@code string.rep} floods: every good row must be right, every bad row must carry its
 * reason, and the output per key must be the same under any repartitioning.
 */
class IndependentProgramTest {
    static final String RULES = String.join("\n",
            "local tx = ...",
            "if tx.kind == 'bad' then error('unknown merchant ' .. tx.merchant) end",
            "if tx.kind == 'loop' then while true do end end",
            "if tx.kind == 'bomb' then local t, s = {}, 'x' while true do t[#t + 1] = s; s = s .. s end end",
            "if tx.kind == 'flood' then return { fee = #string.rep('ab', 1e8) } end",
            "local fee = tx.amount * (tx.country == 'US' and 2 or 3) // 100",
            "return { fee = fee, label = tx.merchant .. ':' .. tx.country, nonce = math.random(1 << 30) }");

    static final int ROWS = 20_000;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        SparkSession active = SparkSession.getActiveSession().getOrElse(() -> null);
        if (active != null) active.stop(); // a session of its own, as an independent program has
        spark = SparkSession.builder().master("local[2]").appName("independent")
                .config("spark.ui.enabled", "false").config("spark.sql.adaptive.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    static String kind(long id) {
        if (id % 50 == 7) return "bad";
        if (id % 97 == 3) return "loop";
        if (id % 101 == 5) return "bomb";
        if (id % 89 == 11) return "flood";
        return "ok";
    }

    static Dataset<Row> transactions() {
        StructType schema = new StructType().add("id", DataTypes.LongType).add("amount", DataTypes.LongType)
                .add("country", DataTypes.StringType).add("merchant", DataTypes.StringType).add("kind", DataTypes.StringType);
        List<Row> rows = new ArrayList<>(ROWS);
        String[] countries = {"US", "FR", "BR"};
        for (long id = 0; id < ROWS; id++) {
            rows.add(RowFactory.create(id, (id * 7919) % 100_000, countries[(int) (id % 3)], "M" + (id % 13), kind(id)));
        }
        return spark.createDataFrame(rows, schema);
    }

    static Map<Long, List<Object>> run(Dataset<Row> input) {
        StructType output = new StructType().add("fee", DataTypes.LongType).add("label", DataTypes.StringType)
                .add("nonce", DataTypes.LongType);
        Limits perRow = Limits.defaults().withGas(500_000).withMemory(1 << 20).withTimeout(Duration.ofSeconds(10));
        Dataset<Row> out = LuaSpark.rows(input).script("rules.lua", RULES).capabilities(Capabilities.standard())
                .limits(perRow).output(output).seedColumn("id").map();
        Map<Long, List<Object>> byKey = new HashMap<>();
        for (Row r : out.select("id", "fee", "label", "nonce", "lua_error").collectAsList()) {
            byKey.put(r.getLong(0), List.of(String.valueOf(r.get(1)), String.valueOf(r.get(2)), String.valueOf(r.get(3)),
                    String.valueOf(r.get(4))));
        }
        return byKey;
    }

    @Test
    void twentyThousandRowsGoodAndBadTheSameUnderAnyPartitioning() {
        Dataset<Row> tx = transactions();
        Map<Long, List<Object>> one = run(tx.repartition(1));
        assertEquals(ROWS, one.size());
        Map<String, Integer> reasons = new HashMap<>();
        for (long id = 0; id < ROWS; id++) {
            List<Object> r = one.get(id);
            String expectedError = switch (kind(id)) {
                case "bad" -> "rules.lua:2: unknown merchant M" + (id % 13);
                case "loop", "flood" -> "gas limit exceeded";
                case "bomb" -> "memory limit exceeded";
                default -> null;
            };
            if (expectedError == null) {
                long amount = (id * 7919) % 100_000;
                String country = new String[] {"US", "FR", "BR"}[(int) (id % 3)];
                assertEquals(String.valueOf(amount * (country.equals("US") ? 2 : 3) / 100), r.get(0), "fee of " + id);
                assertEquals("M" + (id % 13) + ":" + country, r.get(1), "label of " + id);
                assertEquals("null", r.get(3), "error of " + id);
            } else {
                assertEquals(List.of("null", "null", "null", expectedError), r, "row " + id);
                reasons.merge(kind(id), 1, Integer::sum);
            }
        }
        assertEquals(4, reasons.size(), reasons.toString());
        Dataset<Row> shuffled = tx.repartition(13, tx.col("merchant")).sortWithinPartitions(tx.col("amount"));
        assertEquals(one, run(shuffled));
        assertEquals(one, run(tx.repartition(5)));
    }
}
