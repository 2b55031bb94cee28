package dev.luavm.spark;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

import java.util.Iterator;
import java.util.Map;

/**
 * The executor side of {@link LuaRows#map()}: for each partition, one {@link RowEvaluator} (the
 * script from the executor's cache, the grants from the job's factory), then each row, lazily,
 * in its own sandbox. A row's output is its input values, the output columns, the error, then
 * the usage and audit columns when asked for.
 */
final class RowRunner implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final RowJob job;

    RowRunner(RowJob job) {
        this.job = job;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
        RowEvaluator evaluator = new RowEvaluator(job.chunkName(), job.source(), job.capabilities().get(),
                job.limits(), job.clock(), job.auditColumn());
        TaskContext task = TaskContext.get();
        int partition = task == null ? -1 : task.partitionId();
        int inputs = job.input().fields().length;
        int outputs = job.output().fields().length;
        int width = inputs + outputs + 1 + (job.usageColumns() ? 2 : 0) + (job.auditColumn() ? 1 : 0);
        RowEvaluator.ResultMapping mapping = results -> LuaToSpark.outputs(results, job.output());
        return new Iterator<>() {
            private long position;

            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public Row next() {
                Row row = rows.next();
                long at = position++;
                Map<String, Object> luaRow = SparkToLua.row(row, job.input());
                RowEvaluator.Outcome o = evaluator.run(RowSeeds.seed(luaRow, job.seedColumn()), mapping, luaRow);
                if (o.failed() && job.failFast()) {
                    throw new LuaRowException(RowSeeds.key(row, job.seedIndex(), job.seedColumn(), at, partition), o.error());
                }
                Object[] values = new Object[width];
                for (int i = 0; i < inputs; i++) values[i] = row.get(i);
                if (o.outputs() != null) System.arraycopy(o.outputs(), 0, values, inputs, outputs);
                int i = inputs + outputs;
                values[i++] = o.error();
                if (job.usageColumns()) {
                    values[i++] = o.gas();
                    values[i++] = o.memory();
                }
                if (job.auditColumn()) values[i] = o.audit();
                return RowFactory.create(values);
            }
        };
    }
}
