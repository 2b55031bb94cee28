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
 */
public record ReplayResult(Divergence divergence, int runs, List<String> notes, List<RunEnded> ended) {
    public ReplayResult {
        notes = List.copyOf(notes);
        ended = List.copyOf(ended);
    }

    public boolean identical() {
        return divergence == null;
    }

    @Override
    public String toString() {
        return identical() ? "identical (" + runs + (runs == 1 ? " run)" : " runs)") : divergence.toString();
    }
}
