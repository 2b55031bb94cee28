package dev.luavm;

import dev.luavm.vfs.FileChange;
import dev.luavm.vfs.Vfs;
import dev.luavm.vfs.session.MemoryLayer;
import dev.luavm.vfs.session.Session;

import java.io.IOException;
import java.util.List;

/**
 * The host's side of a sandbox's file system ({@link Sandbox#files()}), between runs: what an
 * overlay changed, committing or discarding it, and reading or placing files by their names in
 * the sandbox. Every method fails with {@link LuaSandboxStateException} while a run is in
 * progress or after the sandbox closed.
 *
 * <p>An overlay's changes live until the next run starts; commit them before it to keep them
 * ({@link #commit}), which writes them into the host directory.
 */
public final class SandboxFiles {
    private final Sandbox sandbox;
    private final Session session;

    SandboxFiles(Sandbox sandbox, Session session) {
        this.sandbox = sandbox;
        this.session = session;
    }

    /** The file system granted. */
    public Vfs vfs() {
        return session.vfs();
    }

    /**
     * What the script changed in the overlay at {@code mountPoint} (or holds in the memory mount
     * there), in name order.
     *
     * @throws IllegalArgumentException no memory or overlay mount is at {@code mountPoint}
     */
    public List<FileChange> changes(String mountPoint) {
        return sandbox.whileIdle(() -> layer(mountPoint).changes());
    }

    /**
     * Writes the overlay's changes at {@code mountPoint} into its host directory (removals, then
     * files) and forgets them.
     *
     * @throws IOException a change could not be written (those not yet applied stay pending)
     * @throws IllegalArgumentException no overlay is at {@code mountPoint}
     */
    public void commit(String mountPoint) throws IOException {
        MemoryLayer layer = layer(mountPoint);
        if (!layer.overlay()) throw new IllegalArgumentException(mountPoint + " is not an overlay");
        IOException[] failure = new IOException[1];
        sandbox.whileIdle(() -> {
            try {
                layer.commit();
            } catch (IOException e) {
                failure[0] = e;
            }
            return null;
        });
        if (failure[0] != null) throw failure[0];
    }

    /** Forgets the overlay's changes (or the memory mount's files) at {@code mountPoint} now. */
    public void discard(String mountPoint) {
        MemoryLayer layer = layer(mountPoint);
        sandbox.whileIdle(() -> {
            layer.discard();
            return null;
        });
    }

    /**
     * The contents of the file at {@code name} (an absolute name in the sandbox's file system),
     * or null when there is no file there.
     *
     * @throws IOException the backend failed (a {@link dev.luavm.vfs.VfsException} names why)
     */
    public byte[] read(String name) throws IOException {
        IOException[] failure = new IOException[1];
        byte[] r = sandbox.whileIdle(() -> {
            try {
                return session.hostRead(name);
            } catch (IOException e) {
                failure[0] = e;
                return null;
            }
        });
        if (failure[0] != null) throw failure[0];
        return r;
    }

    /**
     * Places a file at {@code name} in a memory or overlay mount (input for the script), counted
     * against the mount's quota and the sandbox's memory.
     *
     * @throws IOException it does not fit ({@code ENOSPC}), or its directory does not exist
     * @throws IllegalArgumentException {@code name} is not under a memory or overlay mount
     */
    public void write(String name, byte[] contents) throws IOException {
        IOException[] failure = new IOException[1];
        sandbox.whileIdle(() -> {
            try {
                session.hostWrite(name, contents.clone());
            } catch (IOException e) {
                failure[0] = e;
            }
            return null;
        });
        if (failure[0] != null) throw failure[0];
    }

    private MemoryLayer layer(String mountPoint) {
        MemoryLayer layer = session.layer(mountPoint);
        if (layer == null) throw new IllegalArgumentException("no memory or overlay mount at " + mountPoint);
        return layer;
    }
}
