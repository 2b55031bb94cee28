package dev.luavm;

/**
 * A snapshot could not be taken or restored ({@link Sandbox#snapshot()}, {@link LuaVM#restore},
 * {@link LuaVM#resume}, {@link Sandbox.Builder#restoreFrom}): the state holds something a
 * snapshot cannot carry (a host object, a function made without its source), a run is in
 * progress, the bytes are not a snapshot this runtime reads (another format version, damaged,
 * malformed or hostile), they need a grant the new capabilities lack (the message names it), or
 * a paused run's resume token was used already. The message says which; it never carries the
 * snapshot's bytes. A valid snapshot that does not fit the new limits is a
 * {@link LuaLimitException} instead (MEMORY, DEPTH, or GAS and TIME for the work of restoring).
 */
public final class LuaSnapshotException extends LuaException {
    LuaSnapshotException(String message) {
        super(message, null);
    }

    LuaSnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
