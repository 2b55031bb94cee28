package dev.luavm.audit;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.Usage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A sandbox's run bookkeeping and the writer of its audit log: numbers the runs and, within a
 * run, the host calls (policies see the call number even when nothing is logged), keeps the
 * run's start time, and writes the events to the {@link AuditSink} (none: nothing is written and
 * no digest or copy is made).
 *
 * <p>Used on the running sandbox's thread only. A sink failure becomes
 * {@link LuaAuditException}: the log fails closed.
 */
public final class AuditTrail {
    private final String sandbox;
    private final AuditSink sink;
    private long run;
    private long calls;
    private long runStartNanos;
    /** a run-started event was written and its run-ended not yet */
    private boolean open;
    private long clockReads;
    private long lastClockMillis;

    public AuditTrail(String sandbox, AuditSink sink) {
        this.sandbox = sandbox;
        this.sink = sink;
    }

    /** True when events are written. */
    public boolean enabled() {
        return sink != null;
    }

    public String sandbox() {
        return sandbox;
    }

    /** The current (or latest) run's number, from 1. */
    public long run() {
        return run;
    }

    /** Numbers the next host call of the run, from 1. */
    public long nextCall() {
        return ++calls;
    }

    /** Time since the run started. */
    public long elapsedNanos() {
        return System.nanoTime() - runStartNanos;
    }

    /**
     * Starts a run: numbers it and writes {@link RunStarted}.
     *
     * @param sourceSha256 hex SHA-256 of the source, or null when there is none (a call); asked only when logging
     * @param inputs       the run's arguments as the host passed them (digested)
     * @throws LuaAuditException when the sink fails: the run must not start
     */
    public void begin(String kind, String chunk, Supplier<String> sourceSha256, List<?> inputs, Capabilities capabilities,
                      Limits limits, long randomSeed, long clockMillis) {
        run++;
        calls = 0;
        runStartNanos = System.nanoTime();
        if (sink == null) return;
        write(new RunStarted(sandbox, run, kind, chunk, sourceSha256.get(), Digests.ofValues(inputs),
                capabilities.describe(), limitsOf(limits), randomSeed, clockMillis));
        open = true;
        clockReads = 0;
        lastClockMillis = clockMillis;
    }

    /**
     * The script read the wall clock: writes a {@link ClockReading} when the value differs from
     * the last one recorded (outside a logged run, nothing).
     */
    public void clockRead(long millis) {
        if (!open) return;
        clockReads++;
        if (millis == lastClockMillis) return;
        lastClockMillis = millis;
        write(new ClockReading(sandbox, run, clockReads, millis));
    }

    /** The limits by name, as {@link RunStarted#limits()} holds them. */
    static Map<String, Object> limitsOf(Limits l) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gas", l.gas());
        m.put("memoryBytes", l.memoryBytes());
        m.put("callDepth", (long) l.callDepth());
        m.put("outputBytes", l.outputBytes());
        m.put("timeoutMillis", l.timeout().getSeconds() >= Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : l.timeout().toMillis());
        m.put("sourceBytes", l.sourceBytes());
        m.put("parseDepth", (long) l.parseDepth());
        return m;
    }

    /** Writes one host call's event (the gateway calls this exactly once per call). */
    public void hostCall(HostCallEvent event) {
        if (sink != null) write(event);
    }

    /**
     * Ends the run: writes {@link RunEnded} when its start was written. {@code failure} is what
     * the host is about to see (null when the run returned {@code results}).
     *
     * @throws LuaAuditException when the sink fails and the run had not already failed on the
     *                           audit log: the host must not take the results as audited
     */
    public void end(List<Object> results, Throwable failure, Usage usage) {
        if (!open) return;
        open = false;
        RunEnded.Outcome outcome;
        String limit = null;
        String error = failure == null ? null : LuaScriptException.class.isInstance(failure)
                ? failure.getMessage() : String.valueOf(failure.getMessage());
        if (failure == null) outcome = RunEnded.Outcome.OK;
        else if (failure instanceof LuaAuditException) outcome = RunEnded.Outcome.AUDIT_FAILED;
        else if (failure instanceof LuaLimitException l) {
            outcome = l.limit() == LuaLimitException.Limit.CANCELLED ? RunEnded.Outcome.CANCELLED : RunEnded.Outcome.LIMIT;
            if (outcome == RunEnded.Outcome.LIMIT) limit = l.limit().label;
        } else if (failure instanceof LuaScriptException) outcome = RunEnded.Outcome.ERROR;
        else {
            outcome = RunEnded.Outcome.FAILED;
            error = failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
        }
        if (error != null && error.length() > LuaScriptException.MAX_MESSAGE) error = error.substring(0, LuaScriptException.MAX_MESSAGE);
        RunEnded event = new RunEnded(sandbox, run, outcome, limit, error,
                failure == null ? Digests.ofValues(results) : null, usage, calls);
        try {
            write(event);
        } catch (LuaAuditException e) {
            if (failure instanceof LuaAuditException) {
                failure.addSuppressed(e);
                return;
            }
            if (failure != null) e.addSuppressed(failure);
            throw e;
        }
    }

    private void write(AuditEvent event) {
        try {
            sink.write(event);
        } catch (Exception e) {
            throw new LuaAuditException(event, e);
        }
    }
}
