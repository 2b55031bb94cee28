package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaConversionException;
import dev.luavm.LuaException;
import dev.luavm.LuaExitException;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.Usage;
import dev.luavm.host.Results;

import java.time.Instant;

/**
 * Runs one compiled script over rows, each in a fresh sandbox: the isolation of a row is the
 * isolation of a sandbox (globals, the string metatable, the random generator, the meters), and a
 * sandbox costs microseconds. Each sandbox gets the per-row limits, the row's seed and a virtual
 * clock starting at the job's instant (advancing with gas, so os.time, os.date and os.clock depend
 * on nothing but the run); {@code print} is counted against the output limit and discarded. One
 * evaluator per partition (a sandbox is used by one thread at a time, and so is this).
 */
final class RowEvaluator {
    private static final OutputSink DISCARD = OutputSink.discard();

    /** One row's run: the output values (null when it failed), the error, the usage and the audit lines. */
    record Outcome(Object[] outputs, String error, long gas, long memory, String audit) {
        boolean failed() {
            return error != null;
        }
    }

    /** What a row returns for the output columns: checked by {@link LuaToSpark} (rows) or turned into text (SQL). */
    interface ResultMapping {
        Object[] map(Results results) throws LuaToSpark.Mismatch;
    }

    private final String name;
    private final CompiledChunk chunk;
    private final Capabilities capabilities;
    private final Limits limits;
    private final Instant clock;
    private final boolean audit;

    RowEvaluator(String chunkName, String source, Capabilities capabilities, Limits limits, Instant clock, boolean audit) {
        this.name = chunkName;
        this.chunk = ChunkCache.shared().get(chunkName, source);
        this.capabilities = capabilities;
        this.limits = limits;
        this.clock = clock;
        this.audit = audit;
    }

    /** Runs the script with {@code args} as its {@code ...} under {@code seed}; never throws for what a row does. */
    Outcome run(long seed, ResultMapping mapping, Object... args) {
        AuditLines lines = audit ? new AuditLines() : null;
        Sandbox.Builder b = ExecutorRuntime.vm().sandbox()
                .capabilities(capabilities)
                .limits(limits)
                .randomSeed(seed)
                .virtualTime(clock)
                .output(DISCARD)
                .name(name);
        if (lines != null) b.audit(lines);
        Object[] outputs = null;
        String error = null;
        Usage usage = null;
        Sandbox sandbox = null;
        try {
            sandbox = b.build();
            outputs = mapping.map(sandbox.run(chunk, args));
        } catch (LuaToSpark.Mismatch e) {
            error = e.getMessage();
        } catch (LuaConversionException e) {
            // before the chunk runs (no gas yet) it is the row that does not convert, after it the result
            boolean ran = sandbox != null && sandbox.usage().gas() > 0;
            error = (ran ? "result: " : "row: ") + e.getMessage();
        } catch (LuaExitException e) {
            error = "os.exit(" + e.status() + ")";
        } catch (LuaException e) {
            error = e.getMessage();
        } finally {
            if (sandbox != null) {
                usage = sandbox.usage();
                sandbox.close();
            }
        }
        long gas = usage == null ? 0 : usage.gas();
        long memory = usage == null ? 0 : usage.peakMemoryBytes();
        return new Outcome(outputs, error, gas, memory, lines == null ? "" : lines.text());
    }
}
