package dev.luavm.snapshot;

/**
 * Why a snapshot cannot be written or read; the API turns it into a
 * {@code LuaSnapshotException} carrying the same message. Carries no stack trace: it reports
 * bytes from outside, not a bug.
 */
public final class SnapshotProblem extends RuntimeException {
    public SnapshotProblem(String message) {
        super(message, null, false, false);
    }
}
