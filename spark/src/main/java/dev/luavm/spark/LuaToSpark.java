package dev.luavm.spark;

import dev.luavm.LuaHandle;
import dev.luavm.host.Results;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.NullType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row's result back to the output columns, checked: the first result must be a table, whose
 * fields fill the columns by name (missing fields are null, fields the schema lacks are ignored).
 * Each value must have the column's type; nothing is coerced between numbers and strings, and an
 * integer that does not fit its column is an error, never wrapped. Messages name the column and,
 * inside arrays, maps and structs, the path ({@code column tags[2]: string expected, got number}).
 * <pre>
 *   TINYINT .. BIGINT    an integer in range, or a float with an exact integer value in range
 *   FLOAT, DOUBLE        a number (a finite one beyond FLOAT's range does not fit)
 *   DECIMAL(p, s)        a number (a float by its shortest decimal text) or a string holding a
 *                        decimal number, rounded half-up to s places; more than p digits do not fit
 *   STRING               a string that is valid UTF-8
 *   BINARY               a string (its bytes)
 *   BOOLEAN              a boolean
 *   DATE                 a string 'YYYY-MM-DD'
 *   TIMESTAMP            a string 'YYYY-MM-DDTHH:MM:SS[.f]' ending in Z or an offset, or a number
 *                        of seconds since 1970-01-01T00:00:00Z (what os.time returns)
 *   TIMESTAMP_NTZ        a string 'YYYY-MM-DDTHH:MM:SS[.f]'
 *   ARRAY                a sequence (an empty table is an empty array)
 *   MAP                  a table, keys and values each checked
 *   STRUCT               a table, by field name like the row itself
 * </pre>
 */
final class LuaToSpark {
    private LuaToSpark() {}

    /** A result that does not fit the output schema: the row's error, as the message says. */
    static final class Mismatch extends Exception {
        Mismatch(String message) {
            super(message, null, false, false);
        }
    }

    /** The output columns' values from the script's results. */
    static Object[] outputs(Results results, StructType output) throws Mismatch {
        if (results.isEmpty()) throw new Mismatch("result: table expected, got no value");
        Object first = results.get(0);
        if (!(first instanceof Map<?, ?> || first instanceof List<?>)) {
            throw new Mismatch("result: table expected, got " + luaType(first));
        }
        return fields(first, output, "column ");
    }

    private static Object[] fields(Object table, StructType schema, String prefix) throws Mismatch {
        StructField[] fields = schema.fields();
        Object[] out = new Object[fields.length];
        if (!(table instanceof Map<?, ?> m)) return out; // a sequence has no named fields
        for (int i = 0; i < fields.length; i++) {
            Object v = m.get(fields[i].name());
            out[i] = value(v, fields[i].dataType(), prefix + fields[i].name());
        }
        return out;
    }

    /** {@code v} (a value from Lua) as a Spark value of type {@code t}; {@code where} names it in messages. */
    static Object value(Object v, DataType t, String where) throws Mismatch {
        if (v == null || t instanceof NullType) return null;
        if (t instanceof LongType) return integer(v, t, where, Long.MIN_VALUE, Long.MAX_VALUE);
        if (t instanceof IntegerType) return (int) integer(v, t, where, Integer.MIN_VALUE, Integer.MAX_VALUE);
        if (t instanceof ShortType) return (short) integer(v, t, where, Short.MIN_VALUE, Short.MAX_VALUE);
        if (t instanceof ByteType) return (byte) integer(v, t, where, Byte.MIN_VALUE, Byte.MAX_VALUE);
        if (t instanceof DoubleType) return number(v, where).doubleValue();
        if (t instanceof FloatType) return toFloat(number(v, where).doubleValue(), where);
        if (t instanceof DecimalType d) return decimal(v, d, where);
        if (t instanceof StringType) return string(v, where);
        if (t instanceof BinaryType) {
            if (v instanceof byte[] b) return b;
            if (v instanceof String s) return s.getBytes(StandardCharsets.UTF_8);
            throw expected("string", v, where);
        }
        if (t instanceof BooleanType) {
            if (v instanceof Boolean b) return b;
            throw expected("boolean", v, where);
        }
        if (t instanceof DateType) return date(v, where);
        if (t instanceof TimestampType) return timestamp(v, where);
        if (t instanceof TimestampNTZType) return localTimestamp(v, where);
        if (t instanceof ArrayType a) return array(v, a, where);
        if (t instanceof MapType m) return map(v, m, where);
        if (t instanceof StructType s) {
            if (!(v instanceof Map<?, ?> || v instanceof List<?>)) throw expected("table", v, where);
            return RowFactory.create(fields(v, s, where + "."));
        }
        throw new IllegalStateException("no Lua mapping for " + t.sql()); // refused at map()
    }

    private static long integer(Object v, DataType t, String where, long min, long max) throws Mismatch {
        long n;
        if (v instanceof Long l) {
            n = l;
        } else if (v instanceof Double d) {
            // Lua's float-to-integer rule: exact integral values only (2^63 itself is out of range)
            if (d != Math.floor(d) || Double.isInfinite(d) || d < -0x1p63 || d >= 0x1p63) {
                throw new Mismatch(where + ": number has no integer representation");
            }
            n = (long) (double) d;
        } else {
            throw expected("number", v, where);
        }
        if (n < min || n > max) throw new Mismatch(where + ": integer " + n + " does not fit " + t.sql());
        return n;
    }

    private static Number number(Object v, String where) throws Mismatch {
        if (v instanceof Long || v instanceof Double) return (Number) v;
        throw expected("number", v, where);
    }

    private static float toFloat(double d, String where) throws Mismatch {
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw new Mismatch(where + ": number " + dev.luavm.TypedAccess.numberToString(d) + " does not fit FLOAT");
        }
        return f;
    }

    private static BigDecimal decimal(Object v, DecimalType t, String where) throws Mismatch {
        BigDecimal d;
        if (v instanceof Long l) {
            d = BigDecimal.valueOf(l);
        } else if (v instanceof Double x) {
            if (x.isNaN() || x.isInfinite()) {
                throw new Mismatch(where + ": number " + dev.luavm.TypedAccess.numberToString(x) + " does not fit " + t.sql());
            }
            d = BigDecimal.valueOf(x); // the shortest text that reads back as x: 0.1 is 0.1
        } else if (v instanceof String s) {
            try {
                d = new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw new Mismatch(where + ": string " + quote(s) + " is not a decimal number");
            }
        } else {
            throw expected("number", v, where);
        }
        BigDecimal scaled = d.setScale(t.scale(), RoundingMode.HALF_UP);
        if (scaled.precision() > t.precision()) { // at scale s, more than p digits means more than p - s before the point
            throw new Mismatch(where + ": " + d.toPlainString() + " does not fit " + t.sql());
        }
        return scaled;
    }

    private static String string(Object v, String where) throws Mismatch {
        if (v instanceof String s) return s;
        if (v instanceof byte[]) throw new Mismatch(where + ": string is not valid UTF-8 (use a BINARY column)");
        throw expected("string", v, where);
    }

    private static LocalDate date(Object v, String where) throws Mismatch {
        String s = string(v, where);
        try {
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw new Mismatch(where + ": string " + quote(s) + " is not a date 'YYYY-MM-DD'");
        }
    }

    private static Instant timestamp(Object v, String where) throws Mismatch {
        if (v instanceof Long seconds) return Instant.ofEpochSecond(seconds);
        if (v instanceof Double seconds) {
            if (seconds.isNaN() || seconds.isInfinite() || Math.abs(seconds) > 3.1e16) {
                throw new Mismatch(where + ": number " + dev.luavm.TypedAccess.numberToString(seconds) + " is not a time");
            }
            long whole = (long) Math.floor(seconds);
            return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e9));
        }
        String s = string(v, where);
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw new Mismatch(where + ": string " + quote(s) + " is not a timestamp 'YYYY-MM-DDTHH:MM:SSZ'");
        }
    }

    private static LocalDateTime localTimestamp(Object v, String where) throws Mismatch {
        String s = string(v, where);
        try {
            return LocalDateTime.parse(s);
        } catch (DateTimeParseException e) {
            throw new Mismatch(where + ": string " + quote(s) + " is not a timestamp 'YYYY-MM-DDTHH:MM:SS'");
        }
    }

    private static scala.collection.immutable.Seq<Object> array(Object v, ArrayType t, String where) throws Mismatch {
        List<?> items;
        if (v instanceof List<?> l) items = l;
        else if (v instanceof Map<?, ?> m && m.isEmpty()) items = List.of();
        else if (v instanceof Map<?, ?>) throw new Mismatch(where + ": sequence expected, got a table with other keys");
        else throw expected("table", v, where);
        List<Object> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Object e = value(items.get(i), t.elementType(), where + "[" + (i + 1) + "]");
            if (e == null && !t.containsNull()) throw new Mismatch(where + "[" + (i + 1) + "]: value expected, got nil");
            out.add(e);
        }
        return scala.jdk.javaapi.CollectionConverters.asScala(out).toList(); // an ARRAY's external type is a Seq
    }

    private static scala.collection.Map<Object, Object> map(Object v, MapType t, String where) throws Mismatch {
        Map<Object, Object> out = new LinkedHashMap<>();
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                out.put(value((long) (i + 1), t.keyType(), where + " key " + (i + 1)),
                        value(l.get(i), t.valueType(), where + "[" + (i + 1) + "]"));
            }
        } else if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String at = where + "[" + quoteKey(e.getKey()) + "]";
                out.put(value(e.getKey(), t.keyType(), where + " key " + quoteKey(e.getKey())),
                        value(e.getValue(), t.valueType(), at));
            }
        } else {
            throw expected("table", v, where);
        }
        return scala.jdk.javaapi.CollectionConverters.asScala(out);
    }

    private static Mismatch expected(String type, Object v, String where) {
        return new Mismatch(where + ": " + type + " expected, got " + luaType(v));
    }

    /** The Lua type of a value converted out of a sandbox. */
    static String luaType(Object v) {
        if (v == null) return "nil";
        if (v instanceof Long || v instanceof Double) return "number";
        if (v instanceof String || v instanceof byte[]) return "string";
        if (v instanceof Boolean) return "boolean";
        if (v instanceof List<?> || v instanceof Map<?, ?>) return "table";
        if (v instanceof LuaHandle h) return h.type();
        return "userdata";
    }

    private static String quote(String s) {
        return "'" + (s.length() <= 40 ? s : s.substring(0, 37) + "...") + "'";
    }

    private static String quoteKey(Object k) {
        return k instanceof String s ? quote(s) : k instanceof Number n ? dev.luavm.TypedAccess.numberToString(n)
                : String.valueOf(k);
    }
}
