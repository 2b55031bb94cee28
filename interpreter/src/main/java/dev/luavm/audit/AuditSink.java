package dev.luavm.audit;

/**
 * Where a sandbox's audit events go: {@link MemoryAuditSink}, the JSON Lines file of the
 * {@code luavm-audit-jsonl} module, or the host's own (a database, a message queue).
 *
 * <p>The log fails closed: when {@link #write} throws, nothing more of the run happens (no Lua
 * code, no host function) and the run ends with {@link dev.luavm.LuaAuditException}, carrying
 * the event that could not be written. A sink that returns normally has taken responsibility for
 * the event. Called on the running sandbox's thread, one event at a time per sandbox; a sink
 * shared by several sandboxes must be thread-safe. Keep it quick: it runs on every host call.
 */
@FunctionalInterface
public interface AuditSink {
    /**
     * Records one event.
     *
     * @param event the event, immutable
     * @throws Exception the event could not be recorded: the run stops (fails closed)
     */
    void write(AuditEvent event) throws Exception;

    /**
     * True when the sink has spent the budget its host gave it (an in-memory sink's bytes, a
     * file's quota). The runtime asks before a run starts, before each host call and before each
     * event a script causes: a full sink ends the run with the {@code AUDIT} limit
     * ({@link dev.luavm.LuaLimitException.Limit#AUDIT}) instead of writing more. Events already
     * under way (the host call that was allowed to begin, the run's end) are still written, so a
     * budget is passed by at most those. Default: never full.
     */
    default boolean full() {
        return false;
    }
}
