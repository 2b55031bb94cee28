package dev.luavm.vm;

/**
 * The end of a sandbox run imposed from outside the script: gas exhausted, wall-clock deadline
 * passed, cancelled by the host, an output or audit limit reached (VM rules 1 and 5), or {@code os.exit}.
 *
 * <p>Deliberately not a {@link LuaError}: {@code pcall}, {@code xpcall},
 * {@code coroutine.resume} and error handlers never see it, and no Lua code runs after it is
 * thrown. Stack overflow and out-of-memory are <em>not</em> terminations: they are catchable Lua
 * errors, as in PUC. Carries no Java stack trace.
 */
public final class LuaTermination extends RuntimeException {
    /** Why the run ended. */
    public enum Reason {
        /** the gas budget is spent */
        GAS,
        /** the wall-clock deadline passed */
        TIME,
        /** the host called cancel */
        CANCELLED,
        /** the host's output limit was reached */
        OUTPUT,
        /** the run's audit log is full (its event bound, or its sink's budget) */
        AUDIT,
        /** the script called {@code os.exit} (the host holds the status) */
        EXIT
    }

    private final Reason reason;

    public LuaTermination(Reason reason) {
        super(messageFor(reason), null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    private static String messageFor(Reason r) {
        return switch (r) {
            case GAS -> "gas limit exceeded";
            case TIME -> "time limit exceeded";
            case CANCELLED -> "cancelled";
            case OUTPUT -> "output limit exceeded";
            case AUDIT -> "audit limit exceeded";
            case EXIT -> "exit";
        };
    }
}
