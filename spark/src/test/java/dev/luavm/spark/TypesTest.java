package dev.luavm.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The types table of docs/SPARK.md, both ways: through Spark, and the checks of {@link LuaToSpark} one by one. */
@ExtendWith(LocalSpark.class)
class TypesTest {
    static final StructType ALL = new StructType()
            .add("i8", DataTypes.ByteType).add("i16", DataTypes.ShortType).add("i32", DataTypes.IntegerType)
            .add("i64", DataTypes.LongType).add("f32", DataTypes.FloatType).add("f64", DataTypes.DoubleType)
            .add("dec", DataTypes.createDecimalType(10, 2)).add("dec0", DataTypes.createDecimalType(20, 0))
            .add("s", DataTypes.StringType).add("bin", DataTypes.BinaryType).add("b", DataTypes.BooleanType)
            .add("d", DataTypes.DateType).add("ts", DataTypes.TimestampType).add("ntz", DataTypes.TimestampNTZType)
            .add("arr", DataTypes.createArrayType(DataTypes.IntegerType))
            .add("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.DoubleType))
            .add("st", new StructType().add("a", DataTypes.IntegerType).add("b", DataTypes.StringType))
            .add("nothing", DataTypes.StringType);

    static Dataset<Row> allTypes() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("x", 1.5);
        Row row = RowFactory.create((byte) -8, (short) 300, 70000, 1L << 40, 1.5f, 0.1,
                new BigDecimal("12.34"), new BigDecimal("12345678901234567890"), "héllo",
                new byte[] {0, (byte) 0xff, 65}, true, LocalDate.of(2024, 2, 29), Instant.parse("2024-05-01T12:30:00Z"),
                LocalDateTime.of(2024, 5, 1, 12, 30, 15), scala.jdk.javaapi.CollectionConverters.asScala(List.of(1, 2, 3)).toList(),
                scala.jdk.javaapi.CollectionConverters.asScala(m), RowFactory.create(7, "seven"), null);
        return LocalSpark.session("local[2]").createDataFrame(List.of(row), ALL);
    }

    @Test
    void sparkValuesReachLuaAsTheTableSays() {
        String script = String.join("\n",
                "local r = ...",
                "local function t(v) return math.type(v) or type(v) end",
                "return { kinds = table.concat({ t(r.i8), t(r.i16), t(r.i32), t(r.i64), t(r.f32), t(r.f64), t(r.dec),",
                "  t(r.dec0), t(r.s), t(r.bin), t(r.b), t(r.d), t(r.ts), t(r.ntz), t(r.arr), t(r.m), t(r.st), t(r.nothing) }, ' '),",
                "  values = table.concat({ r.i8, r.i16, r.i64, r.f32, r.dec, r.dec0, r.s, #r.bin, r.bin:byte(2), tostring(r.b),",
                "  r.d, r.ts, r.ntz, #r.arr, r.arr[3], r.m.x, r.st.a, r.st.b }, ' ') }");
        StructType out = new StructType().add("kinds", DataTypes.StringType).add("values", DataTypes.StringType);
        Row r = LuaSpark.rows(allTypes()).script("types.lua", script).output(out).map().collectAsList().get(0);
        int at = ALL.fields().length;
        assertNull(r.get(at + 2), String.valueOf(r.get(at + 2)));
        assertEquals("integer integer integer integer float float float float string string boolean string string string "
                + "table table table nil", r.getString(at));
        assertEquals("-8 300 1099511627776 1.5 12.34 1.2345678901235e+19 héllo 3 255 true 2024-02-29 "
                + "2024-05-01T12:30:00Z 2024-05-01T12:30:15 3 3 1.5 7 seven", r.getString(at + 1));
    }

