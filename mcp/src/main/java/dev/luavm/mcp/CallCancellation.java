package dev.luavm.mcp;

/**
 * The cancellation of one tool call ({@code notifications/cancelled}, or the server giving up on
 * its output). Whoever runs the call registers what ends it ({@link #onCancel}) while it can be
 * ended, and clears that when it no longer can; a cancel that comes before is remembered, so the
 * call does not start. Any thread.
 */
final class CallCancellation {
    private boolean cancelled;
    private Runnable action;

    /** Cancels: runs the registered action, once. */
    synchronized void cancel() {
        if (cancelled) return;
        cancelled = true;
        if (action != null) action.run();
    }

    synchronized boolean cancelled() {
        return cancelled;
    }

    /** Registers what ends the call; false (nothing registered) when it is cancelled already. */
    synchronized boolean onCancel(Runnable end) {
        if (cancelled) return false;
        action = end;
        return true;
    }

    /** The call can no longer be ended: forget the action. */
    synchronized void clear() {
        action = null;
    }
}
