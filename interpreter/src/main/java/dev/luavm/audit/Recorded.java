package dev.luavm.audit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The recording's full-value channel: what entered the sandbox, in full, so that a
 * {@link dev.luavm.replay.Replayer} can run the script again without the host. Written only by a
 * sandbox built with {@code Sandbox.Builder.record(true)}, interleaved with the other events of
 * its run: {@link Kind#SOURCE}, {@link Kind#INPUTS}, {@link Kind#ZONE} and any {@link Kind#GLOBAL}
 * right after {@link RunStarted}; {@link Kind#HOST_RESULTS} or {@link Kind#HOST_ERROR} right after each
 * {@link HostCallEvent} (same {@code seq}); {@link Kind#MODULE} when {@code require} gets a module's source from the host; {@link Kind#OUTPUT} just before {@link RunEnded}.
 *
 * <p>Unlike the other events, values here are not bounded: a host result of 1 MB is recorded as
 * 1 MB. They are still passed through the grant's {@link dev.luavm.host.Redactor}: a secret a
 * redactor hides never reaches the log, and {@link #redacted()} says so; a replay then gives the
 * script the redacted value, and reports a divergence if the script's behaviour depended on it.
 * Run inputs and the source are recorded as given (no redactor applies to them).
 *
 * @param seq      the host call's number ({@code HOST_*}), the input read's number ({@code STDIN}), else 0
 * @param values   the values; may hold null (nil)
 * @param redacted true when the redactor changed any of {@code values}
 */
public record Recorded(String sandbox, long run, Kind kind, long seq, List<Object> values, boolean redacted)
        implements AuditEvent {
    /** What a recorded event holds. */
    public enum Kind {
        /** values: the chunk's load name ({@code "@script.lua"}, {@code "=input"}), the source (a String when UTF-8, else byte[]); not written for a call */
        SOURCE,
        /** values: the run's arguments, as the host passed them */
        INPUTS,
        /** values: the time zone id of the sandbox's clock ({@code os.date} without '!') */
        ZONE,
        /** values: a global's name and value, as the host set it ({@code Sandbox.setGlobal}) since the previous run */
        GLOBAL,
        /** values: what the host function returned (after the grant's redactor) */
        HOST_RESULTS,
        /** values: the Lua error message the call raised (refused, or the function failed) */
        HOST_ERROR,
        /** values: a module name {@code require} asked the host for, and the source it got (null: none) */
        MODULE,
        /** values: hex SHA-256 of the run's output bytes, and their count */
        OUTPUT,
        /**
         * values: bytes the host-given input stream ({@code io.read}, {@code io.lines}) delivered,
         * in order ({@code seq} 1, 2, ...); at each run's start one with {@code seq} 0 and no values
         * says the sandbox has an input stream at all
         */
        STDIN
    }

    public Recorded {
        values = Collections.unmodifiableList(new ArrayList<>(values)); // nil is a value here
    }
}
