package dev.luavm.spark;

/**
 * A row that failed under {@link LuaRows#failFast(boolean) failFast(true)}: it fails its task, and
 * Spark fails the job with it as the cause ({@code org.apache.spark.SparkException: ... row id=42:
 * fee.lua:3: attempt to compare nil with number}). The same row fails the same way on every
 * attempt, so retries end the same.
 */
public final class LuaRowException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final String reason;

    LuaRowException(String key, String reason) {
        super("row " + key + ": " + reason);
        this.key = key;
        this.reason = reason;
    }

    /** The row's key: {@code id=42} (the seed column) or {@code #17 of partition 3}. */
    public String key() {
        return key;
    }

    /** Why the row failed, as the error column would have said. */
    public String reason() {
        return reason;
    }
}
