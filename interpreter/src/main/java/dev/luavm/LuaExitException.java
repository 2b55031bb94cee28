package dev.luavm;

/**
 * The script called {@code os.exit(code)} (granted with the {@code os.exit} bundle): the run
 * ended there, as final as a limit ({@code pcall} cannot catch it, no Lua code runs after it),
 * and the host decides what the status means. The JVM is never exited; the command line exits
 * with {@link #status()}. The sandbox stays usable for later runs.
 */
public final class LuaExitException extends LuaException {
    private final int status;

    LuaExitException(int status) {
        super("exit " + status, null);
        this.status = status;
    }

    /** The status the script asked for: {@code os.exit(true)} and {@code os.exit()} are 0, {@code false} is 1. */
    public int status() {
        return status;
    }
}
