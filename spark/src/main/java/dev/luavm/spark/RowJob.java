package dev.luavm.spark;

import dev.luavm.Limits;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.time.Instant;

/**
 * Everything an executor needs to run a job's rows, as plain data: the script's source (never
 * bytecode), the per-row limits, the grants' factory, the schemas and the columns' roles. Made by
 * {@link LuaRows#map()} and serialized into every task.
 *
 * @param chunkName the name in messages
 * @param source the script's source text
 * @param capabilities builds the grants on the executor
 * @param limits per row
 * @param input the input schema
 * @param output the output columns
 * @param seedIndex the seed column's index in {@code input}, or -1
 * @param seedColumn the seed column's name, or null
 * @param failFast whether a bad row fails the task
 * @param clock what os.time reads at a row's start
 * @param usageColumns whether lua_gas and lua_memory follow the error column
 * @param auditColumn whether the audit column comes last
 */
record RowJob(String chunkName, String source, CapabilitiesFactory capabilities, Limits limits, StructType input,
              StructType output, int seedIndex, String seedColumn, boolean failFast, Instant clock,
              boolean usageColumns, boolean auditColumn) implements Serializable {
}
