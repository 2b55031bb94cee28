package dev.luavm.replay;

import dev.luavm.audit.AuditEvent;
import dev.luavm.audit.AuditSink;
import dev.luavm.audit.ClockReadings;
import dev.luavm.audit.HostCallEvent;
import dev.luavm.audit.Recorded;
import dev.luavm.audit.RunEnded;
import dev.luavm.audit.RunStarted;

import java.util.List;
import java.util.Objects;

/**
 * The replay sandbox's audit sink: checks each event the replay writes against the next one of
 * the recording and, at the first difference, keeps the {@link Divergence} and throws, which
 * ends the replayed run at once (the log fails closed). Data the replay took from the recording
 * (source, inputs, zone, host results) is not compared; what the script did with it is.
 */
final class EventComparator implements AuditSink {
    /** thrown to stop the replayed run at a divergence */
    static final class Diverged extends Exception {
        Diverged() {
            super("replay diverged", null, false, false);
        }
    }

    private final boolean declared;
    private final String unit;
    private Recording.Run run;
    private boolean sourceReplaced;
    private int cursor;
    private Divergence divergence;

    /** @param declared the replay has the original declarations (verdicts and reasons are then compared too) */
    EventComparator(boolean declared, String unit) {
        this.declared = declared;
        this.unit = unit;
    }

    void startRun(Recording.Run run, boolean sourceReplaced) {
        this.run = run;
        this.sourceReplaced = sourceReplaced;
        this.cursor = 0;
    }

    Divergence divergence() {
        return divergence;
    }

    /** After the run: a recorded event the replay never wrote is a divergence too. */
    void finishRun() {
        if (divergence != null) return;
        int i = nextExpected();
        if (i < run.events().size()) diverge(i, describe(run.events().get(i)), "the run ended");
    }

    /** The replay's own run-ended events, in order. */
    List<RunEnded> ends() {
        return List.copyOf(ends);
    }

    private final List<RunEnded> ends = new java.util.ArrayList<>();

    @Override
    public void write(AuditEvent got) throws Diverged {
        if (got instanceof RunEnded e) ends.add(e);
        if (divergence != null) return; // the run is being stopped: its last events are not compared
        if (skipped(got)) return;
        int i = nextExpected();
        if (i >= run.events().size()) {
            diverge(i, "the run's end", describe(got));
            throw new Diverged();
        }
        AuditEvent want = run.events().get(i);
        cursor = i + 1;
        String field = difference(want, got);
        if (field != null) {
            divergence = new Divergence(run.number(), run.eventNumber(i), describe(want) + (field.isEmpty() ? "" : ": " + field),
                    value(want, field), value(got, field), unit);
            throw new Diverged();
        }
    }

    private int nextExpected() {
        int i = cursor;
        List<AuditEvent> events = run.events();
        while (i < events.size() && skipped(events.get(i))) i++;
        return i;
    }

    /** Data that entered the sandbox from the recording: the replay's copy proves nothing. */
    private static boolean skipped(AuditEvent e) {
        if (!(e instanceof Recorded r)) return false;
        return switch (r.kind()) {
            case SOURCE, INPUTS, ZONE, GLOBAL, MODULE, HOST_RESULTS, HOST_ERROR, STDIN -> true;
            case OUTPUT -> false;
        };
    }

    private void diverge(int i, String expected, String got) {
        long number = i < run.events().size() ? run.eventNumber(i)
                : run.eventNumber(run.events().size() - 1) + 1;
        divergence = new Divergence(run.number(), number, i < run.events().size() ? describe(run.events().get(i)) : "after the run",
                expected, got, unit);
    }

    /** Replaces the divergence, if any, with the replay's ceiling stopping it in the current run: where the run was to end. */
    void ceiling(String what, String got) {
        int last = run.events().size() - 1;
        divergence = new Divergence(run.number(), run.eventNumber(last), what, describe(run.events().get(last)), got, unit);
    }

