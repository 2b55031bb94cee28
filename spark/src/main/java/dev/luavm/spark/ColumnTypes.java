package dev.luavm.spark;

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

/**
 * Which Spark types have a Lua mapping (docs/SPARK.md, "Types"): the integral, floating and
 * decimal types, strings, binary, booleans, dates and timestamps, and arrays, maps and structs of
 * them. Anything else (intervals, variants, user-defined types) is refused at {@code map()},
 * naming the column, rather than failing every row.
 */
final class ColumnTypes {
    private ColumnTypes() {}

    static void checkInput(StructType schema) {
        for (StructField f : schema.fields()) check(f.dataType(), "input column " + f.name());
    }

    static void checkOutput(StructType schema) {
        for (StructField f : schema.fields()) check(f.dataType(), "output column " + f.name());
    }

    private static void check(DataType t, String where) {
        if (t instanceof ArrayType a) {
            check(a.elementType(), where);
        } else if (t instanceof MapType m) {
            check(m.keyType(), where);
            check(m.valueType(), where);
        } else if (t instanceof StructType s) {
            for (StructField f : s.fields()) check(f.dataType(), where + "." + f.name());
        } else if (!scalar(t)) {
            throw new IllegalArgumentException(where + ": type " + t.sql() + " has no Lua mapping (cast or drop it "
                    + "before LuaSpark.rows; docs/SPARK.md lists the types)");
        }
    }

    static boolean scalar(DataType t) {
        return t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType
                || t instanceof FloatType || t instanceof DoubleType || t instanceof DecimalType
                || t instanceof StringType || t instanceof BinaryType || t instanceof BooleanType
                || t instanceof DateType || t instanceof TimestampType || t instanceof TimestampNTZType
                || t instanceof NullType;
    }
}
