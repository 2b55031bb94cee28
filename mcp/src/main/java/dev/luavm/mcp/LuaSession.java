package dev.luavm.mcp;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaConversionException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSyntaxException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.Usage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One MCP session's Lua: a sandbox that persists between {@code lua_run} calls (globals survive,
 * as in a REPL) until {@code lua_reset} replaces it.
 *
 * <p>Runs happen one at a time on a thread of the session's own with a large Java stack (the
 * CLI's 8 MiB and more), whatever thread the MCP request arrived on: library callbacks nest on
 * the Java stack, and the SDK's worker threads have the JVM's default stack. The time and output
 * limits apply to each call; the memory limit to what the sandbox holds; the gas limit, as for
 * any sandbox, to its whole life: once spent, every call fails with {@code gas} until
 * {@code lua_reset} (the report's {@code gasLeft} tells how much is left).
 */
final class LuaSession implements AutoCloseable {
    private static final long STACK_BYTES = 64L << 20;
    /** An input this long or longer is never tried as an expression (the try compiles outside the sandbox). */
    private static final int MAX_EXPRESSION_TRY = 64 << 10;
    static final String CHUNK = "lua_run";

    private final LuaVM vm;
    private final Capabilities capabilities;
    private final Limits limits;
    private final String name;
    private final ExecutorService thread;
    private Sandbox sandbox;
    private long gasSpent;
    private int generation;

    LuaSession(LuaVM vm, Capabilities capabilities, Limits limits, String name) {
        this.vm = vm;
        this.capabilities = capabilities;
        this.limits = limits;
        this.name = name;
        AtomicInteger n = new AtomicInteger();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, "luavm-" + name + "-" + n.incrementAndGet(), STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code source}; an expression's values are returned as a REPL would. Never throws for what the script does. */
    synchronized Map<String, Object> run(String source) throws InterruptedException {
        Future<Map<String, Object>> f = thread.submit(() -> runHere(source));
        try {
            return f.get();
        } catch (InterruptedException e) {
            // the request was abandoned: end the run, then let the caller go
            if (sandbox != null) sandbox.cancel();
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException("lua_run failed", e.getCause());
        }
    }

    /** Discards the sandbox; the next run starts a fresh one with a full gas budget. */
    synchronized void reset() {
        if (sandbox != null) sandbox.close();
        sandbox = null;
        gasSpent = 0;
    }

    /** Gas left in the current sandbox's budget. */
    synchronized long gasLeft() {
        return Math.max(0, limits.gas() - gasSpent);
    }

    Capabilities capabilities() {
        return capabilities;
    }

    Limits limits() {
        return limits;
    }

    @Override
    public synchronized void close() {
        reset();
        thread.shutdownNow();
    }

    private Map<String, Object> runHere(String source) {
        if (sandbox == null) {
            sandbox = vm.sandbox().name(name + "-" + ++generation).capabilities(capabilities).limits(limits).build();
        }
        long gasBefore = gasSpent;
        long start = System.nanoTime();
        Map<String, Object> report = new LinkedHashMap<>();
        String output = "";
        try {
            List<Object> results = null;
            if (looksLikeExpression(source)) {
                results = attempt("return " + source);
            }
            if (results == null) {
                results = sandbox.evalAll(CHUNK, source);
                gasSpent += sandbox.usage().gas();
            }
            output = sandbox.output();
            report.put("ok", true);
            report.put("output", output);
            report.put("results", JsonValues.resultToJson(results));
        } catch (RuntimeException e) {
            gasSpent += sandbox.usage().gas();
            output = sandbox.output();
            report.put("ok", false);
            report.put("output", output);
            report.put("error", classify(e));
        }
        Usage u = sandbox.usage();
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("gas", gasSpent - gasBefore);
        usage.put("gasLeft", Math.max(0, limits.gas() - gasSpent));
        usage.put("memoryBytes", u.memoryBytes());
        usage.put("peakMemoryBytes", u.peakMemoryBytes());
        usage.put("outputBytes", u.outputBytes());
        usage.put("elapsedMs", (System.nanoTime() - start) / 1_000_000);
        report.put("usage", usage);
        return report;
    }

    /**
     * Runs {@code return <source>} when it compiles (checked outside the sandbox first, so a
     * statement leaves no failed run behind in the audit log); null when it does not.
     */
    private List<Object> attempt(String expression) {
        try {
            vm.compile(CHUNK, expression);
        } catch (RuntimeException e) {
            return null;
        }
        List<Object> results = sandbox.evalAll(CHUNK, expression);
        gasSpent += sandbox.usage().gas();
        return results;
    }

    private static boolean looksLikeExpression(String source) {
        return source.length() < MAX_EXPRESSION_TRY && !source.isBlank();
    }

    /** The error part of a report: kind (syntax, runtime, limit, conversion, audit, internal), message and where. */
    Map<String, Object> classify(RuntimeException e) {
        Map<String, Object> err = new LinkedHashMap<>();
        if (e instanceof LuaSyntaxException s) {
            err.put("kind", "syntax");
            err.put("message", s.getMessage());
            if (s.line() > 0) err.put("line", s.line());
        } else if (e instanceof LuaScriptException s) {
            err.put("kind", "runtime");
            err.put("message", s.getMessage());
            if (s.line() > 0) err.put("line", s.line());
            if (s.luaTraceback() != null && !s.luaTraceback().isEmpty()) err.put("traceback", s.luaTraceback());
        } else if (e instanceof LuaLimitException l) {
            err.put("kind", "limit");
            err.put("limit", l.limit().label);
            boolean sessionSpent = l.limit() == LuaLimitException.Limit.GAS && gasSpent >= limits.gas();
            err.put("message", l.getMessage() + (sessionSpent ? " (the session's gas budget is spent: lua_reset starts afresh)"
                    : l.limit() == LuaLimitException.Limit.GAS ? " (this call's gas; the next call gets its own)" : ""));
        } else if (e instanceof LuaConversionException c) {
            err.put("kind", "conversion");
            err.put("message", "the results could not be converted: " + c.getMessage());
        } else if (e instanceof JsonValues.JsonException j) {
            err.put("kind", "conversion");
            err.put("message", "the results could not be written as JSON: " + j.getMessage());
        } else if (e instanceof LuaAuditException a) {
            err.put("kind", "audit");
            err.put("message", "the audit log failed, so the run was stopped: " + a.getMessage());
        } else {
            err.put("kind", "internal");
            err.put("message", String.valueOf(e.getMessage()));
        }
        return err;
    }

}
