package dev.luavm.vfs.session;

import dev.luavm.vfs.Vfs;
import dev.luavm.vfs.VfsBackend;

import java.util.List;

/**
 * One mount as a sandbox's session has it: the mount, its point as components, the backend
 * serving it (for memory and overlay mounts the session's own {@link MemoryLayer}), and, for a
 * read-write mount, how much the script's writes have grown it (net), against its quota.
 */
final class MountPoint {
    final Vfs.Mount mount;
    final List<String> at;
    final VfsBackend backend;
    /** the in-memory layer of a memory or overlay mount, else null */
    final MemoryLayer layer;
    /** bytes the script's writes added to a read-write mount, net of what it truncated or removed */
    long grown;

    MountPoint(Vfs.Mount mount, List<String> at, VfsBackend backend, MemoryLayer layer) {
        this.mount = mount;
        this.at = at;
        this.backend = backend;
        this.layer = layer;
    }

    boolean readOnly() {
        return mount.mode() == Vfs.Mode.READ_ONLY || backend.readOnly() && layer == null;
    }

    /** True when the session counts this mount's quota (read-write); a layer counts its own. */
    boolean sessionQuota() {
        return mount.mode() == Vfs.Mode.READ_WRITE;
    }
}
