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
    /** also write the {@link Recorded} full-value channel */
    private final boolean recording;
    private long cpuReads;
    private long lastCpuNanos;

    public AuditTrail(String sandbox, AuditSink sink) {
        this(sandbox, sink, false);
    }

    /** @param recording also write the {@link Recorded} events a replay needs (ignored without a sink) */
    public AuditTrail(String sandbox, AuditSink sink, boolean recording) {
        this.sandbox = sandbox;
        this.sink = sink;
        this.recording = recording && sink != null;
    }

    /** True when the {@link Recorded} full-value channel is written. */
    public boolean recording() {
        return recording;
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
        cpuReads = 0;
        lastCpuNanos = Long.MIN_VALUE;
    }

    /**
     * Records what a replay needs of the run's start (after {@link #begin}, when recording): the
     * source with its load name (null for a call), the inputs in full, the clock's zone.
     */
    public void recordStart(String loadName, byte[] source, List<?> inputs, String zone) {
        if (!open || !recording) return;
        if (source != null) {
            java.util.ArrayList<Object> v = new java.util.ArrayList<>(2);
            v.add(loadName);
            v.add(utf8OrBytes(source));
            write(new Recorded(sandbox, run, Recorded.Kind.SOURCE, 0, v, false));
        }
        write(new Recorded(sandbox, run, Recorded.Kind.INPUTS, 0, new java.util.ArrayList<Object>(inputs), false));
        write(new Recorded(sandbox, run, Recorded.Kind.ZONE, 0, List.of(zone), false));
        for (java.util.ArrayList<Object> g : globals) write(new Recorded(sandbox, run, Recorded.Kind.GLOBAL, 0, g, false));
        globals.clear();
    }

    /** globals the host set since the last run, recorded at the next run's start */
    private final List<java.util.ArrayList<Object>> globals = new java.util.ArrayList<>();

    /** The host set a global between runs: recorded (in full) with the next run's start, when recording. */
    public void recordGlobal(String name, Object value) {
        if (!recording) return;
        java.util.ArrayList<Object> g = new java.util.ArrayList<>(2);
        g.add(name);
        g.add(value);
        globals.add(g);
    }

    /** A String when {@code b} is valid UTF-8 (readable in the log), else the bytes. */
    private static Object utf8OrBytes(byte[] b) {
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(b)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return b.clone();
        }
    }

    /** Records host call {@code seq}'s results in full, or its error (when recording). */
    public void recordHostCall(long seq, List<?> results, boolean redacted, String error) {
        if (!open || !recording) return;
        if (error != null) write(new Recorded(sandbox, run, Recorded.Kind.HOST_ERROR, seq, List.of(error), false));
        else write(new Recorded(sandbox, run, Recorded.Kind.HOST_RESULTS, seq, new java.util.ArrayList<Object>(results), redacted));
    }

    /** {@code require} asked the host for a module: records the name and the source it got (when recording). */
    public void moduleRead(String name, String source) {
        if (!open || !recording) return;
        java.util.ArrayList<Object> v = new java.util.ArrayList<>(2);
        v.add(name);
        v.add(source);
        write(new Recorded(sandbox, run, Recorded.Kind.MODULE, 0, v, false));
    }

    /** The script read {@code os.clock}: records the value when it changed (when recording). */
    public void cpuClockRead(long nanos) {
        if (!open || !recording) return;
        cpuReads++;
        if (nanos == lastCpuNanos) return;
        lastCpuNanos = nanos;
        write(new Recorded(sandbox, run, Recorded.Kind.CPU_CLOCK, cpuReads, List.of(nanos), false));
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
        end(results, failure, usage, null);
    }

    /**
     * {@link #end(List, Throwable, Usage)}, first recording the digest of the run's output
     * ({@link Recorded.Kind#OUTPUT}, when recording and {@code outputSha256} is not null).
     */
    public void end(List<Object> results, Throwable failure, Usage usage, String outputSha256) {
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
            if (recording && outputSha256 != null) {
                write(new Recorded(sandbox, run, Recorded.Kind.OUTPUT, 0, List.of(outputSha256, usage.outputBytes()), false));
            }
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
