package dev.luavm.replay;

/**
 * Where a replay first did something other than the recording.
 *
 * @param run      the run's number in its sandbox
 * @param event    the recorded event's position in the log (from 1), the one the replay did not reproduce
 * @param what     the event and the field that differ ({@code "host call #2 payments.refund: args"})
 * @param expected what the recording says
 * @param got      what the replay did
 */
public record Divergence(long run, long event, String what, String expected, String got) {
    @Override
    public String toString() {
        return "divergence at event " + event + " (run " + run + ", " + what + "): expected " + expected + ", got " + got;
    }
}
