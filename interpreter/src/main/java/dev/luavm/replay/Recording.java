package dev.luavm.replay;

import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.ClockReadings;
import dev.luavm.audit.Digests;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What entered one sandbox during its recorded runs, read back from its audit log: the events of
 * a sandbox built with {@code record(true)} (from a {@link dev.luavm.audit.MemoryAuditSink}, or
 * parsed from a JSON Lines file by the {@code luavm-audit-jsonl} module, which first verifies the
 * file's hash chain). Per run: the source and its load name, the inputs, the random seed, the
 * clock's zone, its start and every change of the wall clock and of {@code os.clock}, and each
 * host call with its results in full or its error; and what came out, to compare against:
 * host-call events, the output's digest, the run-ended event.
 *
 * <h2>What is refused</h2>
 * A recording is whole or it is not used: {@link #of} throws {@link IllegalArgumentException},
 * naming the event, for a log that is cut (a run without its {@link RunEnded}, wherever the cut
 * is), has gaps (a run number skipped, a run whose seal counts other events than the log holds, a
 * host call or input read missing), is reordered (events of a run after its end or before its
 * start, a call's recorded answer apart from its call, input reads or clock readings out of order,
 * duplicates), or claims limits or capabilities
 * its seal does not record ({@link RunEnded#limitsSha256()}, {@link RunEnded#capabilitiesSha256()}).
 *
 * <p>Event numbers are positions in the list the recording was made from, from 1, or the
 * positions given with it (a JSON Lines file gives its line numbers), so every message and
 * every divergence points into the log.
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
    private final String unit;

    private Recording(String sandbox, List<Run> runs, String unit) {
        this.sandbox = sandbox;
        this.runs = List.copyOf(runs);
        this.unit = unit;
    }

    /** The recording of the first sandbox named in {@code events} (a log may interleave several). */
    public static Recording of(List<? extends AuditEvent> events) {
        if (events.isEmpty()) throw new IllegalArgumentException("the log is empty: nothing to replay");
        return of(events, events.get(0).sandbox());
    }

    /** The recording of sandbox {@code sandbox} among {@code events}, numbered by position from 1. */
    public static Recording of(List<? extends AuditEvent> events, String sandbox) {
        long[] positions = new long[events.size()];
        for (int i = 0; i < positions.length; i++) positions[i] = i + 1;
        return of(events, sandbox, positions, "event");
    }

    /**
     * The recording of sandbox {@code sandbox} among {@code events}, where event {@code i} is at
     * {@code positions[i]} of the log, counted in {@code unit}s ({@code "line"} for a file).
     */
    public static Recording of(List<? extends AuditEvent> events, String sandbox, long[] positions, String unit) {
        Objects.requireNonNull(sandbox, "sandbox");
        if (positions.length != events.size()) throw new IllegalArgumentException("one position per event is needed");
        List<Run> runs = new ArrayList<>();
        Run current = null;
        Run previous = null;
        for (int i = 0; i < events.size(); i++) {
            AuditEvent e = events.get(i);
            if (!e.sandbox().equals(sandbox)) continue;
            String at = unit + " " + positions[i] + ": ";
            if (e instanceof RunStarted s) {
                if (current != null) {
                    throw new IllegalArgumentException(at + "run " + s.run() + " starts while run " + current.number()
                            + " (" + unit + " " + current.start + ") has not ended: the log is cut or reordered");
                }
                if (previous != null && s.run() != previous.number() + 1) {
                    throw new IllegalArgumentException(at + "run " + s.run() + " follows run " + previous.number()
                            + (s.run() <= previous.number() ? ": runs are repeated or reordered" : ": runs are missing (a gap)"));
                }
                current = new Run(s, positions[i]);
                runs.add(current);
            } else if (current == null || e.run() != current.number()) {
                Run ended = previous != null && previous.number() == e.run() ? previous : null;
                throw new IllegalArgumentException(at + "an event of run " + e.run() + (ended != null
                        ? " after its run_ended (" + unit + " " + ended.endPosition + "): the log is reordered or has a duplicate"
                        : " outside its run (no run_started before it): the log is cut or reordered"));
            }
            current.add(e, positions[i], at);
            if (e instanceof RunEnded) {
                current.seal(unit);
                previous = current;
                current = null;
            }
        }
        if (current != null) {
            throw new IllegalArgumentException(unit + " " + current.lastPosition + ": run " + current.number() + " of sandbox '"
                    + sandbox + "' is cut: it has no run_ended after " + unit + " " + current.lastPosition
                    + " (the log was truncated, or the recording process died)");
        }
        if (runs.isEmpty()) throw new IllegalArgumentException("no run of sandbox '" + sandbox + "' in the log");
        for (Run r : runs) {
            if (r.inputs == null) {
                throw new IllegalArgumentException(unit + " " + r.start + ": run " + r.number() + " of sandbox '" + sandbox
                        + "' was not recorded (no recorded inputs: build the sandbox with record(true))");
            }
        }
        return new Recording(sandbox, runs, unit);
    }

    public String sandbox() {
        return sandbox;
    }

    public List<Run> runs() {
        return runs;
    }

    /** What positions count: {@code "event"} (a list's positions) or {@code "line"} (a file's lines). */
    public String unit() {
        return unit;
    }

    /** How a mount's line starts among a run's capabilities ({@code Capabilities.describe()}). */
    public static final String MOUNT_LINE = "filesystem ";

    /**
     * The file system the recorded sandbox had: one line per mount, as its runs'
     * {@link RunStarted#capabilities()} list them without the leading {@code "filesystem "}
     * ({@code "/data read-only"}, {@code "/out read-write, quota 1 MiB"}; never a host path), in
     * order, each once over all runs, then {@code "working directory /work"} when relative names
     * started elsewhere than {@code /} ({@code Vfs.grantLines()}); empty when it had none. The seals vouch for these lines as
     * for every capability: a log edited to hide a mount is refused ({@link #of}).
     */
    public List<String> mounts() {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        for (Run r : runs) {
            for (String line : r.started().capabilities()) {
                if (line.startsWith(MOUNT_LINE)) out.add(line.substring(MOUNT_LINE.length()));
            }
        }
        return List.copyOf(out);
    }

    /** One recorded run. */
    public static final class Run {
        private final RunStarted started;
        private final long start;
        private final List<AuditEvent> events = new ArrayList<>();
        private final List<Long> numbers = new ArrayList<>();
        private long lastPosition;
        private long endPosition;
        private RunEnded ended;
        private String loadName;
        private byte[] source;
        private List<Object> inputs;
        private String zone;
        private String outputSha256;
        private final List<Map.Entry<String, Object>> globals = new ArrayList<>();
        private final Map<String, Object> modules = new HashMap<>();
        private final Map<Long, HostCallEvent> calls = new HashMap<>();
        private final Map<Long, List<Object>> results = new HashMap<>();
        private final Map<Long, Boolean> redacted = new HashMap<>();
        private final Map<Long, String> errors = new HashMap<>();
        private final ClockIndex wall = new ClockIndex();
        private final ClockIndex cpu = new ClockIndex();
        private final List<byte[]> input = new ArrayList<>();
        private boolean hasInput;
        private long inputReads;
        private boolean sourceSeen;
        private boolean zoneSeen;
        /** the number of the host call logged last */
        private long lastCall;

        /** Whether the recorded sandbox had a host-given input stream ({@code io.read}). */
        public boolean hasInput() {
            return hasInput;
        }

        /** The bytes the input stream delivered during this run, in order. */
        public List<byte[]> input() {
            return java.util.Collections.unmodifiableList(input);
        }

        Run(RunStarted started, long position) {
            this.started = started;
            this.start = position;
        }

        void add(AuditEvent e, long position, String at) {
            events.add(e);
            numbers.add(position);
            lastPosition = position;
            if (e instanceof RunEnded r) {
                ended = r;
                endPosition = position;
            } else if (e instanceof HostCallEvent h) {
                // numbered as calls begin, logged as they end: a call made from inside another (a
                // callback into Lua) is logged before it, so the numbers need not come in order
                if (h.seq() < 1 || calls.containsKey(h.seq())) {
                    throw new IllegalArgumentException(at + "host call #" + h.seq()
                            + (h.seq() < 1 ? ": not a call number" : " again: the log has a duplicate"));
                }
                calls.put(h.seq(), h);
                lastCall = h.seq();
            } else if (e instanceof ClockReadings c) {
                ClockIndex index = c.clock() == ClockReadings.Kind.WALL ? wall : cpu;
                if (c.firstRead() <= index.lastRead()) {
                    throw new IllegalArgumentException(at + "clock readings from read #" + c.firstRead() + " after read #"
                            + index.lastRead() + ": readings are repeated or reordered");
                }
                index.add(c);
            } else if (e instanceof Recorded d) {
                recorded(d, at);
            }
        }

        private void recorded(Recorded d, String at) {
            List<Object> v = d.values();
            switch (d.kind()) {
                case SOURCE -> {
                    once(sourceSeen, at, "source");
                    sourceSeen = true;
                    if (v.size() != 2 || !(v.get(0) instanceof String)) throw malformed(at, d);
                    loadName = (String) v.get(0);
                    Object s = v.get(1);
                    source = s instanceof byte[] b ? b : String.valueOf(s).getBytes(StandardCharsets.UTF_8);
                }
                case INPUTS -> {
                    once(inputs != null, at, "inputs");
                    inputs = v;
                }
                case ZONE -> {
                    once(zoneSeen, at, "zone");
                    zoneSeen = true;
                    if (v.size() != 1) throw malformed(at, d);
                    zone = v.get(0) == null ? null : String.valueOf(v.get(0));
                }
                case GLOBAL -> {
                    if (v.size() != 2) throw malformed(at, d);
                    globals.add(Map.entry(String.valueOf(v.get(0)), v.get(1) == null ? NIL : v.get(1)));
                }
                case HOST_RESULTS, HOST_ERROR -> {
                    if (d.seq() != lastCall || results.containsKey(d.seq()) || errors.containsKey(d.seq())) {
                        throw new IllegalArgumentException(at + "the recorded answer of host call #" + d.seq()
                                + " does not follow that call's event: the log is reordered or has a duplicate");
                    }
                    if (d.kind() == Recorded.Kind.HOST_ERROR) {
                        if (v.size() != 1) throw malformed(at, d);
                        errors.put(d.seq(), String.valueOf(v.get(0)));
                    } else {
                        results.put(d.seq(), v);
                        redacted.put(d.seq(), d.redacted());
                    }
                }
                case MODULE -> {
                    if (v.size() != 2) throw malformed(at, d);
                    modules.put(String.valueOf(v.get(0)), v.get(1) == null ? NIL : v.get(1));
                }
                case OUTPUT -> {
                    once(outputSha256 != null, at, "output digest");
                    if (v.size() != 2) throw malformed(at, d);
                    outputSha256 = String.valueOf(v.get(0));
                }
                case STDIN -> {
                    if (d.seq() == 0) {
                        hasInput = true;
                        return;
                    }
                    if (d.seq() != inputReads + 1) {
                        throw new IllegalArgumentException(at + "input read #" + d.seq() + " where #" + (inputReads + 1)
                                + " was due: input reads are missing, repeated or reordered");
                    }
                    inputReads++;
                    hasInput = true;
                    for (Object o : v) {
                        input.add(o instanceof byte[] b ? b : String.valueOf(o).getBytes(StandardCharsets.ISO_8859_1));
                    }
                }
            }
        }

        private static void once(boolean seen, String at, String what) {
            if (seen) throw new IllegalArgumentException(at + "a second recorded " + what + " in one run: the log has a duplicate");
        }

        private static IllegalArgumentException malformed(String at, Recorded d) {
            return new IllegalArgumentException(at + "a recorded " + d.kind() + " event with " + d.values().size() + " values");
        }

        /** At the run's end: its seal must agree with what the log holds of the run. */
        void seal(String unit) {
            String at = unit + " " + endPosition + ": run " + number() + "'s seal ";
            if (ended.events() != events.size()) {
                throw new IllegalArgumentException(at + "counts " + ended.events() + " events, the log holds " + events.size()
                        + " (events were " + (ended.events() > events.size() ? "deleted" : "added") + ")");
            }
            if (ended.hostCalls() != calls.size()) {
                throw new IllegalArgumentException(at + "counts " + ended.hostCalls() + " host calls, the log holds " + calls.size());
            }
            for (long n = 1; n <= calls.size(); n++) { // distinct numbers, as many as calls: 1..n unless one is missing
                if (!calls.containsKey(n)) throw new IllegalArgumentException(at + "counts host call #" + n + ", which the log lacks");
            }
            if (!Objects.equals(ended.limitsSha256(), Digests.ofValues(List.of(started.limits())))) {
                throw new IllegalArgumentException(at + "does not allow the limits its run_started (" + unit + " " + start
                        + ") claims: " + started.limits());
            }
            if (!Objects.equals(ended.capabilitiesSha256(), Digests.ofValues(started.capabilities()))) {
                throw new IllegalArgumentException(at + "does not allow the capabilities its run_started (" + unit + " "
                        + start + ") claims: " + started.capabilities());
            }
            if (outputSha256 != null && !outputSha256.equals(ended.outputSha256())) {
                throw new IllegalArgumentException(at + "records another output digest than the run's output event");
            }
        }

        /** The run's number in its sandbox. */
        public long number() {
            return started.run();
        }

        public RunStarted started() {
            return started;
        }

        /** The run-ended event, which seals the run (every run of a recording has one). */
        public RunEnded ended() {
            return ended;
        }

        /** Every event of the run, in log order. */
        public List<AuditEvent> events() {
            return java.util.Collections.unmodifiableList(events);
        }

        /** The log position of {@code events().get(i)}. */
        public long eventNumber(int i) {
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
            return wall.valueAt(read, started.clockMillis());
        }

        /** {@code os.clock} at read {@code read} (from 1), in nanoseconds: the latest change at or before it, else 0. */
        public long cpuClockNanos(long read) {
            return cpu.valueAt(read, 0);
        }
    }
}
