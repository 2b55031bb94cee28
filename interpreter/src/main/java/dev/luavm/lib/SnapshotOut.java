package dev.luavm.lib;

/** Where a {@link Persistent} object or a {@link SnapshotParticipant} writes its state. */
public interface SnapshotOut {
    /** Eight bytes, big-endian. */
    void writeLong(long v);

    /** A non-negative number in as few bytes as it needs (LEB128). */
    void writeVarint(long v);

    /** A length, then the bytes. */
    void writeBytes(byte[] b);

    /**
     * A Lua value held by a {@link Persistent} builtin (nil, a boolean, a number, or an object the
     * snapshot carries). Not available to userdata payloads and participants, which write plain
     * data only.
     */
    void writeValue(Object luaValue);
}
