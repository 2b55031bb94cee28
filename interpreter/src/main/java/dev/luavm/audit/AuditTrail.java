package dev.luavm.audit;

import dev.luavm.Limits;
import dev.luavm.LuaAuditException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.Usage;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <h2>A bounded log</h2>
 * What a script makes the log hold is bounded and paid for, like its memory and its output:
 * <ul>
 *   <li>Each event the script causes (a host call and its recorded results, a run of clock
 *       readings, a module source or input bytes it asked for) costs the run gas in proportion
 *       to its estimated size ({@link AuditCost}); the events the host causes (the run's start,
 *       its inputs and source, its end) are free.</li>
 *   <li>A run writes at most {@link Limits#auditEvents()} events. Room is taken before the work
 *       that needs it: a host call takes room for all its events before it begins (so no call is
 *       ever cut from the log), a clock's run of readings takes room for its event at its first
 *       reading. Without room, or when the sink is {@linkplain AuditSink#full() full}, the run
 *       ends with the {@code AUDIT} limit. The run's end, and the readings still pending then,
 *       are always written.</li>
 *   <li>Clock reads are kept compactly: a clock's changed readings are collected into one
 *       {@link ClockReadings} event of up to {@link ClockReadings#MAX_READS}, written when full
 *       or before any other event, so a loop reading {@code os.clock} costs about one unit of gas
 *       and a few bytes of log per read.</li>
 * </ul>
 *
 * <p>Used on the running sandbox's thread only. A sink failure becomes
 * {@link LuaAuditException}: the log fails closed.
 */
public final class AuditTrail {
    /**
     * What the trail needs of the running sandbox: gas to charge, and a way to end the run with
     * the {@code AUDIT} limit.
     */
    public interface Meter {
        /** Charges {@code units} of gas to the run; throws the VM's termination when it runs out. */
        void chargeGas(long units);

        /** Ends the run with the AUDIT limit: returns the VM's termination, for the trail to throw. */
        RuntimeException auditLimit();

        /** No gas, and a plain {@link LuaLimitException}-free end (tools and tests without a VM). */
        Meter NONE = new Meter() {
            @Override
            public void chargeGas(long units) {
            }

            @Override
            public RuntimeException auditLimit() {
                return new IllegalStateException(LuaLimitException.messageFor(LuaLimitException.Limit.AUDIT));
            }
        };
    }

    private final String sandbox;
    private final AuditSink sink;
    /** also write the {@link Recorded} full-value channel */
    private final boolean recording;
    private Meter meter = Meter.NONE;
    private long run;
    private long calls;
    private long runStartNanos;
    /** a run-started event was written and its run-ended not yet */
    private boolean open;

    /** the run's bound on events ({@link Limits#auditEvents()}) */
    private long maxEvents = Long.MAX_VALUE;
    /** events the run has written */
    private long written;
    /** room taken for events not yet written: pending clock readings, the events of a host call under way */
    private long reserved;
    /** gas of a host call's event, charged with its recorded results (recording) */
    private long callGas;
    /** the host call whose events are being written ended the run: nothing more to charge */
    private boolean callEndedRun;
    private final Readings wall = new Readings(ClockReadings.Kind.WALL);
    private final Readings cpu = new Readings(ClockReadings.Kind.CPU);
    private String limitsSha256;
    private String capabilitiesSha256;

    public AuditTrail(String sandbox, AuditSink sink) {
        this(sandbox, sink, false);
    }

    /** @param recording also write the {@link Recorded} events a replay needs (ignored without a sink) */
    public AuditTrail(String sandbox, AuditSink sink, boolean recording) {
        this.sandbox = sandbox;
        this.sink = sink;
        this.recording = recording && sink != null;
    }

    /** Connects the trail to the sandbox's meters (gas, the AUDIT limit). */
    public void meter(Meter meter) {
        this.meter = java.util.Objects.requireNonNull(meter);
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

    /**
     * Numbers the next host call of the run, from 1, after taking room in the log for all of the
     * call's events: without room the run ends with AUDIT here, before the call begins.
     */
    public long nextCall() {
        if (open) {
            long need = recording ? 2 : 1;
            take(need);
            reserved += need;
        }
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
     * @param capabilities the sandbox's grants, one line each ({@code Capabilities.describe()}); asked only when logging
     * @throws LuaAuditException when the sink fails: the run must not start
     * @throws RuntimeException  the meter's AUDIT end when the sink is full: the run must not start
     */
    public void begin(String kind, String chunk, Supplier<String> sourceSha256, List<?> inputs, Supplier<List<String>> capabilities,
                      Limits limits, long randomSeed, long clockMillis) {
        run++;
        calls = 0;
        runStartNanos = System.nanoTime();
        if (sink == null) return;
        if (sink.full()) throw meter.auditLimit();
        maxEvents = limits.auditEvents();
        reserved = 0;
        wall.reset(clockMillis);
        cpu.reset(Long.MIN_VALUE);
        inputReads = 0;
        Map<String, Object> limitsMap = limitsOf(limits);
        List<String> caps = List.copyOf(capabilities.get());
        limitsSha256 = Digests.ofValues(List.of(limitsMap));
        capabilitiesSha256 = Digests.ofValues(caps);
        written = 0;
        write(new RunStarted(sandbox, run, kind, chunk, sourceSha256.get(), Digests.ofValues(inputs), caps, limitsMap,
                randomSeed, clockMillis));
        open = true;
    }

    /**
     * Records what a replay needs of the run's start (after {@link #begin}, when recording): the
     * source with its load name (null for a call), the inputs in full, the clock's zone.
     */
    public void recordStart(String loadName, byte[] source, List<?> inputs, String zone) {
        if (!open || !recording) return;
        if (source != null) {
            ArrayList<Object> v = new ArrayList<>(2);
            v.add(loadName);
            v.add(utf8OrBytes(source));
            write(new Recorded(sandbox, run, Recorded.Kind.SOURCE, 0, v, false));
        }
        write(new Recorded(sandbox, run, Recorded.Kind.INPUTS, 0, new ArrayList<Object>(inputs), false));
        write(new Recorded(sandbox, run, Recorded.Kind.ZONE, 0, List.of(zone), false));
        for (ArrayList<Object> g : globals) write(new Recorded(sandbox, run, Recorded.Kind.GLOBAL, 0, g, false));
        globals.clear();
        if (inputPresent) write(new Recorded(sandbox, run, Recorded.Kind.STDIN, 0, List.of(), false));
    }

    /** the sandbox reads a host-given input stream: each run's recording says so */
    private boolean inputPresent;
    private long inputReads;

    /** The sandbox has a host-given input stream, whose bytes {@link #inputRead} records. */
    public void inputPresent() {
        inputPresent = true;
    }

    /** The input stream delivered {@code len} bytes to the sandbox: records them in full (when recording). */
    public void inputRead(byte[] b, int off, int len) {
        if (!open || !recording || len <= 0) return;
        scriptEvent(new Recorded(sandbox, run, Recorded.Kind.STDIN, ++inputReads,
                List.of(Arrays.copyOfRange(b, off, off + len)), false));
    }

    /** globals the host set since the last run, recorded at the next run's start */
    private final List<ArrayList<Object>> globals = new ArrayList<>();

    /** The host set a global between runs: recorded (in full) with the next run's start, when recording. */
    public void recordGlobal(String name, Object value) {
        if (!recording) return;
        ArrayList<Object> g = new ArrayList<>(2);
        g.add(name);
        g.add(value);
        globals.add(g);
    }

    /** A String when {@code b} is valid UTF-8 (readable in the log), else the bytes. */
    private static Object utf8OrBytes(byte[] b) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return b.clone();
        }
    }

    /** Writes one host call's event (the gateway calls this exactly once per call). */
    public void hostCall(HostCallEvent event) {
        if (sink == null) return;
        if (!open) {
            write(event);
            return;
        }
        flushReadings();
        write(event);
        reserved = Math.max(0, reserved - 1);
        // the run ends (or pauses, its snapshot taken) at this call: nothing more is charged to it
        callEndedRun = event.outcome() == HostCallEvent.Outcome.RUN_ENDED || event.outcome() == HostCallEvent.Outcome.PAUSED;
        if (recording) callGas = AuditCost.gas(event); // charged with the recorded results, written next
        else if (!callEndedRun) meter.chargeGas(AuditCost.gas(event)); // written first: a call is logged exactly once
    }

    /** Records host call {@code seq}'s results in full, or its error (when recording). */
    public void recordHostCall(long seq, List<?> results, boolean redacted, String error) {
        if (!open || !recording) return;
        Recorded r = error != null ? new Recorded(sandbox, run, Recorded.Kind.HOST_ERROR, seq, List.of(error), false)
                : new Recorded(sandbox, run, Recorded.Kind.HOST_RESULTS, seq, new ArrayList<Object>(results), redacted);
        write(r);
        reserved = Math.max(0, reserved - 1);
        long gas = callGas + AuditCost.gas(r);
        callGas = 0;
        if (!callEndedRun) meter.chargeGas(gas);
    }

    /** {@code require} asked the host for a module: records the name and the source it got (when recording). */
    public void moduleRead(String name, String source) {
        if (!open || !recording) return;
        ArrayList<Object> v = new ArrayList<>(2);
        v.add(name);
        v.add(source);
        scriptEvent(new Recorded(sandbox, run, Recorded.Kind.MODULE, 0, v, false));
    }

    /** An event the script caused outside a host call: room and gas first, then written. */
    private void scriptEvent(AuditEvent e) {
        flushReadings();
        take(1);
        meter.chargeGas(AuditCost.gas(e));
        write(e);
    }

    /** The script read {@code os.clock}: records the value when it changed (when recording). */
    public void cpuClockRead(long nanos) {
        if (!open || !recording) return;
        cpu.read(nanos);
    }

    /**
     * The script read the wall clock: records the value when it differs from the last one
     * recorded (outside a logged run, nothing).
     */
    public void clockRead(long millis) {
        if (!open) return;
        wall.read(millis);
    }

    /** Ends the run with AUDIT unless {@code n} more events fit (the bound, the sink's budget). */
    private void take(long n) {
        if (written + reserved + n > maxEvents || sink.full()) throw meter.auditLimit();
    }

    /** Writes the pending readings of both clocks (their room was taken with their first reading). */
    private void flushReadings() {
        wall.flush();
        cpu.flush();
    }

    /** One clock's reads in the run and its changed readings not yet written. */
    private final class Readings {
        private final ClockReadings.Kind clock;
        /** allocated at the first changed reading: most sandboxes never read a clock, or log nothing */
        private long[] reads;
        private long[] values;
        private int pending;
        private long count;
        private long last;

        Readings(ClockReadings.Kind clock) {
            this.clock = clock;
        }

        void reset(long start) {
            pending = 0;
            count = 0;
            last = start;
        }

        void read(long value) {
            count++;
            if (value == last) return;
            if (pending == 0) {
                take(1); // room and gas for the event these readings will make
                meter.chargeGas(AuditCost.readingsEventGas(sandbox));
                reserved++;
                if (reads == null) {
                    reads = new long[ClockReadings.MAX_READS];
                    values = new long[ClockReadings.MAX_READS];
                }
            }
            meter.chargeGas(AuditCost.READING_GAS);
            last = value;
            reads[pending] = count;
            values[pending] = value;
            if (++pending == ClockReadings.MAX_READS) flush();
        }

        void flush() {
            if (pending == 0) return;
            ClockReadings e = new ClockReadings(sandbox, run, clock, Arrays.copyOf(reads, pending), Arrays.copyOf(values, pending));
            pending = 0;
            reserved = Math.max(0, reserved - 1);
            write(e);
        }
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
        if (l.runGas() != Long.MAX_VALUE) m.put("runGas", l.runGas());
        if (l.auditEvents() != Long.MAX_VALUE) m.put("auditEvents", l.auditEvents());
        return m;
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
     * {@link #end(List, Throwable, Usage)} with the digest of the run's output, which the
     * run-ended event records (and, when recording, an {@link Recorded.Kind#OUTPUT} event before
     * it).
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
        try {
            flushReadings();
            if (recording && outputSha256 != null) {
                write(new Recorded(sandbox, run, Recorded.Kind.OUTPUT, 0, List.of(outputSha256, usage.outputBytes()), false));
            }
            write(new RunEnded(sandbox, run, outcome, limit, error, failure == null ? Digests.ofValues(results) : null, usage,
                    calls, written + 1, outputSha256, limitsSha256, capabilitiesSha256));
        } catch (LuaAuditException e) {
            if (failure instanceof LuaAuditException) {
                failure.addSuppressed(e);
                return;
            }
            if (failure != null) e.addSuppressed(failure);
            throw e;
        } finally {
            reserved = 0;
        }
    }

    private void write(AuditEvent event) {
        try {
            sink.write(event);
        } catch (Exception e) {
            throw new LuaAuditException(event, e);
        }
        written++;
    }
}
