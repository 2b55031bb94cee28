package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaSyntaxException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.encoders.RowEncoder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A script run once per row of a dataset, from {@link LuaSpark#rows}; one fluent builder ending
 * in {@link #map()}, which returns the input columns, the output columns and the error column
 * (then {@code lua_gas} and {@code lua_memory} with {@link #usageColumns}, then the audit column
 * with {@link #auditColumn}).
 *
 * <p>Each row runs in a fresh sandbox under {@link #limits} (per row), with the row as the
 * chunk's {@code ...}: a table from column name to value (null columns are absent, so they read
 * as nil). The chunk returns a table whose fields fill the {@link #output} columns by name;
 * missing fields are null and fields the schema lacks are ignored. A row that fails gets null
 * outputs and the reason in the error column ({@code fee.lua:3: attempt to ...},
 * {@code gas limit exceeded}, {@code column fee: number expected, got string},
 * {@code result: table expected, got nil}), and the job goes on, unless {@link #failFast}.
 *
 * <p>What a row observes depends only on the row, the script and the job's parameters (limits,
 * clock, grants): {@code math.random} and {@code table.sort}'s pivots are seeded from the
 * {@link #seedColumn} value (or, without one, from all the row's values), {@code os.time} and
 * {@code os.date} read {@link #clock} plus the row's gas, {@code os.clock} the row's gas. Not
 * partitioning, task attempts, speculation, executors or wall time; the one exception is the time
 * limit, which is wall time by nature (keep it a backstop and let gas bound the work).
 */
public final class LuaRows {
    private final Dataset<Row> df;
    private String chunkName;
    private String source;
    private CapabilitiesFactory capabilities = Grants.bundlesOnly(Capabilities.standard(), "");
    private Limits limits = Limits.defaults();
    private StructType output;
    private String errorColumn = LuaSpark.ERROR_COLUMN;
    private String seedColumn;
    private boolean failFast;
    private Instant clock = LuaSpark.DEFAULT_CLOCK;
    private boolean usageColumns;
    private String auditColumn;

    LuaRows(Dataset<Row> df) {
        this.df = df;
    }

    /**
     * The script run once per row.
     *
     * @param chunkName the name messages show ({@code "fee.lua"} gives {@code fee.lua:3:})
     * @param source Lua 5.3 source text (shipped to executors as text; bytecode never travels)
     * @return this builder
     */
    public LuaRows script(String chunkName, String source) {
        this.chunkName = Objects.requireNonNull(chunkName, "chunkName");
        this.source = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Bundles for every row's sandbox (default {@link Capabilities#standard()}).
     *
     * @param capabilities bundles only: host functions cannot travel to executors, so they go
     *        through {@link #capabilities(CapabilitiesFactory)}
     * @return this builder
     * @throws IllegalArgumentException the capabilities grant host functions
     */
    public LuaRows capabilities(Capabilities capabilities) {
        this.capabilities = Grants.bundlesOnly(capabilities, "LuaRows.capabilities(Capabilities)");
        return this;
    }

    /**
     * Bundles and host functions, built on each executor by {@code factory}. Checked at
     * {@link #map()}: a grant whose declared effects include anything (writes, network, ...) is
     * refused unless it also declares {@value LuaSpark#IDEMPOTENT}.
     *
     * @param factory a serializable supplier of the capabilities
     * @return this builder
     */
    public LuaRows capabilities(CapabilitiesFactory factory) {
        this.capabilities = Objects.requireNonNull(factory, "factory");
        return this;
    }

    /**
     * The limits of each row (default {@link Limits#defaults()}): gas, memory, depth, output and
     * time apply to one row's run, in its own sandbox.
     *
     * @param limits per-row limits
     * @return this builder
     */
    public LuaRows limits(Limits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
        return this;
    }

    /**
     * The output columns: the returned table's fields, by name (required; an empty schema for a
     * script that only validates). Every output column is nullable.
     *
     * @param schema the fields to read from the returned table, with their types
     * @return this builder
     */
    public LuaRows output(StructType schema) {
        this.output = Objects.requireNonNull(schema, "schema");
        return this;
    }

    /**
     * The name of the error column (default {@value LuaSpark#ERROR_COLUMN}): null when the row
     * ran ok, else the reason it failed.
     *
     * @param name a column name not used by the input or output
     * @return this builder
     */
    public LuaRows errorColumn(String name) {
        this.errorColumn = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * The input column whose value seeds {@code math.random} and {@code table.sort}'s pivots
     * (an integral value is the seed itself; others are hashed), and which names a row in
     * messages ({@code row id=42}). Without one, the seed is a hash of all the row's values and
     * a row is named by its position in its partition.
     *
     * @param column an input column
     * @return this builder
     */
    public LuaRows seedColumn(String column) {
        this.seedColumn = Objects.requireNonNull(column, "column");
        return this;
    }

    /**
     * With {@code true}, the first bad row fails its task, and so the job, with a
     * {@link LuaRowException} naming the row's key and the reason (default false: the reason goes
     * to the error column and the job goes on).
     *
     * @param failFast whether a bad row fails the job
     * @return this builder
     */
    public LuaRows failFast(boolean failFast) {
        this.failFast = failFast;
        return this;
    }

    /**
     * The instant {@code os.time} and {@code os.date} read at the start of every row (default
     * {@link LuaSpark#DEFAULT_CLOCK}); it advances with the row's gas (1 s per 100 million), never
     * with wall time, in UTC.
     *
     * @param start the job's clock
     * @return this builder
     */
    public LuaRows clock(Instant start) {
        this.clock = Objects.requireNonNull(start, "start");
        return this;
    }

    /**
     * With {@code true}, adds {@value LuaSpark#GAS_COLUMN} (the row's gas) and
     * {@value LuaSpark#MEMORY_COLUMN} (its peak memory in bytes, libraries included), both
     * BIGINT, for good and bad rows alike.
     *
     * @param usageColumns whether to add the usage columns
     * @return this builder
     */
    public LuaRows usageColumns(boolean usageColumns) {
        this.usageColumns = usageColumns;
        return this;
    }

    /**
     * Adds a STRING column holding the row's host-call events as JSON Lines, one object per call
     * in the audit log's form ({@code type}, {@code function}, {@code args}, {@code verdict},
     * {@code outcome}, {@code results}, {@code gas}...; wall-clock durations left out so the column
     * is deterministic); an empty string for a row with no host calls. The log travels with the
     * data instead of in accumulators.
     *
     * @param name the column's name ({@value LuaSpark#AUDIT_COLUMN} by convention)
     * @return this builder
     */
    public LuaRows auditColumn(String name) {
        this.auditColumn = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * The dataset of results: lazy, like any transformation. Checked here, on the driver: the
     * script compiles, every input and output column has a Lua mapping, no column name is used
     * twice, the seed column exists, the grants are safe to re-run and fit the memory limit, and
     * the job serializes.
     *
     * @return the input columns, the output columns, the error column, then the optional ones
     * @throws IllegalStateException {@link #script} or {@link #output} was not called
     * @throws IllegalArgumentException a check above failed (the message says which)
     * @throws LuaSyntaxException the script does not compile
     */
    public Dataset<Row> map() {
        if (source == null) throw new IllegalStateException("script(chunkName, source) was not called");
        if (output == null) {
            throw new IllegalStateException("output(StructType) was not called: the returned table's fields need a schema");
        }
        StructType input = df.schema();
        ColumnTypes.checkInput(input);
        ColumnTypes.checkOutput(output);
        int seedIndex = -1;
        if (seedColumn != null) {
            seedIndex = fieldIndex(input, seedColumn);
            if (seedIndex < 0) {
                throw new IllegalArgumentException("seedColumn '" + seedColumn + "' is not a column of the input "
                        + List.of(input.fieldNames()));
            }
        }
        StructType result = resultSchema(input);
        long size = source.getBytes(StandardCharsets.UTF_8).length;
        if (size > limits.sourceBytes()) {
            throw new IllegalArgumentException(chunkName + ": source too large (" + size + " bytes, limit is "
                    + limits.sourceBytes() + ")");
        }
        ChunkCache.shared().get(chunkName, source); // a syntax error fails here, not in every row
        Grants.check(capabilities, limits);
        RowJob job = new RowJob(chunkName, source, capabilities, limits, input, output, seedIndex,
                seedColumn, failFast, clock, usageColumns, auditColumn != null);
        Grants.serializes(job, "the job");
        // lenient: dates and timestamps are accepted as java.time or java.sql values, whichever
        // spark.sql.datetime.java8API.enabled says rows carry (Encoders.row takes only that one)
        return df.mapPartitions(new RowRunner(job), RowEncoder.encoderFor(result, true));
    }

    /** Input, outputs (nullable), error, usage, audit; refuses a name used twice (case-insensitively, as Spark resolves). */
    private StructType resultSchema(StructType input) {
        List<StructField> fields = new ArrayList<>(List.of(input.fields()));
        Set<String> names = new HashSet<>();
        for (StructField f : input.fields()) names.add(f.name().toLowerCase(Locale.ROOT));
        for (StructField f : output.fields()) {
            claim(names, f.name(), "output column");
            fields.add(new StructField(f.name(), f.dataType(), true, f.metadata()));
        }
        claim(names, errorColumn, "errorColumn");
        fields.add(DataTypes.createStructField(errorColumn, DataTypes.StringType, true));
        if (usageColumns) {
            claim(names, LuaSpark.GAS_COLUMN, "usage column");
            claim(names, LuaSpark.MEMORY_COLUMN, "usage column");
            fields.add(DataTypes.createStructField(LuaSpark.GAS_COLUMN, DataTypes.LongType, false));
            fields.add(DataTypes.createStructField(LuaSpark.MEMORY_COLUMN, DataTypes.LongType, false));
        }
        if (auditColumn != null) {
            claim(names, auditColumn, "auditColumn");
            fields.add(DataTypes.createStructField(auditColumn, DataTypes.StringType, false));
        }
        return DataTypes.createStructType(fields);
    }

    private static void claim(Set<String> names, String name, String what) {
        if (!names.add(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(what + " '" + name + "' is already a column (input, output or added): "
                    + "rename one of them");
        }
    }

    private static int fieldIndex(StructType schema, String name) {
        String[] names = schema.fieldNames();
        for (int i = 0; i < names.length; i++) if (names[i].equals(name)) return i;
        return -1;
    }
}
