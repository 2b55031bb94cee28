package dev.luavm;

/**
 * A run ended by a limit or by cancellation. Gas, time, output and cancellation end the run at
 * once: {@code pcall} cannot catch them and no Lua code runs afterwards. Memory and depth are
 * ordinary Lua errors inside the script ({@code not enough memory}, {@code stack overflow},
 * catchable as in PUC); only when nothing catches them do they surface here.
 */
public class LuaLimitException extends LuaException {
    /** Which limit ended the run. */
    public enum Limit {
        GAS("gas"), MEMORY("memory"), TIME("time"), OUTPUT("output"), DEPTH("depth"), CANCELLED("cancelled");

        /** the lower-case name used in messages and on the command line */
        public final String label;

        Limit(String label) {
            this.label = label;
        }
    }

    private final Limit limit;

    public LuaLimitException(Limit limit) {
        this(limit, null);
    }

    public LuaLimitException(Limit limit, Throwable cause) {
        super(messageFor(limit), cause);
        this.limit = limit;
    }

    public Limit limit() {
        return limit;
    }

    /** "gas limit exceeded", ..., "run cancelled". */
    public static String messageFor(Limit limit) {
        return limit == Limit.CANCELLED ? "run cancelled" : limit.label + " limit exceeded";
    }
}
