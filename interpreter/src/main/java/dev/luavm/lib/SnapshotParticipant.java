package dev.luavm.lib;

/**
 * State a bundle keeps for one sandbox outside the Lua heap that a snapshot must carry (the
 * virtual file system's in-memory and overlay mounts, for instance). A bundle registers its
 * participant while it installs ({@link InstallContext#participate}); a snapshot then holds one
 * extension section per participant, under its {@link #snapshotName() name}, and a restore hands
 * each section to the participant of the same name that the restored sandbox's own installation
 * registered. A section with no such participant fails the restore (the capabilities lack what
 * the state needs); a participant with no section keeps what it installed. See docs/SNAPSHOT.md
 * ("Extension sections").
 */
public interface SnapshotParticipant {
    /** The section's name, unique in a sandbox ({@code "vfs"}). */
    String snapshotName();

    /** Writes the state, plain data only (no Lua values). Memory the state holds must be counted by the sandbox's meter. */
    void writeState(SnapshotOut out);

    /** Reads back what {@link #writeState} wrote, charging the memory it rebuilds first. */
    void readState(SnapshotIn in);
}
