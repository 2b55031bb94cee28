package dev.luavm;

/**
 * A run ended by a limit or by cancellation. Gas, time, output, audit and cancellation end the run at
 * once: {@code pcall} cannot catch them and no Lua code runs afterwards. Memory and depth are
 * ordinary Lua errors inside the script ({@code not enough memory}, {@code stack overflow},
 * catchable as in PUC); only when nothing catches them do they surface here.
 */
public class LuaLimitException extends LuaException {
    /** Which limit ended the run. */
    public enum Limit {
        /** The sandbox's gas budget is spent (for good: later runs end the same way). */
        GAS("gas"),
        /** The script's memory would exceed the cap. */
        MEMORY("memory"),
        /** The run's wall-clock time is up. */
        TIME("time"),
        /** The run wrote more than its output limit. */
        OUTPUT("output"),
        /** Calls nested deeper than the call-depth limit. */
        DEPTH("depth"),
        /** {@link Sandbox#cancel()} ended the run. */
        CANCELLED("cancelled"),
        /**
         * The run's audit log is full: it wrote {@link Limits#auditEvents()} events, or its sink
         * reports its budget spent ({@link dev.luavm.audit.AuditSink#full()}).
         */
        AUDIT("audit");

        /** the lower-case name used in messages and on the command line */
        public final String label;

        Limit(String label) {
            this.label = label;
        }
    }

    /** which limit ended the run */
    private final Limit limit;

    LuaLimitException(Limit limit) {
        this(limit, null);
    }

    LuaLimitException(Limit limit, Throwable cause) {
        super(messageFor(limit), cause);
        this.limit = limit;
    }

    /** Which limit ended the run. */
    public Limit limit() {
        return limit;
    }

    /** "gas limit exceeded", ..., "audit limit exceeded", "run cancelled". */
    public static String messageFor(Limit limit) {
        return limit == Limit.CANCELLED ? "run cancelled" : limit.label + " limit exceeded";
    }
}