    /** null when {@code got} reproduces {@code want}; else the name of the first field that differs ("" for the event's kind). */
    private String difference(AuditEvent want, AuditEvent got) {
        if (want.getClass() != got.getClass()) return "";
        if (want instanceof RunStarted w && got instanceof RunStarted g) {
            if (!w.kind().equals(g.kind())) return "kind";
            if (!Objects.equals(w.chunk(), g.chunk())) return "chunk";
            if (!sourceReplaced && !Objects.equals(w.sourceSha256(), g.sourceSha256())) return "sourceSha256";
            if (!Objects.equals(w.inputsDigest(), g.inputsDigest())) return "inputsDigest";
            if (w.randomSeed() != g.randomSeed()) return "randomSeed";
            return null;
        }
        if (want instanceof ClockReadings w && got instanceof ClockReadings g) {
            if (w.clock() != g.clock()) return "";
            if (!java.util.Arrays.equals(w.reads(), g.reads())) return "reads";
            return java.util.Arrays.equals(w.values(), g.values()) ? null : "values";
        }
        if (want instanceof HostCallEvent w && got instanceof HostCallEvent g) {
            if (w.seq() != g.seq()) return "seq";
            if (!w.function().equals(g.function())) return "function";
            if (!Normalized.of(w.args()).equals(Normalized.of(g.args()))) return "args";
            if (w.gas() != g.gas()) return "gas";
            if (declared) {
                if (w.verdict() != g.verdict()) return "verdict";
                if (!Objects.equals(w.reason(), g.reason())) return "reason";
                if (w.outcome() != g.outcome() && !endedAlike(w.outcome(), g.outcome())) return "outcome";
            } else if ((w.outcome() == HostCallEvent.Outcome.RETURNED) != (g.outcome() == HostCallEvent.Outcome.RETURNED)) {
                return "outcome";
            }
            if (w.outcome() != HostCallEvent.Outcome.RUN_ENDED && !Objects.equals(w.error(), g.error())) return "error";
            return null;
        }
        if (want instanceof Recorded w && got instanceof Recorded g) {
            if (w.kind() != g.kind()) return "";
            if (w.seq() != g.seq()) return "seq";
            if (!Normalized.of(w.values()).equals(Normalized.of(g.values()))) return "bytes";
            return null;
        }
        RunEnded w = (RunEnded) want;
        RunEnded g = (RunEnded) got;
        if (stoppedFromOutside(w)) {
            // a run the host stopped (time limit, cancel) is reproduced by stopping it at the same call
            return stoppedFromOutside(g) ? null : "outcome";
        }
        if (w.outcome() != g.outcome()) return "outcome";
        if (!Objects.equals(w.limit(), g.limit())) return "limit";
        if (!Objects.equals(w.error(), g.error())) return "error";
        if (!Objects.equals(w.resultDigest(), g.resultDigest())) return "resultDigest";
        if (w.usage() != null && g.usage() != null) {
            if (w.usage().gas() != g.usage().gas()) return "gas";
            if (w.usage().outputBytes() != g.usage().outputBytes()) return "outputBytes";
        }
        if (w.hostCalls() != g.hostCalls()) return "hostCalls";
        if (!Objects.equals(w.outputSha256(), g.outputSha256())) return "outputSha256";
        return w.events() != g.events() ? "events" : null;
    }

    private static boolean stoppedFromOutside(RunEnded e) {
        return e.outcome() == RunEnded.Outcome.CANCELLED
                || e.outcome() == RunEnded.Outcome.LIMIT && "time".equals(e.limit());
    }

    private static boolean endedAlike(HostCallEvent.Outcome a, HostCallEvent.Outcome b) {
        return a == HostCallEvent.Outcome.RUN_ENDED && b == HostCallEvent.Outcome.RUN_ENDED;
    }

    /** One event in a few words, for messages. */
    static String describe(AuditEvent e) {
        if (e instanceof RunStarted s) return "run_started " + s.chunk();
        if (e instanceof HostCallEvent h) return "host call #" + h.seq() + " " + h.function();
        if (e instanceof ClockReadings c) {
            return (c.clock() == ClockReadings.Kind.WALL ? "clock" : "os.clock") + " reads #" + c.firstRead()
                    + (c.size() > 1 ? "..#" + c.lastRead() : "");
        }
        if (e instanceof Recorded r) return r.kind() == Recorded.Kind.OUTPUT ? "output" : r.kind().name().toLowerCase();
        RunEnded r = (RunEnded) e;
        return "run_ended " + r.outcome();
    }

    /** The value of {@code field} in {@code e}, for messages. */
    private static String value(AuditEvent e, String field) {
        if (field.isEmpty()) return describe(e);
        Object v;
        if (e instanceof RunStarted s) {
            v = switch (field) {
                case "kind" -> s.kind();
                case "chunk" -> s.chunk();
                case "sourceSha256" -> s.sourceSha256();
                case "inputsDigest" -> s.inputsDigest();
                default -> s.randomSeed();
            };
        } else if (e instanceof ClockReadings c) {
            v = java.util.Arrays.toString(field.equals("reads") ? c.reads() : c.values());
        } else if (e instanceof HostCallEvent h) {
            v = switch (field) {
                case "seq" -> h.seq();
                case "function" -> h.function();
                case "args" -> Normalized.of(h.args());
                case "gas" -> h.gas();
                case "verdict" -> h.verdict();
                case "reason" -> h.reason();
                case "outcome" -> h.outcome();
                default -> h.error();
            };
        } else if (e instanceof Recorded r) {
            if (field.equals("seq")) v = r.seq();
            else if (r.kind() == Recorded.Kind.OUTPUT) v = r.values().get(1) + " bytes, sha256 " + r.values().get(0);
            else v = r.values().get(0);
        } else {
            RunEnded r = (RunEnded) e;
            v = switch (field) {
                case "outcome" -> r.outcome() + (r.limit() != null ? " (" + r.limit() + ")" : "");
                case "limit" -> r.limit();
                case "error" -> r.error();
                case "resultDigest" -> r.resultDigest();
                case "gas" -> r.usage().gas();
                case "outputBytes" -> r.usage().outputBytes();
                case "outputSha256" -> r.outputSha256();
                case "events" -> r.events();
                default -> r.hostCalls();
            };
        }
        return String.valueOf(v);
    }
}
