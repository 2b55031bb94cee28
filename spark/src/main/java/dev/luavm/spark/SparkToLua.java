package dev.luavm.spark;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spark values to the Java values the sandbox converts to Lua ({@code dev.luavm.host.ValueConverter}):
 * <pre>
 *   TINYINT, SMALLINT, INT, BIGINT        integer
 *   FLOAT, DOUBLE                         float
 *   DECIMAL(p, 0)                         integer when it fits 64 bits, else float
 *   DECIMAL(p, s), s &gt; 0                  float (the nearest double)
 *   STRING                                string (UTF-8)
 *   BINARY                                string (the bytes)
 *   BOOLEAN                               boolean
 *   DATE                                  string 'YYYY-MM-DD'
 *   TIMESTAMP                             string 'YYYY-MM-DDTHH:MM:SS[.f]Z' (UTC)
 *   TIMESTAMP_NTZ                         string 'YYYY-MM-DDTHH:MM:SS[.f]'
 *   ARRAY                                 sequence (a null element is a hole: nil)
 *   MAP                                   table (a null value leaves its key out)
 *   STRUCT, the row itself                table by field name (a null field is absent)
 *   NULL                                  nil
 * </pre>
 */
final class SparkToLua {
    private SparkToLua() {}

    /** The row as the script's {@code ...}: column name to value, null columns left out. */
    static Map<String, Object> row(Row row, StructType schema) {
        StructField[] fields = schema.fields();
        Map<String, Object> t = new LinkedHashMap<>(fields.length * 2);
        for (int i = 0; i < fields.length; i++) {
            Object v = row.get(i);
            if (v != null) t.put(fields[i].name(), value(v, fields[i].dataType()));
        }
        return t;
    }

    /**
     * One value as Spark's external types hold it ({@code Row.get}); {@code t} is its type when
     * known (it gives the element, key and field types inside arrays, maps and structs).
     */
    static Object value(Object v, DataType t) {
        if (v == null) return null;
        if (v instanceof Long || v instanceof Double || v instanceof String || v instanceof Boolean || v instanceof byte[]) {
            return v;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Float f) return f.doubleValue();
        if (v instanceof BigDecimal d) return decimal(d);
        if (v instanceof scala.math.BigDecimal d) return decimal(d.bigDecimal());
        if (v instanceof org.apache.spark.sql.types.Decimal d) return decimal(d.toJavaBigDecimal());
        if (v instanceof LocalDate d) return d.toString();
        if (v instanceof java.sql.Date d) return d.toLocalDate().toString();
        if (v instanceof Instant i) return i.toString();
        if (v instanceof java.sql.Timestamp ts) return ts.toInstant().toString();
        if (v instanceof LocalDateTime d) return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(d);
        if (v instanceof Row r) return row(r, t instanceof StructType s ? s : r.schema());
        if (v instanceof scala.collection.Map<?, ?> m) return map(scala.jdk.javaapi.CollectionConverters.asJava(m), t);
        if (v instanceof Map<?, ?> m) return map(m, t);
        DataType element = t instanceof ArrayType a ? a.elementType() : null;
        if (v instanceof scala.collection.Iterable<?> s) return array(scala.jdk.javaapi.CollectionConverters.asJava(s), element);
        if (v instanceof Iterable<?> j) return array(j, element);
        if (v instanceof Object[] a) return array(List.of(a), element);
        throw new IllegalStateException("no Lua mapping for " + v.getClass().getName()); // types are checked at map()
    }

    /** DECIMAL(p, 0) as an integer when the value fits 64 bits; any other decimal as the nearest double. */
    static Object decimal(BigDecimal d) {
        if (d.scale() <= 0) {
            BigDecimal whole = d.setScale(0);
            if (whole.unscaledValue().bitLength() < 64) return whole.longValueExact();
        }
        return d.doubleValue();
    }

    private static List<Object> array(Iterable<?> items, DataType element) {
        List<Object> out = new ArrayList<>();
        for (Object e : items) out.add(value(e, element));
        return out;
    }

    private static Map<Object, Object> map(Map<?, ?> entries, DataType t) {
        DataType keys = t instanceof MapType m ? m.keyType() : null;
        DataType values = t instanceof MapType m ? m.valueType() : null;
        Map<Object, Object> out = new LinkedHashMap<>(entries.size() * 2);
        for (Map.Entry<?, ?> e : entries.entrySet()) {
            if (e.getValue() != null) out.put(value(e.getKey(), keys), value(e.getValue(), values));
        }
        return out;
    }
}
