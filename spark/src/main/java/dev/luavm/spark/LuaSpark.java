package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.time.Instant;
import java.util.Objects;

/**
 * The entry point of luavm on Spark. Two ways in:
 * <pre>{@code
 * Dataset<Row> out = LuaSpark.rows(df)                  // a builder over any Dataset<Row>
 *     .script("fee.lua", source)                        // run once per row; the row is `...`
 *     .limits(Limits.defaults().withGas(1_000_000).withMemory(8 << 20))   // per row
 *     .output(outputSchema)                             // the returned table's fields, by name
 *     .seedColumn("id")                                 // math.random seeded from this value
 *     .map();                                           // input + output columns + lua_error
 *
 * LuaSpark.register(spark, "lua", Capabilities.standard(), limits);
 * spark.sql("SELECT lua('local a, b = ... return a * b', price, qty) FROM orders");
 * }</pre>
 *
 * <h2>Architecture</h2>
 * {@link LuaRows#map()} checks everything it can on the driver (the script compiles, the types
 * map, the grants are safe to re-run, the job serializes) and returns a lazy
 * {@code mapPartitions}. Executors receive a {@code RowJob}: plain data (source, limits, schemas,
 * column names, the {@link CapabilitiesFactory}). Each executor JVM compiles a script once into
 * a bounded cache keyed by the SHA-256 of its source ({@code ChunkCache}); each row then runs in
 * a fresh sandbox ({@code RowEvaluator}) seeded from the row and with a virtual clock, its row
 * converted by {@code SparkToLua} and its result checked by {@code LuaToSpark}. The SQL function
 * ({@code LuaSqlFunction}) runs the same way, one call per sandbox.
 */
public final class LuaSpark {
    /** The default name of the error column: null when the row ran ok, else the reason. */
    public static final String ERROR_COLUMN = "lua_error";
    /** The gas column of {@link LuaRows#usageColumns(boolean)}: the row's gas. */
    public static final String GAS_COLUMN = "lua_gas";
    /** The memory column of {@link LuaRows#usageColumns(boolean)}: the row's peak memory in bytes. */
    public static final String MEMORY_COLUMN = "lua_memory";
    /** The conventional name of an audit column ({@link LuaRows#auditColumn(String)}). */
    public static final String AUDIT_COLUMN = "lua_audit";
    /**
     * The effect tag a host function declares ({@code .effects("writes:ledger", "idempotent")})
     * to say that running it twice with the same arguments does what running it once does: only
     * such functions may declare other effects in a Spark job, where rows are re-run.
     */
    public static final String IDEMPOTENT = "idempotent";
    /**
     * What {@code os.time()} reads at the start of every row unless the job sets
     * {@link LuaRows#clock(Instant)}: 2000-01-01T00:00:00Z, the virtual epoch of the command
     * line's {@code --seed}. The clock then advances with the row's gas, never with wall time.
     */
    public static final Instant DEFAULT_CLOCK = Instant.ofEpochSecond(946_684_800L);
    /** Most arguments the SQL function takes after the script. */
    public static final int MAX_SQL_ARGUMENTS = 22;

    private LuaSpark() {}

    /**
     * A builder running a script once per row of {@code df}.
     *
     * @param df any dataset of rows
     * @return the builder; nothing runs until {@link LuaRows#map()} and a Spark action
     */
    public static LuaRows rows(Dataset<Row> df) {
        return new LuaRows(Objects.requireNonNull(df, "df"));
    }

    /**
     * Registers the SQL function {@code name(script STRING, arg1, ..., argN)}, 0 to
     * {@value #MAX_SQL_ARGUMENTS} arguments after the script, which runs the script in a fresh
     * sandbox with the arguments as {@code ...} and returns its first result as STRING: a string
     * as it is, a number as Lua's {@code tostring} prints it, a boolean as {@code true} or
     * {@code false}, a table as JSON, nil (or no result) as NULL. A failing call (a Lua error, a
     * limit, a result that has no text such as a function) gives NULL and logs the reason
     * (logger {@code dev.luavm.spark.LuaSqlFunction}, WARN). Scripts are compiled once per
     * executor and cached by their SHA-256; each call is seeded from the script and its
     * arguments and reads {@link #DEFAULT_CLOCK}, so the function is deterministic.
     *
     * @param spark the session to register in (a temporary function, as {@code spark.udf()} does)
     * @param name the function's name in SQL
     * @param capabilities bundles only (see {@link #register(SparkSession, String, CapabilitiesFactory, Limits)} for host functions)
     * @param limits the limits of each call
     * @throws IllegalArgumentException the capabilities grant host functions, or name a bundle that does not exist
     */
    public static void register(SparkSession spark, String name, Capabilities capabilities, Limits limits) {
        register(spark, name, Grants.bundlesOnly(capabilities, "LuaSpark.register"), limits);
    }

    /**
     * {@link #register(SparkSession, String, Capabilities, Limits)} with host functions: each
     * executor builds the grants with {@code capabilities}.
     *
     * @param spark the session
     * @param name the function's name in SQL
     * @param capabilities a serializable factory of the grants (checked once here)
     * @param limits the limits of each call
     * @throws IllegalArgumentException a grant declares effects without {@value #IDEMPOTENT},
     *         or the factory does not serialize
     */
    public static void register(SparkSession spark, String name, CapabilitiesFactory capabilities, Limits limits) {
        Objects.requireNonNull(spark, "spark");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(capabilities, "capabilities");
        Objects.requireNonNull(limits, "limits");
        Grants.check(capabilities, limits);
        LuaSqlFunction.register(spark, new LuaSqlFunction(name, capabilities, limits));
    }
}
