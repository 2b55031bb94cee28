package dev.luavm.lib;

/**
 * A per-sandbox object a library made that a snapshot can carry ({@code Sandbox.snapshot()}): a
 * userdata's payload (the random generator's state, a standard file handle) or a builtin that
 * holds state of its own (a {@code string.gmatch} iterator). Anything else a library made and a
 * script can reach is refused by a snapshot, as a host object is.
 *
 * <p>The library that makes such objects lists an {@link Unpersister} for their
 * {@link #persistKind() kind} in {@link Library#unpersisters()}; a restore hands it what
 * {@link #persist} wrote. See docs/SNAPSHOT.md ("Library objects").
 */
public interface Persistent {
    /** The kind, unique among a runtime's bundles ({@code "string.gmatch"}), under which the library rebuilds it. */
    String persistKind();

    /**
     * Writes what rebuilding needs. A builtin may write the Lua values it holds
     * ({@link SnapshotOut#writeValue}; all of them must be reported by its
     * {@code forEachReference}); a userdata payload writes plain data only.
     */
    void persist(SnapshotOut out);

    /**
     * Why this object cannot be carried right now (a handle on something outside the sandbox's
     * state), or null when it can: a snapshot is then refused with this reason, as for a host
     * object.
     */
    default String refusal() {
        return null;
    }
}
