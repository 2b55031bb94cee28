package dev.luavm.replay;

/**
 * Where a replay first did something other than the recording, or where its ceiling stopped it
 * before the recorded end.
 *
 * @param run      the run's number in its sandbox
 * @param event    the recorded event's position in the log (from 1), the one the replay did not reproduce
 * @param what     the event and the field that differ ({@code "host call #2 payments.refund: args"})
 * @param expected what the recording says
 * @param got      what the replay did
 * @param unit     what {@code event} counts: {@code "event"} (a list of events) or {@code "line"} (a file)
 */
public record Divergence(long run, long event, String what, String expected, String got, String unit) {
    /** A divergence counted in events. */
    public Divergence(long run, long event, String what, String expected, String got) {
        this(run, event, what, expected, got, "event");
    }

    @Override
    public String toString() {
        return "divergence at " + unit + " " + event + " (run " + run + ", " + what + "): expected " + expected + ", got " + got;
    }
}
