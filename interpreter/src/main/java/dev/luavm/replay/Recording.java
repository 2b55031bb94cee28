package dev.luavm.replay;

import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.ClockReading;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What entered one sandbox during its recorded runs, read back from its audit log: the events of
 * a sandbox built with {@code record(true)} (from a {@link dev.luavm.audit.MemoryAuditSink}, or
 * parsed from a JSON Lines file by the {@code luavm-audit-jsonl} module). Per run: the source
 * and its load name, the inputs, the random seed, the clock's zone, its start and every change
 * of the wall clock and of {@code os.clock}, and each host call with its results in full or its
 * error; and what came out, to compare against: host-call events, the output's digest, the
 * run-ended event.
 *
 * <p>Event numbers are positions in the list the recording was made from, from 1 (for a JSON
 * Lines file holding one sandbox, its line numbers), so a divergence points into the log.
 */
public final class Recording {
    /** Stands for nil in {@link Run#globals()} (map entries hold no null). */
    public static final Object NIL = new Object() {
        @Override
        public String toString() {
            return "nil";
        }
    };

    private final String sandbox;
    private final List<Run> runs;

    private Recording(String sandbox, List<Run> runs) {
        this.sandbox = sandbox;
        this.runs = List.copyOf(runs);
    }

    /** The recording of the first sandbox named in {@code events} (a log may interleave several). */
    public static Recording of(List<? extends AuditEvent> events) {
        if (events.isEmpty()) throw new IllegalArgumentException("the log is empty: nothing to replay");
        return of(events, events.get(0).sandbox());
    }

    /** The recording of sandbox {@code sandbox} among {@code events}. */
    public static Recording of(List<? extends AuditEvent> events, String sandbox) {
        List<Run> runs = new ArrayList<>();
        Run current = null;
        for (int i = 0; i < events.size(); i++) {
            AuditEvent e = events.get(i);
            if (!e.sandbox().equals(sandbox)) continue;
            if (e instanceof RunStarted s) {
                current = new Run(s, i + 1);
                runs.add(current);
            } else if (current == null || e.run() != current.started.run()) {
                throw new IllegalArgumentException("event " + (i + 1) + " belongs to no run-started event of sandbox " + sandbox);
            }
            current.add(e, i + 1);
        }
        if (runs.isEmpty()) throw new IllegalArgumentException("no run of sandbox '" + sandbox + "' in the log");
        for (Run r : runs) {
            if (r.inputs == null) {
                throw new IllegalArgumentException("run " + r.number() + " of sandbox '" + sandbox
                        + "' was not recorded (no recorded inputs: build the sandbox with record(true))");
            }
        }
        return new Recording(sandbox, runs);
    }

    public String sandbox() {
        return sandbox;
    }

    public List<Run> runs() {
        return runs;
    }

    /** One recorded run. */
    public static final class Run {
        private final RunStarted started;
        private final List<AuditEvent> events = new ArrayList<>();
        private final List<Integer> numbers = new ArrayList<>();
        private RunEnded ended;
        private String loadName;
        private byte[] source;
        private List<Object> inputs;
        private String zone;
        private final List<Map.Entry<String, Object>> globals = new ArrayList<>();
        private final Map<String, Object> modules = new HashMap<>();
        private final Map<Long, HostCallEvent> calls = new HashMap<>();
        private final Map<Long, List<Object>> results = new HashMap<>();
        private final Map<Long, Boolean> redacted = new HashMap<>();
        private final Map<Long, String> errors = new HashMap<>();
        private final TreeMap<Long, Long> clock = new TreeMap<>();
        private final TreeMap<Long, Long> cpuClock = new TreeMap<>();

        Run(RunStarted started, int number) {
            this.started = started;
        }

        void add(AuditEvent e, int number) {
            events.add(e);
            numbers.add(number);
            if (e instanceof RunEnded r) ended = r;
            else if (e instanceof HostCallEvent h) calls.put(h.seq(), h);
            else if (e instanceof ClockReading c) clock.put(c.read(), c.millis());
            else if (e instanceof Recorded d) {
                switch (d.kind()) {
                    case SOURCE -> {
                        loadName = (String) d.values().get(0);
                        Object s = d.values().get(1);
                        source = s instanceof byte[] b ? b : String.valueOf(s).getBytes(StandardCharsets.UTF_8);
                    }
                    case INPUTS -> inputs = d.values();
                    case ZONE -> zone = (String) d.values().get(0);
                    case GLOBAL -> globals.add(Map.entry(String.valueOf(d.values().get(0)), d.values().get(1) == null
                            ? NIL : d.values().get(1)));
                    case HOST_RESULTS -> {
                        results.put(d.seq(), d.values());
                        redacted.put(d.seq(), d.redacted());
                    }
                    case HOST_ERROR -> errors.put(d.seq(), String.valueOf(d.values().get(0)));
                    case MODULE -> modules.put(String.valueOf(d.values().get(0)), d.values().get(1) == null
                            ? NIL : d.values().get(1));
                    case CPU_CLOCK -> cpuClock.put(d.seq(), ((Number) d.values().get(0)).longValue());
                    case OUTPUT -> { }
                }
            }
        }

        /** The run's number in its sandbox. */
        public long number() {
            return started.run();
        }

        public RunStarted started() {
            return started;
        }

        /** The run-ended event, or null when the log stops before it (the process died). */
        public RunEnded ended() {
            return ended;
        }

        /** Every event of the run, in log order. */
        public List<AuditEvent> events() {
            return List.copyOf(events);
        }

        /** The log position (from 1) of {@code events().get(i)}. */
        public int eventNumber(int i) {
            return numbers.get(i);
        }

        /** {@code "@script.lua"}, {@code "=input"}; null for a call. */
        public String loadName() {
            return loadName;
        }

        /** The source; null for a call. */
        public byte[] source() {
            return source == null ? null : source.clone();
        }

        /** The run's arguments, in full. */
        public List<Object> inputs() {
            return inputs;
        }

        /** Globals the host set before this run ({@code Sandbox.setGlobal}), in order; a nil value is {@link #NIL}. */
        public List<Map.Entry<String, Object>> globals() {
            return List.copyOf(globals);
        }

        /** The module sources {@code require} got from the host in this run, by name ({@link #NIL}: none). */
        public Map<String, Object> modules() {
            return Map.copyOf(modules);
        }

        /** The clock's zone id, or null when not recorded. */
        public String zone() {
            return zone;
        }

        /** Host call {@code seq}'s event, or null. */
        public HostCallEvent hostCall(long seq) {
            return calls.get(seq);
        }

        /** What host call {@code seq} returned, in full (after the redactor), or null. */
        public List<Object> hostResults(long seq) {
            return results.get(seq);
        }

        /** True when the redactor changed host call {@code seq}'s recorded results. */
        public boolean redacted(long seq) {
            return redacted.getOrDefault(seq, false);
        }

        /** The error host call {@code seq} raised, or null. */
        public String hostError(long seq) {
            return errors.get(seq);
        }

        /** The wall clock at read {@code read} (from 1): the latest change at or before it, else the start. */
        public long clockMillis(long read) {
            Map.Entry<Long, Long> e = clock.floorEntry(read);
            return e != null ? e.getValue() : started.clockMillis();
        }

        /** {@code os.clock} at read {@code read} (from 1), in nanoseconds: the latest change at or before it, else 0. */
        public long cpuClockNanos(long read) {
            Map.Entry<Long, Long> e = cpuClock.floorEntry(read);
            return e != null ? e.getValue() : 0;
        }
    }
}
