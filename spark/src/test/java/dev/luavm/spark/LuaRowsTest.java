package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaSyntaxException;
import dev.luavm.host.Safety;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LuaSpark#rows}: mapping, per-row errors and limits, isolation, determinism, usage, audit, checks at map(). */
@ExtendWith(LocalSpark.class)
class LuaRowsTest {
    static final String FEE = String.join("\n",
            "local tx = ...",
            "local rate = tx.country == 'US' and 0.029 or 0.034",
            "if tx.amount > 1000 then rate = rate - 0.005 end",
            "return { fee = math.floor(tx.amount * rate * 100 + 0.5) / 100,",
            "         tier = tx.amount > 1000 and 'large' or 'small' }");

    static final StructType TX = new StructType()
            .add("id", DataTypes.LongType, false)
            .add("amount", DataTypes.DoubleType)
            .add("country", DataTypes.StringType);
    static final StructType FEE_OUT = new StructType()
            .add("fee", DataTypes.DoubleType)
            .add("tier", DataTypes.StringType);

    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = LocalSpark.session("local[2]");
    }

    static Dataset<Row> transactions(int n) {
        List<Row> rows = new ArrayList<>();
        String[] countries = {"US", "FR", "DE", "JP"};
        for (int i = 1; i <= n; i++) rows.add(RowFactory.create((long) i, (i * 37 % 3000) + 0.5, countries[i % 4]));
        return spark.createDataFrame(rows, TX);
    }

    /** id -> the row's values after the id, for comparing runs whatever the row order. */
    static Map<Long, List<Object>> byId(Dataset<Row> ds) {
        Map<Long, List<Object>> out = new TreeMap<>();
        for (Row r : ds.collectAsList()) {
            List<Object> values = new ArrayList<>();
            for (int i = 1; i < r.length(); i++) values.add(r.get(i));
            out.put(r.getLong(0), values);
        }
        return out;
    }

    @Test
    void everyRowGetsTheRulesOutputsAfterItsInputs() {
        Dataset<Row> out = LuaSpark.rows(transactions(4)).script("fee.lua", FEE).output(FEE_OUT).map();
        assertEquals(List.of("id", "amount", "country", "fee", "tier", "lua_error"), List.of(out.columns()));
        Map<Long, List<Object>> rows = byId(out);
        // id 1: 37.5 in FR at 3.4%; id 2: 74.5 in DE
        assertEquals(List.of(37.5, "FR", 1.28, "small"), rows.get(1L).subList(0, 4));
        assertNull(rows.get(1L).get(4));
        assertEquals(List.of(148.5, "US", 4.31, "small"), rows.get(4L).subList(0, 4));
    }

    @Test
    void missingFieldsAreNullAndUnknownFieldsIgnored() {
        String script = "local r = ... return { fee = r.id * 2, extra = 'ignored' }";
        Map<Long, List<Object>> rows = byId(LuaSpark.rows(transactions(2)).script("part.lua", script).output(FEE_OUT).map());
        assertEquals(4.0, rows.get(2L).get(2));
        assertNull(rows.get(2L).get(3));
        assertNull(rows.get(2L).get(4));
    }

    @Test
    void aBadRowGetsNullOutputsAndItsReasonAndTheJobGoesOn() {
        String script = String.join("\n",
                "local r = ...",
                "if r.id == 3 then error('bad row') end",
                "if r.id == 4 then while true do end end",
                "if r.id == 5 then local t = {} for i = 1, 1e9 do t[i] = i end end",
                "if r.id == 6 then return 42 end",
                "if r.id == 7 then return { fee = 'ten' } end",
                "if r.id == 8 then local s = string.rep('x', 1 << 30) end",
                "if r.id == 9 then return end",
                "if r.id == 10 then return { tier = 5 } end",
                "if r.id == 11 then local x = nil; return x.y end",
                "if r.id == 12 then local function f() return f() + 1 end return f() end",
                "return { fee = r.id }");
        Limits limits = Limits.defaults().withGas(10_000_000).withMemory(4 << 20).withCallDepth(1000)
                .withTimeout(Duration.ofSeconds(5));
        Map<Long, List<Object>> rows = byId(LuaSpark.rows(transactions(12)).script("rules.lua", script)
                .limits(limits).output(FEE_OUT).map());
        assertEquals(1.0, rows.get(1L).get(2));
        assertNull(rows.get(1L).get(4));
        assertEquals("rules.lua:2: bad row", rows.get(3L).get(4));
        assertEquals("gas limit exceeded", rows.get(4L).get(4));
        assertEquals("memory limit exceeded", rows.get(5L).get(4));
        assertEquals("result: table expected, got number", rows.get(6L).get(4));
        assertEquals("column fee: number expected, got string", rows.get(7L).get(4));
        assertTrue(List.of("gas limit exceeded", "memory limit exceeded").contains(rows.get(8L).get(4)), rows.get(8L).toString());
        assertEquals("result: table expected, got no value", rows.get(9L).get(4));
        assertEquals("column tier: string expected, got number", rows.get(10L).get(4));
        assertEquals("rules.lua:10: attempt to index a nil value (local 'x')", rows.get(11L).get(4));
        assertEquals("depth limit exceeded", rows.get(12L).get(4));
        for (long id : new long[] {3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
            assertNull(rows.get(id).get(2), "row " + id + " fee");
            assertNull(rows.get(id).get(3), "row " + id + " tier");
        }
    }

    @Test
    void oneRowsGlobalsMetatablesAndSeedNeverReachAnother() {
        String script = String.join("\n",
                "local r = ...",
                "count = (count or 0) + 1",
                "local out = { n = count, up = ('a'):upper(), r = math.random(1000000) }",
                "if r.id % 2 == 1 then",
                "  getmetatable('').__index = {}",
                "  string.upper = nil",
                "  math.randomseed(7)",
                "end",
                "return out");
        StructType out = new StructType().add("n", DataTypes.LongType).add("up", DataTypes.StringType)
                .add("r", DataTypes.LongType);
        Dataset<Row> all = transactions(20).repartition(1); // one partition: the rows run one after another
        Map<Long, List<Object>> rows = byId(LuaSpark.rows(all).script("iso.lua", script).output(out).seedColumn("id").map());
        for (long id = 1; id <= 20; id++) {
            assertEquals(1L, rows.get(id).get(2), "row " + id + " saw another row's global");
            assertEquals("A", rows.get(id).get(3), "row " + id + " saw another row's string metatable");
            assertNull(rows.get(id).get(5));
        }
        // the random number is the row's own: the same when the row runs alone
        Dataset<Row> alone = transactions(20).filter("id = 8");
        Map<Long, List<Object>> single = byId(LuaSpark.rows(alone).script("iso.lua", script).output(out).seedColumn("id").map());
        assertEquals(rows.get(8L).get(4), single.get(8L).get(4));
    }

    static final String EVERYTHING_OBSERVABLE = String.join("\n",
            "local r = ...",
            "local t = {}",
            "for i = 1, 20 do t[i] = math.random(100) end",
            "table.sort(t, function(a, b) return a > b end)",
            "local keys = {}",
            "for k in pairs({ a = 1, b = 2, c = 3, [r.id] = true, [tostring(r.amount)] = 1 }) do keys[#keys + 1] = tostring(k) end",
            "return { fee = math.random(), tier = table.concat(t, ',') .. '|' .. table.concat(keys, ',')",
            "         .. '|' .. os.time() .. '|' .. os.date('%c') .. '|' .. os.clock() .. '|' .. tostring({}):gsub('0x', '') }");

    @Test
    void outputsDependOnlyOnTheRowWhateverThePartitioning() {
        Dataset<Row> tx = transactions(200);
        Map<Long, List<Object>> reference = byId(LuaSpark.rows(tx.repartition(1)).script("obs.lua", EVERYTHING_OBSERVABLE)
                .output(FEE_OUT).seedColumn("id").usageColumns(true).map());
        for (int partitions : new int[] {2, 7}) {
            Dataset<Row> shuffled = tx.repartition(partitions, tx.col("country")).sortWithinPartitions(tx.col("amount").desc());
            Map<Long, List<Object>> again = byId(LuaSpark.rows(shuffled).script("obs.lua", EVERYTHING_OBSERVABLE)
                    .output(FEE_OUT).seedColumn("id").usageColumns(true).map());
            assertEquals(reference, again, partitions + " partitions");
        }
        // and without a seed column, the seed comes from the row's values: still the same
        Map<Long, List<Object>> noSeed = byId(LuaSpark.rows(tx.repartition(3)).script("obs.lua", EVERYTHING_OBSERVABLE)
                .output(FEE_OUT).map());
        Map<Long, List<Object>> noSeedAgain = byId(LuaSpark.rows(tx.repartition(5)).script("obs.lua", EVERYTHING_OBSERVABLE)
                .output(FEE_OUT).map());
        assertEquals(noSeed, noSeedAgain);
        assertNotEquals(reference.get(1L).get(2), reference.get(2L).get(2), "rows have their own seeds");
    }

    @Test
    void theClockIsTheJobsAndAdvancesOnlyWithGas() {
        String script = "return { t = os.time(), d = os.date('!%Y-%m-%d %H:%M') }";
        StructType out = new StructType().add("t", DataTypes.LongType).add("d", DataTypes.StringType);
        List<Row> fixed = LuaSpark.rows(transactions(1)).script("clock.lua", script).output(out).map().collectAsList();
        assertEquals(946_684_800L, fixed.get(0).getLong(3));
        assertEquals("2000-01-01 00:00", fixed.get(0).getString(4));
        List<Row> set = LuaSpark.rows(transactions(1)).script("clock.lua", script).output(out)
                .clock(Instant.parse("2024-05-01T12:30:00Z")).map().collectAsList();
        assertEquals(1_714_566_600L, set.get(0).getLong(3));
        assertEquals("2024-05-01 12:30", set.get(0).getString(4));
    }

    @Test
    void failFastFailsTheJobNamingTheRowsKey() {
        String script = "local r = ... if r.id == 3 then error('no fee for ' .. r.id) end return { fee = 1 }";
        Dataset<Row> out = LuaSpark.rows(transactions(5)).script("ff.lua", script).output(FEE_OUT)
                .seedColumn("id").failFast(true).map();
        SparkException e = assertThrows(SparkException.class, out::collectAsList);
        assertTrue(e.getMessage().contains("row id=3: ff.lua:1: no fee for 3"), e.getMessage());
        Dataset<Row> keyless = LuaSpark.rows(transactions(5).repartition(1)).script("ff.lua", script).output(FEE_OUT)
                .failFast(true).map();
        SparkException k = assertThrows(SparkException.class, keyless::collectAsList);
        assertTrue(k.getMessage().contains("row #2 of partition 0: ff.lua:1: no fee for 3"), k.getMessage());
    }

    @Test
    void usageColumnsGiveEachRowsGasAndPeakMemory() {
        String script = "local r = ... local t = {} for i = 1, r.id * 100 do t[i] = i end return { fee = #t }";
        Dataset<Row> out = LuaSpark.rows(transactions(3)).script("use.lua", script).output(FEE_OUT).usageColumns(true).map();
        assertEquals(List.of("id", "amount", "country", "fee", "tier", "lua_error", "lua_gas", "lua_memory"),
                List.of(out.columns()));
        List<Row> rows = new ArrayList<>(out.collectAsList());
        rows.sort(Comparator.comparingLong(r -> r.getLong(0)));
        assertTrue(rows.get(0).getLong(6) > 0);
        assertTrue(rows.get(1).getLong(6) > rows.get(0).getLong(6), "gas grows with the loop");
        assertTrue(rows.get(2).getLong(7) > rows.get(0).getLong(7), "peak memory grows with the table");
    }

    static CapabilitiesFactory rates() {
        return () -> Capabilities.standard().toBuilder()
                .declare("rates.lookup", "The fee rate of a country").safe()
                .param("country", "string", "ISO code")
                .grant(call -> call.stringArg(0).equals("US") ? 0.029 : 0.034)
                .build();
    }

    @Test
    void hostFunctionsComeThroughAFactoryAndTheAuditColumnHoldsTheirCalls() {
        String script = "local r = ... if r.id == 1 then return { fee = 0 } end return { fee = rates.lookup(r.country) * r.amount }";
        Dataset<Row> out = LuaSpark.rows(transactions(2)).script("audit.lua", script).capabilities(rates())
                .output(FEE_OUT).auditColumn("lua_audit").map();
        List<Row> rows = new ArrayList<>(out.collectAsList());
        rows.sort(Comparator.comparingLong(r -> r.getLong(0)));
        assertEquals("", rows.get(0).getString(6));
        String line = rows.get(1).getString(6);
        assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, line);
        assertTrue(line.contains("\"type\":\"host_call\"") && line.contains("\"function\":\"rates.lookup\"")
                && line.contains("\"args\":[\"DE\"]") && line.contains("\"results\":[0.034]"), line);
        assertFalse(line.contains("elapsedNanos"), "wall time would make the column differ between runs");
        assertEquals(0.034 * 74.5, rows.get(1).getDouble(3), 1e-9);
    }

    @Test
    void hostFunctionsWithEffectsMustBeIdempotent() {
        CapabilitiesFactory writes = () -> Capabilities.standard().toBuilder()
                .declare("ledger.post", "Post a fee").effects("writes:ledger").grant(call -> null).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("w.lua", "return {}").capabilities(writes).output(FEE_OUT).map());
        assertTrue(e.getMessage().contains("ledger.post [writes:ledger]") && e.getMessage().contains("'idempotent'"), e.getMessage());
        CapabilitiesFactory idempotent = () -> Capabilities.standard().toBuilder()
                .declare("ledger.post", "Post a fee, once per key").effects("writes:ledger", LuaSpark.IDEMPOTENT)
                .grant(call -> null).build();
        assertEquals(1, LuaSpark.rows(transactions(1)).script("w.lua", "ledger.post() return {}").capabilities(idempotent)
                .output(FEE_OUT).map().count());
        CapabilitiesFactory forbidden = () -> Capabilities.standard().toBuilder()
                .declare("ledger.drop", "Never").safety(Safety.FORBIDDEN).effects("writes:ledger").forbid().build();
        assertEquals(1, LuaSpark.rows(transactions(1)).script("w.lua", "return {}").capabilities(forbidden)
                .output(FEE_OUT).map().count());
    }

    @Test
    void capabilitiesTakeBundlesOnly() {
        Capabilities withFunction = Capabilities.standard().toBuilder().grant("f", "a function", call -> 1).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LuaSpark.rows(transactions(1)).capabilities(withFunction));
        assertTrue(e.getMessage().contains("bundles only") && e.getMessage().contains("CapabilitiesFactory"), e.getMessage());
        // bundles are the row's whole world: without 'string' there is no string library
        List<Row> rows = LuaSpark.rows(transactions(1)).script("b.lua", "return { tier = type(string) }")
                .capabilities(Capabilities.builder().bundle("base").build()).output(FEE_OUT).map().collectAsList();
        assertEquals("nil", rows.get(0).getString(4));
    }

    @Test
    void mapChecksWhatItCanOnTheDriver() {
        assertThrows(LuaSyntaxException.class, () -> LuaSpark.rows(transactions(1)).script("bad.lua", "return {")
                .output(FEE_OUT).map());
        assertThrows(IllegalStateException.class, () -> LuaSpark.rows(transactions(1)).output(FEE_OUT).map());
        assertThrows(IllegalStateException.class, () -> LuaSpark.rows(transactions(1)).script("x", "return {}").map());
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("x", "return {}").output(new StructType().add("Amount", DataTypes.DoubleType)).map());
        assertTrue(clash.getMessage().contains("'Amount' is already a column"), clash.getMessage());
        IllegalArgumentException seed = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("x", "return {}").output(FEE_OUT).seedColumn("nope").map());
        assertTrue(seed.getMessage().contains("seedColumn 'nope'"), seed.getMessage());
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(
                spark.sql("SELECT INTERVAL '1' DAY AS d")).script("x", "return {}").output(FEE_OUT).map());
        assertTrue(type.getMessage().contains("input column d: type INTERVAL DAY has no Lua mapping"), type.getMessage());
        IllegalArgumentException memory = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("x", "return {}").output(FEE_OUT).limits(Limits.defaults().withMemory(1000)).map());
        assertTrue(memory.getMessage().contains("too small for the granted libraries"), memory.getMessage());
        Object notSerializable = new Object();
        CapabilitiesFactory captures = () -> notSerializable.hashCode() == 0 ? Capabilities.none() : Capabilities.standard();
        IllegalArgumentException ser = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("x", "return {}").capabilities(captures).output(FEE_OUT).map());
        assertTrue(ser.getMessage().contains("the CapabilitiesFactory does not serialize"), ser.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> LuaSpark.rows(transactions(1))
                .script("x", "return {}" + " ".repeat(100)).output(FEE_OUT).limits(Limits.defaults().withSourceBytes(50)).map());
        assertTrue(big.getMessage().contains("source too large"), big.getMessage());
    }

    @Test
    void theScriptIsCompiledOncePerJvmWhateverThePartitionsAndActions() {
        String script = "-- unique " + System.nanoTime() + "\nreturn { fee = 1 }";
        long before = ChunkCache.shared().compilations();
        Dataset<Row> out = LuaSpark.rows(transactions(40).repartition(4)).script("once.lua", script).output(FEE_OUT).map();
        assertEquals(40, out.count());
        assertEquals(40, out.collectAsList().size());
        assertEquals(before + 1, ChunkCache.shared().compilations());
    }
}
