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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One MCP session's Lua: a sandbox that persists between {@code lua_run} calls (globals survive,
 * as in a REPL) until {@code lua_reset} replaces it, and the session's gas budget.
 *
 * <h2>Budgets</h2>
 * The time and output limits, and the gas per call ({@link Limits#runGas()}), apply to each call.
 * The memory limit applies to what the sandbox holds. The gas limit ({@link Limits#gas()},
 * {@code --session-gas}) is the session's, over its whole life: each sandbox is built with what is
 * left of it, {@code lua_reset} gives nothing back and costs {@link LuaMcpServer#RESET_GAS} of
 * it, and once it is spent every {@code lua_run} ends with the gas limit, whatever is reset. Every
 * report carries {@code usage.gas} (what that call cost) and {@code usage.gasLeft}.
 *
 * <h2>Threads</h2>
 * Runs happen one at a time on a thread of the session's own with a large Java stack (library
 * callbacks nest on the Java stack; the transport's threads have the JVM's default). A call is
 * cancelled through its {@link CallCancellation}: the sandbox's run ends with
 * {@code cancelled}. A run that overran its time limit by {@link #OVERRUN_GRACE_MILLIS} (which the
 * VM's limits should make impossible) is cancelled, and if it still does not end its sandbox is
 * discarded and its thread abandoned, so one stuck run cannot hold up the calls behind it.
 */
final class LuaSession implements AutoCloseable {
    private static final long STACK_BYTES = 64L << 20;
    /** An input this long or longer is never tried as an expression (the try compiles outside the sandbox). */
    private static final int MAX_EXPRESSION_TRY = 64 << 10;
    /** How far past its time limit a run may go before the session stops waiting for it. */
    static final long OVERRUN_GRACE_MILLIS = 30_000;
    static final String CHUNK = "lua_run";

    private final LuaVM vm;
    private final Capabilities capabilities;
    private final Limits limits;
    private final String name;
    private final long resetGas;
    private final AtomicInteger threads = new AtomicInteger();
    private volatile ExecutorService thread;
    private volatile Sandbox sandbox;
    private long gasSpent;
    private int generation;

    LuaSession(LuaVM vm, Capabilities capabilities, Limits limits, String name) {
        this(vm, capabilities, limits, name, LuaMcpServer.RESET_GAS);
    }

    LuaSession(LuaVM vm, Capabilities capabilities, Limits limits, String name, long resetGas) {
        this(vm, capabilities, limits, name, resetGas, null, System.err);
    }

    /** A session kept in {@code store} (null: none), restored from what it holds; notes go to {@code log}. */
    LuaSession(LuaVM vm, Capabilities capabilities, Limits limits, String name, long resetGas, SessionStore store,
               java.io.PrintStream log) {
        this.vm = vm;
        this.capabilities = capabilities;
        this.limits = limits;
        this.name = name;
        this.resetGas = resetGas;
        this.store = store;
        this.log = log;
        this.thread = newThread();
        if (store != null) restoreFrom(store);
    }

    private final SessionStore store;
    private final java.io.PrintStream log;

    /** The session as the store holds it; a state that cannot be read is set aside and the session starts afresh. */
    private void restoreFrom(SessionStore store) {
        SessionStore.Stored stored;
        try {
            stored = store.load();
        } catch (java.io.IOException e) {
            setAside(store, "cannot read it: " + e.getMessage());
            return;
        }
        if (stored == null) return;
        gasSpent = Math.min(limits.gas(), stored.gasSpent());
        if (stored.snapshot() == null) return;
        try {
            sandbox = vm.sandbox().name(name + "-" + ++generation).capabilities(capabilities).limits(limits.withGas(Math.max(1,
                    gasLeft()))).restoreFrom(stored.snapshot()).build();
            log.println("luavm mcp: session restored from " + store.directory());
        } catch (dev.luavm.LuaException e) {
            setAside(store, "cannot restore it: " + e.getMessage());
        }
    }

    private void setAside(SessionStore store, String why) {
        try {
            log.println("luavm mcp: the state in " + store.directory() + " was set aside (" + why + "): moved to "
                    + store.setAside() + "; the session starts afresh");
        } catch (java.io.IOException e) {
            log.println("luavm mcp: the state in " + store.directory() + " cannot be used (" + why
                    + ") nor moved aside: " + e.getMessage());
        }
    }

    /** Writes the session to the store (if any); null when it was saved, else why not. */
    private String persist() {
        if (store == null) return null;
        byte[] snap;
        try {
            snap = sandbox == null ? null : sandbox.snapshot();
        } catch (dev.luavm.LuaException e) {
            log.println("luavm mcp: the session's state was not saved: " + e.getMessage());
            return "not saved: " + e.getMessage();
        }
        try {
            store.save(gasSpent, snap);
            return null;
        } catch (java.io.IOException e) {
            log.println("luavm mcp: the session's state was not saved: " + e.getMessage());
            return "not saved: " + e.getMessage();
        }
    }

    private ExecutorService newThread() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, "luavm-" + name + "-" + threads.incrementAndGet(), STACK_BYTES);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs {@code source}; an expression's values are returned as a REPL would. Never throws for what the script does. */
    Map<String, Object> run(String source) throws InterruptedException {
        return run(source, new CallCancellation());
    }

    /** As {@link #run(String)}, ended with {@code cancelled} when {@code cancellation} fires. */
    synchronized Map<String, Object> run(String source, CallCancellation cancellation) throws InterruptedException {
        if (gasLeft() == 0) return spentReport();
        if (sandbox == null) {
            sandbox = vm.sandbox().name(name + "-" + ++generation).capabilities(capabilities)
                    .limits(limits.withGas(gasLeft())).build();
        }
        Sandbox sb = sandbox;
        Future<Outcome> f = thread.submit(() -> runHere(sb, source, cancellation));
        Outcome outcome;
        try {
            outcome = await(f, sb);
        } catch (InterruptedException e) {
            cancellation.cancel(); // the caller gave up: end this call's run, even one not started yet
            sb.cancel();
            f.cancel(true);
            throw e;
        }
        if (outcome == null) {
            discardStuckSandbox();
            Map<String, Object> r = report(false, "", null, internal("the run did not end within " + OVERRUN_GRACE_MILLIS
                    + " ms of its time limit; its sandbox was discarded (every global is gone)"), 0, null, 0);
            return withState(r, persist());
        }
        gasSpent += outcome.gas;
        Map<String, Object> r = report(outcome.error == null, outcome.output, outcome.results, outcome.error, outcome.gas,
                outcome.usage, outcome.elapsedMs);
        return withState(r, persist());
    }

    private static Map<String, Object> withState(Map<String, Object> report, String problem) {
        if (problem != null) report.put("state", problem);
        return report;
    }

    /** The run's outcome, or null when it overran by far and did not end even when cancelled. */
    private Outcome await(Future<Outcome> f, Sandbox sb) throws InterruptedException {
        long patience = limits.timeout().toMillis() + OVERRUN_GRACE_MILLIS;
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return f.get(patience, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                sb.cancel();
                patience = 5_000;
            } catch (ExecutionException e) {
                throw new IllegalStateException("lua_run failed", e.getCause());
            }
        }
        return null;
    }

    private void discardStuckSandbox() {
        if (sandbox != null) sandbox.close();
        sandbox = null;
        thread.shutdownNow();
        thread = newThread();
    }

    /**
     * Discards the sandbox: the next run starts a fresh one with what is left of the session's
     * gas, less this reset's own cost ({@code usage.gas}; all that is left when less is).
     */
    synchronized Map<String, Object> reset() {
        long cost = Math.min(resetGas, gasLeft());
        if (sandbox != null) sandbox.close();
        sandbox = null;
        gasSpent += cost;
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("ok", true);
        report.put("message", gasLeft() == 0
                ? "the sandbox was reset: every global is gone; the session's gas budget is spent, so every lua_run "
                        + "ends with the gas limit"
                : "the sandbox was reset: every global is gone; the session's gas budget goes on (a reset gives none back)");
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("gas", cost);
        usage.put("gasLeft", gasLeft());
        report.put("usage", usage);
        return withState(report, persist());
    }

    /** Gas left of the session's budget. */
    synchronized long gasLeft() {
        return Math.max(0, limits.gas() - gasSpent);
    }

    Capabilities capabilities() {
        return capabilities;
    }

    Limits limits() {
        return limits;
    }

    /** Ends the run in progress, if any, and the session's thread; any thread, without waiting for the run. */
    @Override
    public void close() {
        Sandbox sb = sandbox;
        if (sb != null) sb.close();
        thread.shutdownNow();
    }

    /** What one run gave, computed on the session's thread. */
    private record Outcome(String output, Object results, Map<String, Object> error, long gas, Usage usage,
                           long elapsedMs) {}

    private Outcome runHere(Sandbox sb, String source, CallCancellation cancellation) {
        long start = System.nanoTime();
        long[] gas = {0};
        Object results = null;
        Map<String, Object> error = null;
        if (!cancellation.onCancel(sb::cancel)) {
            error = limitError(LuaLimitException.Limit.CANCELLED, "run cancelled");
            return new Outcome("", null, error, 0, sb.usage(), 0);
        }
        try {
            List<Object> values = null;
            if (looksLikeExpression(source)) values = attempt(sb, "return " + source, cancellation, gas);
            if (values == null) values = eval(sb, source, cancellation, gas);
            results = JsonValues.resultToJson(values);
        } catch (RuntimeException e) {
            error = classify(e, gas[0]);
        } finally {
            cancellation.clear();
        }
        return new Outcome(sb.output(), results, error, gas[0], sb.usage(), (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * Runs {@code return <source>} when it compiles (checked outside the sandbox first, so a
     * statement leaves no failed run behind in the audit log); null when it does not.
     */
    private List<Object> attempt(Sandbox sb, String expression, CallCancellation cancellation, long[] gas) {
        try {
            vm.compile(CHUNK, expression);
        } catch (RuntimeException e) {
            return null;
        }
        return eval(sb, expression, cancellation, gas);
    }

    /**
     * One run; its gas is added to {@code gas[0]} however it ends. The call's cancellation is
     * armed with this run's own {@link Sandbox.Run} before it starts, so a cancel landing just
     * before the run still ends it (at its start), and one meant for an earlier call, landing
     * after that call's run ended, reaches nothing.
     */
    private List<Object> eval(Sandbox sb, String source, CallCancellation cancellation, long[] gas) {
        Sandbox.Run run = sb.nextRun();
        if (!cancellation.onCancel(run::cancel)) run.cancel(); // cancelled already: the run ends at its start
        try {
            List<Object> r = sb.evalAll(CHUNK, source);
            gas[0] += sb.usage().gas();
            return r;
        } catch (RuntimeException e) {
            gas[0] += sb.usage().gas();
            throw e;
        }
    }

    private static boolean looksLikeExpression(String source) {
        return source.length() < MAX_EXPRESSION_TRY && !source.isBlank();
    }

    private Map<String, Object> spentReport() {
        Sandbox sb = sandbox;
        return report(false, "", null, limitError(LuaLimitException.Limit.GAS, "gas limit exceeded" + SESSION_SPENT), 0,
                sb == null ? null : sb.usage(), 0);
    }

    private static Map<String, Object> limitError(LuaLimitException.Limit limit, String message) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("kind", "limit");
        err.put("limit", limit.label);
        err.put("message", message);
        return err;
    }

    private static final String SESSION_SPENT = " (the session's gas budget is spent: every later call ends the same way, "
            + "lua_reset included; a new session starts afresh)";

    private Map<String, Object> report(boolean ok, String output, Object results, Map<String, Object> error, long gas,
                                       Usage u, long elapsedMs) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("ok", ok);
        report.put("output", output);
        if (ok) report.put("results", results);
        else report.put("error", error);
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("gas", gas);
        usage.put("gasLeft", gasLeft());
        usage.put("memoryBytes", u == null ? 0 : u.memoryBytes());
        usage.put("peakMemoryBytes", u == null ? 0 : u.peakMemoryBytes());
        usage.put("outputBytes", u == null ? 0 : u.outputBytes());
        usage.put("elapsedMs", elapsedMs);
        report.put("usage", usage);
        return report;
    }

    private static Map<String, Object> internal(String message) {
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("kind", "internal");
        err.put("message", message);
        return err;
    }

    /**
     * The error part of a report: kind (syntax, runtime, limit, conversion, audit, internal),
     * message and where. Called on the session's thread before the call's gas is added, so the
     * session budget is spent when what was spent before plus {@code callGas} reaches it.
     */
    Map<String, Object> classify(RuntimeException e, long callGas) {
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
            boolean gas = l.limit() == LuaLimitException.Limit.GAS;
            boolean sessionSpent = gas && gasSpentBy(callGas) >= limits.gas();
            err.put("message", l.getMessage() + (sessionSpent ? SESSION_SPENT
                    : gas ? " (this call's gas; the next call gets its own)" : ""));
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

    /** Gas spent by the session once {@code callGas} more is: read from the session's thread while the caller waits. */
    private long gasSpentBy(long callGas) {
        return gasSpent + callGas;
    }
}
