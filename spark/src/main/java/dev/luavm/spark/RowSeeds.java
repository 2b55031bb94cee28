package dev.luavm.spark;

import org.apache.spark.sql.Row;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A row's random seed and its name in messages. The seed is the seed column's value when it is
 * an integer (so row {@code id = 42} runs with seed 42), a hash of that value otherwise, and a
 * hash of all the row's values without a seed column: in every case a function of the row alone,
 * never of its partition, its position or the attempt. The hash reads the values as the script
 * sees them (after {@link SparkToLua}), through a canonical walk with a type tag per value, so
 * equal rows hash equally on every JVM.
 */
final class RowSeeds {
    private RowSeeds() {}

    /** The seed of {@code luaRow} (the row as the script sees it), whose seed column is {@code column} or null. */
    static long seed(Map<String, Object> luaRow, String column) {
        if (column == null) return hash(luaRow);
        Object v = luaRow.get(column);
        if (v instanceof Long l) return l;
        return hash(v);
    }

    /** The SQL function's seed: its script and arguments. */
    static long seed(String script, List<Object> args) {
        return mix(hash(script) * 31 + hash(args));
    }

    /** A 64-bit hash of a value as {@link SparkToLua} makes them; maps in their (deterministic) order. */
    static long hash(Object v) {
        if (v == null) return 0x9E3779B97F4A7C15L;
        if (v instanceof Long l) return mix(l ^ 1);
        if (v instanceof Double d) return mix(Double.doubleToLongBits(d) ^ 2);
        if (v instanceof Boolean b) return mix(b ? 3 : 4);
        if (v instanceof String s) return bytes(s.getBytes(StandardCharsets.UTF_8), 5);
        if (v instanceof byte[] b) return bytes(b, 5); // a Lua string either way
        if (v instanceof List<?> list) {
            long h = 6;
            for (Object e : list) h = mix(h * 31 + hash(e));
            return h;
        }
        if (v instanceof Map<?, ?> map) {
            long h = 7;
            for (Map.Entry<?, ?> e : map.entrySet()) h = mix(h * 31 + hash(e.getKey()) * 17 + hash(e.getValue()));
            return h;
        }
        return bytes(v.toString().getBytes(StandardCharsets.UTF_8), 8);
    }

    private static long bytes(byte[] b, long tag) {
        long h = mix(tag * 0x100000001B3L + b.length);
        for (byte x : b) h = (h ^ (x & 0xff)) * 0x100000001B3L;
        return mix(h);
    }

    /** splitmix64's finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The row's name in messages: {@code id=42}, or {@code #17 of partition 3}. */
    static String key(Row row, int seedIndex, String seedColumn, long position, int partition) {
        if (seedIndex >= 0) return seedColumn + "=" + row.get(seedIndex);
        return "#" + position + " of partition " + partition;
    }
}
