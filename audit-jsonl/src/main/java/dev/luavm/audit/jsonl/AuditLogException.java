package dev.luavm.audit.jsonl;

import java.io.IOException;

/**
 * An audit log that cannot be used: not a log, damaged, cut, edited, reordered, keyed without
 * its key, or beyond the reader's bounds. The message says where ({@code "line 12: ..."}).
 */
public final class AuditLogException extends IOException {
    private final long line;

    AuditLogException(long line, String message) {
        super(line > 0 ? "line " + line + ": " + message : message);
        this.line = line;
    }

    AuditLogException(long line, String message, Throwable cause) {
        super(line > 0 ? "line " + line + ": " + message : message, cause);
        this.line = line;
    }

    /** The line the problem is on (from 1), or 0 when it is the whole file's. */
    public long line() {
        return line;
    }
}
