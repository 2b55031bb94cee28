package dev.luavm;

import java.time.Duration;
import java.util.Objects;

/**
 * The resource limits of a sandbox run. Immutable; every limit is finite by default, and the
 * only way to lift them all is {@link #unlimited()}, named so that it stands out in review.
 *
 * <ul>
 *   <li>{@code gas}: VM instructions and library work units over a sandbox's life (see {@code OpCode.gas});</li>
 *   <li>{@code runGas}: gas one run may use (default: no limit beyond {@code gas}), for hosts
 *       whose sandbox lives through many runs (a REPL, an MCP session) and want each bounded;</li>
 *   <li>{@code memoryBytes}: what the script may hold at once (live Lua heap, deterministic estimate);</li>
 *   <li>{@code callDepth}: Lua call frames; beyond it a catchable "stack overflow" error;</li>
 *   <li>{@code outputBytes}: bytes {@code print} may write per run; beyond it the run ends;</li>
 *   <li>{@code timeout}: wall-clock time per run;</li>
 *   <li>{@code sourceBytes}: largest chunk accepted by eval/compile/load;</li>
 *   <li>{@code auditEvents}: events one run may write to its audit log (beyond them the run ends
 *       with {@code AUDIT}); no effect without an audit sink.</li>
 * </ul>
 * Syntactic nesting is not a limit here: every compilation stops at PUC's 200 "C levels" with
 * PUC's message ({@code too many C levels (limit is 200)}), which also bounds the compiler's use
 * of the Java stack. {@code parseDepth} is a leftover that nothing reads (deprecated).
 * Serializable (plain numbers and a {@link Duration}), so a job can ship them to other machines
 * with the script's source (the Spark module does).
 */
