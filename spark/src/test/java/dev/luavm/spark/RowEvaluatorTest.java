package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One row's run without Spark: how each kind of failure is worded, and what a row may not do to the host. */
class RowEvaluatorTest {
    static final StructType OUT = new StructType().add("v", DataTypes.LongType);

    static RowEvaluator.Outcome run(String script, Capabilities caps, Limits limits, Object row) {
        RowEvaluator e = new RowEvaluator("row.lua", script, caps, limits, LuaSpark.DEFAULT_CLOCK, false);
        return e.run(1, results -> LuaToSpark.outputs(results, OUT), row);
    }

    static RowEvaluator.Outcome run(String script, Object row) {
        return run(script, Capabilities.standard(), Limits.defaults().withGas(1_000_000).withMemory(8 << 20), row);
    }

    @Test
    void aResultThatCannotConvertIsTheResultsFault() {
        RowEvaluator.Outcome o = run("local t = {} t.v = 1 t.self = t return t", Map.of());
        assertTrue(o.error().startsWith("result: "), o.error());
        assertNull(o.outputs());
    }

    @Test
    void aRowThatCannotConvertIsTheRowsFault() {
        List<Long> huge = new ArrayList<>();
        for (long i = 0; i <= 1_000_000; i++) huge.add(i);
        RowEvaluator.Outcome o = run("return { v = 1 }", Capabilities.standard(),
                Limits.defaults().withMemory(1L << 30), Map.of("xs", huge));
        assertTrue(o.error().startsWith("row: "), o.error());
        assertEquals(0, o.gas());
    }

    @Test
    void osExitEndsTheRowNotTheJvm() {
        RowEvaluator.Outcome o = run("os.exit(3)", Capabilities.standard().toBuilder().bundle("os.exit").build(),
                Limits.defaults(), Map.of());
        assertEquals("os.exit(3)", o.error());
    }

    @Test
    void outputCountsAgainstTheLimitAndIsDiscarded() {
        RowEvaluator.Outcome o = run("for i = 1, 100 do print(string.rep('x', 100)) end return { v = 1 }",
                Capabilities.standard(), Limits.defaults().withOutput(1000), Map.of());
        assertEquals("output limit exceeded", o.error());
        assertEquals(1L, run("print('hello') return { v = 1 }", Map.of()).outputs()[0]);
    }

    @Test
    void eachRunIsAFreshSandbox() {
        RowEvaluator e = new RowEvaluator("g.lua", "x = (x or 0) + 1 return { v = x }", Capabilities.standard(),
                Limits.defaults(), LuaSpark.DEFAULT_CLOCK, false);
        for (int i = 0; i < 3; i++) {
            assertEquals(1L, e.run(i, results -> LuaToSpark.outputs(results, OUT)).outputs()[0]);
        }
    }
}
