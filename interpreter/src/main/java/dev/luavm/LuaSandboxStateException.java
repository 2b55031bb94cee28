package dev.luavm;

/**
 * The sandbox cannot do what was asked now: it is closed, another thread is running it, it was
 * called again from inside its own run (a host function calling back into its sandbox), or it
 * was made unusable by a fault of the runtime itself. Nothing of the script ran.
 */
public class LuaSandboxStateException extends LuaException {
    /** Why the sandbox refused. */
    public enum Reason {
        /** {@link Sandbox#close()} was called. */
        CLOSED,
        /** Another thread is in a run of this sandbox. */
        BUSY,
        /** The calling thread is itself inside a run of this sandbox (from a host function). */
        REENTRANT,
        /** A Java error escaped the VM during an earlier run; the sandbox refuses to run again. */
        BROKEN
    }

    /** why the sandbox refused */
    private final Reason reason;

    LuaSandboxStateException(Reason reason, String message) {
        super(message, null);
        this.reason = reason;
    }

    /**
     * Why the sandbox refused.
     *
     * @return the reason
     */
    public Reason reason() {
        return reason;
    }
}
