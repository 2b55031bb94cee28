package dev.luavm.spark;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Retries: in {@code local[2,3]} a task may fail up to 3 times (plain local mode never retries).
 * A task that fails once, after its rows already ran through Lua, is retried and gives the same
 * rows as a run that never failed: usage and audit columns included.
 */
@ExtendWith(LocalSpark.class)
class RetryTest {
    @BeforeAll
    static void start() {
        LuaRowsTest.spark = LocalSpark.session("local[2,3]");
    }

    /** Passes rows through, but the first attempt of partition 1 dies halfway through them. */
    static final class FailFirstAttempt implements MapPartitionsFunction<Row, Row> {
        @Override
        public Iterator<Row> call(Iterator<Row> rows) {
            TaskContext task = TaskContext.get();
            boolean fail = task.partitionId() == 1 && task.attemptNumber() == 0;
            return new Iterator<>() {
                private int seen;

                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public Row next() {
                    if (fail && ++seen == 10) throw new IllegalStateException("injected failure of attempt 0");
                    return rows.next();
                }
            };
        }
    }

    @Test
    void aTaskThatFailsOnceAndIsRetriedGivesIdenticalRows() {
        Dataset<Row> tx = LuaRowsTest.transactions(120).repartition(4);
        String script = String.join("\n",
                "local r = ...",
                "local rate = rates.lookup(r.country)",
                "local t = {} for i = 1, 10 do t[i] = math.random(100) end",
                "table.sort(t)",
                "return { fee = rate * r.amount + math.random(), tier = table.concat(t, ',') .. os.time() .. os.clock() }");
        Dataset<Row> lua = LuaSpark.rows(tx).script("retry.lua", script)
                .output(LuaRowsTest.FEE_OUT).seedColumn("id").usageColumns(true).capabilities(LuaRowsTest.rates())
                .auditColumn("lua_audit").map();
        Map<Long, List<Object>> clean = LuaRowsTest.byId(lua);
        Dataset<Row> flaky = lua.mapPartitions(new FailFirstAttempt(), Encoders.row(lua.schema()));
        Map<Long, List<Object>> retried = LuaRowsTest.byId(flaky);
        assertEquals(120, retried.size());
        assertEquals(clean, retried);
    }
}