public final class Limits implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Default gas for a sandbox's life: 100,000,000 units. */
    public static final long DEFAULT_GAS = 100_000_000L;
    /** Default cap on the memory a script holds: 64 MiB. */
    public static final long DEFAULT_MEMORY = 64L << 20;
    /** Default depth of nested Lua calls. */
    public static final int DEFAULT_CALL_DEPTH = 200_000;
    /** Default output per run: 1 MiB. */
    public static final long DEFAULT_OUTPUT = 1L << 20;
    /** Default wall-clock time per run: 10 seconds. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Default largest chunk accepted: 16 MiB of source. */
    public static final long DEFAULT_SOURCE = 16L << 20;
    /** Default syntactic nesting: 200 levels, as PUC-Rio Lua. */
    public static final int DEFAULT_PARSE_DEPTH = 200;
    /** Default audit events per run: 100,000 (the run's end not counted). */
    public static final long DEFAULT_AUDIT_EVENTS = 100_000L;

    private final long gas;
    private final long memoryBytes;
    private final int callDepth;
    private final long outputBytes;
    private final Duration timeout;
    private final long sourceBytes;
    private final int parseDepth;
    private final long runGas;
    private final long auditEvents;

    private Limits(long gas, long memoryBytes, int callDepth, long outputBytes, Duration timeout,
                   long sourceBytes, int parseDepth, long auditEvents) {
        this(gas, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, parseDepth, Long.MAX_VALUE, auditEvents);
    }

    private Limits(long gas, long memoryBytes, int callDepth, long outputBytes, Duration timeout,
                   long sourceBytes, int parseDepth, long runGas, long auditEvents) {
        if (gas <= 0) throw new IllegalArgumentException("gas must be positive: " + gas);
        if (runGas <= 0) throw new IllegalArgumentException("gas per run must be positive: " + runGas);
        if (memoryBytes <= 0) throw new IllegalArgumentException("memory must be positive: " + memoryBytes);
        if (callDepth < 10) throw new IllegalArgumentException("call depth must be at least 10: " + callDepth);
        if (outputBytes < 0) throw new IllegalArgumentException("output must not be negative: " + outputBytes);
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive: " + timeout);
        if (sourceBytes <= 0) throw new IllegalArgumentException("source size must be positive: " + sourceBytes);
        if (parseDepth < 1) throw new IllegalArgumentException("parse depth must be positive: " + parseDepth);
        if (auditEvents <= 0) throw new IllegalArgumentException("audit events must be positive: " + auditEvents);
        this.gas = gas;
        this.memoryBytes = memoryBytes;
        this.callDepth = callDepth;
        this.outputBytes = outputBytes;
        this.timeout = timeout;
        this.sourceBytes = sourceBytes;
        this.parseDepth = parseDepth;
        this.runGas = runGas;
        this.auditEvents = auditEvents;
    }

    /**
     * A deserialized copy passes the constructor's checks like any other (limits written before
     * the audit bound existed read with its default).
     */
    private Object readResolve() {
        return new Limits(gas, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, parseDepth, runGas,
                auditEvents == 0 ? DEFAULT_AUDIT_EVENTS : auditEvents);
    }

    /** Finite defaults suitable for untrusted scripts. */
    public static Limits defaults() {
        return new Limits(DEFAULT_GAS, DEFAULT_MEMORY, DEFAULT_CALL_DEPTH, DEFAULT_OUTPUT, DEFAULT_TIMEOUT,
                DEFAULT_SOURCE, DEFAULT_PARSE_DEPTH, DEFAULT_AUDIT_EVENTS);
    }

    /**
     * No practical limit on gas, memory, output, time or audit events (the call depth and parse depth stay
     * finite: they protect the host, not the budget). For trusted code and benchmarks only.
     */
    public static Limits unlimited() {
        return new Limits(Long.MAX_VALUE, Long.MAX_VALUE / 4, 1_000_000, Long.MAX_VALUE,
                Duration.ofDays(365_000), Integer.MAX_VALUE, DEFAULT_PARSE_DEPTH, Long.MAX_VALUE);
    }

    /** These limits with gas {@code v} for the sandbox's life. */
    public Limits withGas(long v) { return new Limits(v, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, parseDepth, runGas, auditEvents); }
    /** These limits with a memory cap of {@code v} bytes. */
    public Limits withMemory(long v) { return new Limits(gas, v, callDepth, outputBytes, timeout, sourceBytes, parseDepth, runGas, auditEvents); }
    /** These limits with {@code v} levels of nested calls (at least 10). */
    public Limits withCallDepth(int v) { return new Limits(gas, memoryBytes, v, outputBytes, timeout, sourceBytes, parseDepth, runGas, auditEvents); }
    /** These limits with {@code v} bytes of output per run. */
    public Limits withOutput(long v) { return new Limits(gas, memoryBytes, callDepth, v, timeout, sourceBytes, parseDepth, runGas, auditEvents); }
    /** These limits with {@code v} of wall-clock time per run. */
    public Limits withTimeout(Duration v) { return new Limits(gas, memoryBytes, callDepth, outputBytes, v, sourceBytes, parseDepth, runGas, auditEvents); }
    /** These limits accepting chunks of up to {@code v} bytes. */
    public Limits withSourceBytes(long v) { return new Limits(gas, memoryBytes, callDepth, outputBytes, timeout, v, parseDepth, runGas, auditEvents); }
    /**
     * A copy carrying {@code v} as {@link #parseDepth()}, which nothing reads: nesting is always
     * bounded at PUC's 200 C levels (see the class comment).
     *
     * @deprecated has no effect; kept so that code and serialized limits that set it still load
     */
    @Deprecated
    public Limits withParseDepth(int v) { return new Limits(gas, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, v, runGas, auditEvents); }

    /**
     * These limits with at most {@code v} gas per run (on top of the sandbox's life budget
     * {@link #gas()}): a run that uses it up ends with GAS, and the next run gets {@code v} again
     * while the life budget lasts.
     */
    public Limits withRunGas(long v) { return new Limits(gas, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, parseDepth, v, auditEvents); }

    /**
     * These limits with at most {@code v} audit events per run (default
     * {@value #DEFAULT_AUDIT_EVENTS}). The run's last event ({@code RunEnded}) and the clock
     * reads still pending at its end are not refused; any other event past the bound ends the
     * run with {@code LuaLimitException(AUDIT)} instead of being written. A host call asks for
     * room for all of its events before it begins, so a call is never cut from the log.
     */
    public Limits withAuditEvents(long v) { return new Limits(gas, memoryBytes, callDepth, outputBytes, timeout, sourceBytes, parseDepth, runGas, v); }

    /** Gas for the sandbox's life. */
    public long gas() { return gas; }
    /** Gas per run ({@code Long.MAX_VALUE}: no limit beyond {@link #gas()}). */
    public long runGas() { return runGas; }
    /** The cap on the memory the script holds, in bytes. */
    public long memoryBytes() { return memoryBytes; }
    /** The depth of nested calls. */
    public int callDepth() { return callDepth; }
    /** Output bytes per run. */
    public long outputBytes() { return outputBytes; }
    /** Wall-clock time per run. */
    public Duration timeout() { return timeout; }
    /** The largest chunk accepted, in bytes. */
    public long sourceBytes() { return sourceBytes; }
    /**
     * The value given to {@link #withParseDepth} (default 200); nothing reads it.
     *
     * @deprecated nesting is always bounded at PUC's 200 C levels (see the class comment)
     */
    @Deprecated
    public int parseDepth() { return parseDepth; }
    /** Audit events per run ({@code Long.MAX_VALUE}: no bound). */
    public long auditEvents() { return auditEvents; }

    @Override
    public String toString() {
        return "Limits[gas=" + gas + ", memory=" + memoryBytes + ", callDepth=" + callDepth + ", output=" + outputBytes
                + ", timeout=" + timeout + ", source=" + sourceBytes + ", parseDepth=" + parseDepth
                + (runGas == Long.MAX_VALUE ? "" : ", runGas=" + runGas)
                + (auditEvents == Long.MAX_VALUE ? "" : ", auditEvents=" + auditEvents) + "]";
    }
}
