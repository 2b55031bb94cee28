package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code lua(script, ...)} from SQL: results as text, NULL on failure, variadic, deterministic. */
@ExtendWith(LocalSpark.class)
class LuaSqlFunctionTest {
    static SparkSession spark;

    @BeforeAll
    static void register() {
        spark = LocalSpark.session("local[2]");
        LuaSpark.register(spark, "lua", Capabilities.standard(), Limits.defaults().withGas(1_000_000).withMemory(4 << 20));
    }

    static Object one(String sql) {
        return spark.sql("SELECT " + sql).collectAsList().get(0).get(0);
    }

    @Test
    void theFirstResultComesBackAsText() {
        assertEquals("42", one("lua('return 6 * 7')"));
        assertEquals("3.5", one("lua('local a, b = ... return a + b', 1, 2.5)"));
        assertEquals("3.0", one("lua('return 1.5 * 2')"));
        assertEquals("inf", one("lua('return 1/0')"));
        assertEquals("true", one("lua('return ... > 1', 2)"));
        assertEquals("héllo", one("lua('return ...', 'héllo')"));
        assertEquals("[1,2,3]", one("lua('return {1, 2, 3}')"));
        assertEquals("{\"a\":1,\"b\":[true,\"x\"]}", one("lua('return {a = 1, b = {true, \"x\"}}')"));
        assertEquals("7 seven 2", one("lua('local s, a = ... return s.x .. \" \" .. s.y .. \" \" .. #a', "
                + "named_struct('x', 7, 'y', 'seven'), array(1, 2))"));
        assertNull(one("lua('return nil')"));
        assertNull(one("lua('return')"));
        assertNull(one("lua(CAST(NULL AS STRING), 1)"));
    }

    @Test
    void aFailingCallIsNull() {
        assertNull(one("lua('error(\"no\")')"));
        assertNull(one("lua('while true do end')"));
        assertNull(one("lua('local t = {} for i = 1, 1e8 do t[i] = i end')"));
        assertNull(one("lua('return function() end')"));
        assertNull(one("lua('return {')")); // does not compile
        assertNull(one("lua('return \"\\\\255\"')")); // not UTF-8
        assertNull(one("lua('return os.execute')")); // not granted: nil
    }

    @Test
    void itTakesZeroToTwentyTwoArgumentsAfterTheScript() {
        String args = IntStream.rangeClosed(1, 22).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        assertEquals("22 253", one("lua('local n, s = select(\"#\", ...), 0 for _, v in ipairs({...}) do s = s + v end "
                + "return n .. \" \" .. s', " + args + ")"));
        Exception e = assertThrows(Exception.class, () -> one("lua('return 1', " + args + ", 23)"));
        assertTrue(e.getMessage().contains("at most 22 arguments"), e.getMessage());
        Exception notText = assertThrows(Exception.class, () -> one("lua(42)"));
        assertTrue(notText.getMessage().contains("the script must be a STRING"), notText.getMessage());
    }

    @Test
    void resultsDependOnlyOnTheScriptAndArguments() {
        String sql = "SELECT id, lua('local t = {} for i = 1, 5 do t[i] = math.random(1000) end "
                + "return table.concat(t, \",\") .. os.time() .. tostring({})', id) AS r FROM range(0, 200, 1, %d)";
        List<Row> one = new ArrayList<>(spark.sql(String.format(sql, 1)).collectAsList());
        List<Row> seven = new ArrayList<>(spark.sql(String.format(sql, 7)).collectAsList());
        one.sort((a, b) -> Long.compare(a.getLong(0), b.getLong(0)));
        seven.sort((a, b) -> Long.compare(a.getLong(0), b.getLong(0)));
        assertEquals(one, seven);
        assertTrue(one.get(0).getString(1) != null && !one.get(0).getString(1).equals(one.get(1).getString(1)));
    }

    @Test
    void registerTakesBundlesOnlyOrAFactory() {
        Capabilities withFunction = Capabilities.standard().toBuilder().grant("f", "a function", call -> 1).build();
        assertThrows(IllegalArgumentException.class, () -> LuaSpark.register(spark, "lua2", withFunction, Limits.defaults()));
        CapabilitiesFactory writes = () -> Capabilities.standard().toBuilder()
                .declare("ledger.post", "Post a fee").effects("writes:ledger").grant(call -> null).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LuaSpark.register(spark, "lua3", writes, Limits.defaults()));
        assertTrue(e.getMessage().contains("'idempotent'"), e.getMessage());
        LuaSpark.register(spark, "lua_rates", LuaRowsTest.rates(), Limits.defaults());
        assertEquals("0.029", one("lua_rates('return rates.lookup(...)', 'US')"));
    }
}
