package dev.luavm.replay;

import dev.luavm.audit.RunEnded;

import java.util.List;

/**
 * What a replay found: identical (same output, results, error and gas in every run, and the
 * same host calls, clock reads and run endings in the same order) or the first divergence.
 *
 * @param divergence the first divergence, or null when identical
 * @param runs       how many recorded runs were replayed (to the end or to the divergence)
 * @param notes      remarks that do not make a divergence (a replaced source, redacted results fed back)
 * @param ended      the replay's own run-ended events (outcome, error, result digest, usage with gas), in order
 * @param ceiling    the replay's ceiling that stopped it before the recorded end ({@code "gas: 1000000000"},
 *                   {@code "time: 60s"}, {@code "memory: ... bytes"}), else null; then {@code divergence}
 *                   says where
 */
public record ReplayResult(Divergence divergence, int runs, List<String> notes, List<RunEnded> ended, String ceiling) {
    public ReplayResult {
        notes = List.copyOf(notes);
        ended = List.copyOf(ended);
    }

    /** A result no ceiling stopped. */
    public ReplayResult(Divergence divergence, int runs, List<String> notes, List<RunEnded> ended) {
        this(divergence, runs, notes, ended, null);
    }

    public boolean identical() {
        return divergence == null;
    }

    @Override
    public String toString() {
        if (identical()) return "identical (" + runs + (runs == 1 ? " run)" : " runs)");
        if (ceiling != null) {
            return "stopped by the replay's ceiling (" + ceiling + ") in run " + divergence.run() + ", before the recorded end ("
                    + divergence.expected() + " at " + divergence.unit() + " " + divergence.event() + ")";
        }
        return divergence.toString();
    }
}
