package dev.luavm.host;


import java.time.Duration;
import java.util.List;

/**
 * A read-only view of one call from Lua into a host function, as a {@link HostCallPolicy} and an
 * {@link Operator} see it: who calls (sandbox), what (the grant and its converted arguments),
 * when (call number and elapsed time in the run) and from where (chunk and line of the calling
 * Lua code).
 *
 * <p>The arguments are the ones the function will receive. A view handed to an operator is a
 * snapshot: it may be read on any thread, after the call too.
 */
public interface CallRequest {
    /** The name of the sandbox making the call. */
    String sandboxName();

    /** The grant called: its dotted name, safety class, parameters, effects. */
    HostGrant grant();

    /** The dotted name the function was granted under ({@code "payments.refund"}). */
    default String name() {
        return grant().path();
    }

    /** The arguments converted to Java (nil is null); unmodifiable. */
    List<Object> args();

    /** Argument {@code i} (0-based), null when absent. */
    default Object arg(int i) {
        List<Object> a = args();
        return i < a.size() ? a.get(i) : null;
    }

    /** The argument of the declared parameter {@code name}, null when absent or not declared. */
    default Object arg(String param) {
        List<Param> ps = grant().params();
        for (int i = 0; i < ps.size(); i++) {
            if (ps.get(i).name().equals(param)) return arg(i);
        }
        return null;
    }

    /** This call's number among the run's host calls, from 1 (the audit log's sequence number). */
    long callNumber();

    /** Calls of this same function that ran earlier in this run (for quotas). */
    long previousCallsThisRun();

    /** Calls of this same function that ran earlier in this sandbox's life, all runs (for quotas). */
    long previousCallsThisSandbox();

    /** Wall-clock time since the run started. */
    Duration elapsed();

    /** The chunk of the Lua code making the call ({@code "invoice.lua"}), or null when not called from Lua. */
    String chunk();

    /** The line of the Lua code making the call, or -1 when unknown. */
    int line();
}
