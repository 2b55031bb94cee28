package dev.luavm.lib;

import dev.luavm.meter.MemoryMeter;

/**
 * What an {@link Unpersister} or a {@link SnapshotParticipant} reads back: exactly what was
 * written, in the same order. Every read is bounded by what the snapshot still holds; a read
 * past the end, a number out of range or a value of a kind the reader did not expect throws the
 * snapshot's own error ({@link #malformed}), which the restore reports as a
 * {@code LuaSnapshotException}.
 */
public interface SnapshotIn {
    long readLong();

    /** A number written by {@link SnapshotOut#writeVarint}, at most {@code max}. */
    long readVarint(long max);

    /** Bytes written by {@link SnapshotOut#writeBytes}, at most {@code max} of them. */
    byte[] readBytes(int max);

    /** A Lua value written by {@link SnapshotOut#writeValue}. */
    Object readValue();

    /** The error to throw when what was read makes no sense ({@code throw in.malformed("...")}). */
    RuntimeException malformed(String why);

    /** The restored sandbox's memory meter: charge what is built before building it. */
    MemoryMeter memory();
}