    @Test
    void everyTypeGoesBackFromLuaToItsColumn() {
        StructType out = new StructType();
        StringBuilder fields = new StringBuilder("local r = ... return { ");
        for (var f : ALL.fields()) {
            out = out.add(f.name() + "_out", f.dataType());
            fields.append(f.name()).append("_out = r.").append(f.name()).append(", ");
        }
        String script = fields.append("}").toString();
        Row r = LuaSpark.rows(allTypes()).script("echo.lua", script).output(out).map().collectAsList().get(0);
        int n = ALL.fields().length;
        assertNull(r.get(2 * n), String.valueOf(r.get(2 * n)));
        for (int i = 0; i < n; i++) {
            String name = ALL.fields()[i].name();
            Object in = r.get(i);
            Object back = r.get(n + i);
            if (name.equals("dec0")) {
                // beyond 64 bits: a float in Lua, so the nearest double comes back
                assertEquals(new BigDecimal("12345678901234567000"), back);
            } else if (in instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) back);
            } else {
                assertEquals(in, back, name);
            }
        }
    }

    static Object check(Object luaValue, DataType t) throws LuaToSpark.Mismatch {
        return LuaToSpark.value(luaValue, t, "column c");
    }

    static List<?> asJava(Object seq) {
        return scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) seq);
    }

    static String fails(Object luaValue, DataType t) {
        return assertThrows(LuaToSpark.Mismatch.class, () -> check(luaValue, t)).getMessage();
    }

    @Test
    void integersAreCheckedNeverWrapped() throws Exception {
        assertEquals((byte) 127, check(127L, DataTypes.ByteType));
        assertEquals("column c: integer 128 does not fit TINYINT", fails(128L, DataTypes.ByteType));
        assertEquals("column c: integer -32769 does not fit SMALLINT", fails(-32769L, DataTypes.ShortType));
        assertEquals("column c: integer 3000000000 does not fit INT", fails(3_000_000_000L, DataTypes.IntegerType));
        assertEquals(3, check(3.0, DataTypes.IntegerType));
        assertEquals("column c: number has no integer representation", fails(2.5, DataTypes.LongType));
        assertEquals("column c: number has no integer representation", fails(0x1p63, DataTypes.LongType));
        assertEquals("column c: number has no integer representation", fails(Double.NaN, DataTypes.LongType));
        assertEquals("column c: number expected, got string", fails("3", DataTypes.LongType));
    }

    @Test
    void numbersStringsAndBooleansAreNotCoerced() throws Exception {
        assertEquals("column c: number expected, got string", fails("1.5", DataTypes.DoubleType));
        assertEquals("column c: string expected, got number", fails(1L, DataTypes.StringType));
        assertEquals("column c: boolean expected, got number", fails(0L, DataTypes.BooleanType));
        assertEquals("column c: string is not valid UTF-8 (use a BINARY column)",
                fails(new byte[] {(byte) 0xff}, DataTypes.StringType));
        assertArrayEquals(new byte[] {(byte) 0xff}, (byte[]) check(new byte[] {(byte) 0xff}, DataTypes.BinaryType));
        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), (byte[]) check("é", DataTypes.BinaryType));
        assertEquals("column c: number 1e+300 does not fit FLOAT", fails(1e300, DataTypes.FloatType));
        assertEquals(Float.POSITIVE_INFINITY, check(Double.POSITIVE_INFINITY, DataTypes.FloatType));
    }

    @Test
    void decimalsRoundHalfUpAndMustFit() throws Exception {
        DataType money = DataTypes.createDecimalType(5, 2);
        assertEquals(new BigDecimal("0.10"), check(0.1, money));
        assertEquals(new BigDecimal("1.01"), check(1.005, money)); // 1.005 reads back as 1.005, rounded half up
        assertEquals(new BigDecimal("123.46"), check("123.455", money));
        assertEquals(new BigDecimal("7.00"), check(7L, money));
        assertEquals("column c: 1234.5 does not fit DECIMAL(5,2)", fails(1234.5, money));
        assertEquals("column c: string 'ten' is not a decimal number", fails("ten", money));
        assertEquals("column c: number inf does not fit DECIMAL(5,2)", fails(Double.POSITIVE_INFINITY, money));
    }

    @Test
    void datesAndTimestamps() throws Exception {
        assertEquals(LocalDate.of(2024, 2, 29), check("2024-02-29", DataTypes.DateType));
        assertEquals("column c: string '2024-02-30' is not a date 'YYYY-MM-DD'", fails("2024-02-30", DataTypes.DateType));
        assertEquals(Instant.parse("2024-05-01T10:30:00Z"), check("2024-05-01T12:30:00+02:00", DataTypes.TimestampType));
        assertEquals(Instant.ofEpochSecond(946_684_800L), check(946_684_800L, DataTypes.TimestampType));
        assertEquals(Instant.ofEpochSecond(1, 500_000_000), check(1.5, DataTypes.TimestampType));
        assertEquals(LocalDateTime.of(2024, 5, 1, 12, 30), check("2024-05-01T12:30:00", DataTypes.TimestampNTZType));
    }

    @Test
    void nestedValuesNameTheirPath() throws Exception {
        DataType tags = DataTypes.createArrayType(DataTypes.StringType);
        assertEquals(List.of("a", "b"), asJava(check(List.of("a", "b"), tags)));
        assertEquals(List.of(), asJava(check(Map.of(), tags)));
        assertEquals("column c[2]: string expected, got number", fails(Arrays.asList("a", 2L), tags));
        assertEquals("column c: sequence expected, got a table with other keys", fails(Map.of("k", "v"), tags));
        DataType noNulls = DataTypes.createArrayType(DataTypes.LongType, false);
        assertEquals("column c[2]: value expected, got nil", fails(Arrays.asList(1L, null, 3L), noNulls));
        DataType counts = DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType);
        assertEquals("column c['k']: number expected, got boolean", fails(Map.of("k", true), counts));
        assertEquals("column c key 1: string expected, got number", fails(List.of(5L), counts));
        StructType address = new StructType().add("city", DataTypes.StringType).add("zip", DataTypes.IntegerType);
        assertEquals("column c.zip: integer 99999999999 does not fit INT", fails(Map.of("zip", 99_999_999_999L), address));
        Row r = (Row) check(Map.of("city", "Oslo", "extra", 1L), address);
        assertEquals("Oslo", r.get(0));
        assertNull(r.get(1));
        assertEquals("column c: table expected, got string", fails("Oslo", address));
    }

    @Test
    void resultsMustBeTables() {
        StructType out = new StructType().add("c", DataTypes.LongType);
        assertEquals("result: table expected, got string", assertThrows(LuaToSpark.Mismatch.class,
                () -> LuaToSpark.outputs(dev.luavm.host.Results.of("x"), out)).getMessage());
        assertEquals("result: table expected, got nil", assertThrows(LuaToSpark.Mismatch.class,
                () -> LuaToSpark.outputs(dev.luavm.host.Results.of((Object) null), out)).getMessage());
    }
}
