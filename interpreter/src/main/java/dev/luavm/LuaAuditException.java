package dev.luavm;

import dev.luavm.audit.AuditEvent;

/**
 * The run was stopped because its audit log could not be written: the
 * {@link dev.luavm.audit.AuditSink} threw (its exception is the cause). The log fails closed:
 * when the run-started event cannot be written the script does not start; when a host-call
 * event cannot be written no more Lua code or host function runs ({@code pcall} cannot catch
 * this). The function of that call did run: {@link #event()} is the event that was not written,
 * for the host to record some other way.
 */
public class LuaAuditException extends LuaException {
    private final transient AuditEvent event;

    /**
     * For the runtime's audit trail (public only because it lives in another package).
     *
     * @param event the event that could not be written
     * @param cause what the sink threw
     */
    public LuaAuditException(AuditEvent event, Throwable cause) {
        super("audit log failed (" + (cause == null ? "unknown" : cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + LuaScriptException.bound(cause.getMessage())))
                + "); the run was stopped", cause);
        this.event = event;
    }

    /** The event the sink failed to write, or null. */
    public AuditEvent event() {
        return event;
    }
}
