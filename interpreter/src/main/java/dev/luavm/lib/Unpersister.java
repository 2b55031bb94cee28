package dev.luavm.lib;

/** Rebuilds the {@link Persistent} objects of one kind when a snapshot is restored. */
public interface Unpersister {
    /** The kind it rebuilds ({@link Persistent#persistKind()}). */
    String kind();

    /**
     * Rebuilds one object from what {@link Persistent#persist} wrote: a userdata payload, or a
     * builtin. Charge its memory through {@link SnapshotIn#memory()} first; every byte written
     * must be read.
     */
    Object restore(SnapshotIn in);
}
