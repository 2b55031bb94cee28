package dev.luavm.vfs.session;

import dev.luavm.lib.SnapshotIn;
import dev.luavm.lib.SnapshotOut;
import dev.luavm.lib.SnapshotParticipant;
import dev.luavm.snapshot.SnapshotProblem;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.Vfs;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.VfsPath;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session's part of a snapshot (the extension section {@code "vfs"}, docs/SNAPSHOT.md): what
 * the script can observe of its file system besides the host's directories.
 *
 * <p>Written: the files created (the files quota's count), the streams opened (their
 * {@code tostring} addresses continue), {@code os.tmpname}'s generator; then every mount by path
 * and mode, with the bytes a read-write mount has grown against its quota and, for a memory or an
 * overlay mount, every file (name and contents) and every whiteout of its in-memory layer. A
 * host directory's files are not written: the host re-grants the directory on restore.
 *
 * <p>Read back into the mounts the restoring host granted: every mount of the snapshot must be
 * there (a {@code LuaSnapshotException} names the one missing), a memory or overlay mount with
 * the same mode; the host may grant a host directory with another mode. The files are charged to
 * the mount's quota (a snapshot holding more is refused) and to the sandbox's memory as a
 * script's writes would be ({@code LuaLimitException(MEMORY)} beyond). Between runs no stream is
 * open, and a run paused with one open is refused a snapshot, so streams are never carried.
 */
final class SessionSnapshot implements SnapshotParticipant {
    private static final int KIND_WHITEOUT = 0;
    private static final int KIND_FILE = 1;

    private final Session session;

    SessionSnapshot(Session session) {
        this.session = session;
    }

    @Override
    public String snapshotName() {
        return "vfs";
    }

    @Override
    public void writeState(SnapshotOut out) {
        out.writeVarint(session.filesCreated());
        out.writeVarint(session.streamsOpened());
        out.writeLong(session.tmpNameState());
        List<MountPoint> mounts = session.mountPoints();
        out.writeVarint(mounts.size());
        for (MountPoint m : mounts) {
            out.writeBytes(m.mount.path().getBytes(StandardCharsets.UTF_8));
            out.writeVarint(m.mount.mode().ordinal());
            out.writeVarint(m.grown);
            if (m.layer == null) continue;
            Map<String, byte[]> entries = m.layer.entries();
            out.writeVarint(entries.size());
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                out.writeBytes(e.getKey().getBytes(StandardCharsets.UTF_8));
                if (e.getValue() == null) {
                    out.writeVarint(KIND_WHITEOUT);
                } else {
                    out.writeVarint(KIND_FILE);
                    out.writeBytes(e.getValue());
                }
            }
        }
    }

    @Override
    public void readState(SnapshotIn in) {
        long files = in.readVarint(Long.MAX_VALUE);
        long streams = in.readVarint(1L << 48);
        long names = in.readLong();
        List<MountPoint> mounts = session.mountPoints();
        // more mounts than the new file system has is the host's to hear about, by name, below
        long count = in.readVarint(Integer.MAX_VALUE);
        Set<String> seen = new HashSet<>();
        for (long i = 0; i < count; i++) {
            String path = new String(in.readBytes(VfsName.PATH_MAX), StandardCharsets.UTF_8);
            Vfs.Mode mode = Vfs.Mode.values()[(int) in.readVarint(Vfs.Mode.values().length - 1)];
            long grown = in.readVarint(Long.MAX_VALUE);
            if (!seen.add(path)) throw in.malformed("the mount '" + path + "' twice");
            MountPoint m = find(mounts, path);
            if (m == null) {
                throw new SnapshotProblem("the snapshot holds the mount '" + path
                        + "', which the file system granted does not have");
            }
            boolean layered = mode == Vfs.Mode.MEMORY || mode == Vfs.Mode.OVERLAY;
            if ((layered || m.layer != null) && m.mount.mode() != mode) {
                throw new SnapshotProblem("the snapshot holds the mount '" + path + "' as " + mode.word
                        + ", but the file system granted mounts it " + m.mount.mode().word);
            }
            if (m.sessionQuota() && mode == Vfs.Mode.READ_WRITE) m.grown = grown;
            if (layered) readLayer(in, m);
        }
        session.restoreCounters(files, streams, names);
    }

    private static MountPoint find(List<MountPoint> mounts, String path) {
        for (MountPoint m : mounts) if (m.mount.path().equals(path)) return m;
        return null;
    }

    /** The files and whiteouts of a memory or overlay mount, into its fresh layer. */
    private static void readLayer(SnapshotIn in, MountPoint m) {
        MemoryLayer layer = m.layer;
        boolean overlay = layer.overlay();
        long entries = in.readVarint(Integer.MAX_VALUE);
        Set<String> keys = new HashSet<>();
        for (long i = 0; i < entries; i++) {
            String key = new String(in.readBytes(VfsName.PATH_MAX), StandardCharsets.UTF_8);
            int kind = (int) in.readVarint(KIND_FILE);
            VfsPath path = path(in, key, overlay);
            if (!keys.add(key)) throw in.malformed("the file '" + key + "' of " + m.mount.path() + " twice");
            byte[] contents = null;
            if (kind == KIND_FILE) {
                contents = in.readBytes(MemoryLayer.MAX_FILE);
                if (layer.bytesHeld() + contents.length > m.mount.quota()) {
                    throw new SnapshotProblem("the snapshot's files in " + m.mount.path()
                            + " hold more than the mount's quota of " + m.mount.quota() + " bytes");
                }
            } else if (!overlay) {
                throw in.malformed("a whiteout in the memory mount " + m.mount.path());
            }
            try {
                layer.put(path, contents);
            } catch (VfsException e) {
                // the quota was checked above: what is left is the sandbox's memory, whose own error
                // (LuaLimitException(MEMORY) from the restore) the meter raises for the same bytes
                if (e.errno() == Errno.ENOSPC) outOfMemory(in, MemoryLayer.ENTRY + key.length() + Math.max(64, contents == null ? 0 : contents.length));
                throw in.malformed("the file '" + key + "' of " + m.mount.path() + ": " + e.getMessage());
            } catch (IOException e) {
                throw in.malformed("the file '" + key + "' of " + m.mount.path() + ": " + e.getMessage());
            }
        }
    }

    private static void outOfMemory(SnapshotIn in, long bytes) {
        in.memory().hold(bytes);
        in.memory().release(bytes);
        throw new SnapshotProblem("the snapshot's files do not fit in the sandbox's memory");
    }

    /** A layer's key as a path: plain components of at most NAME_MAX bytes; one only in a memory mount, which has no directories. */
    private static VfsPath path(SnapshotIn in, String key, boolean overlay) {
        String[] parts = key.split("/", -1);
        if (key.isEmpty() || !overlay && parts.length > 1) throw in.malformed("the file name '" + key + "'");
        for (String p : parts) {
            if (p.getBytes(StandardCharsets.UTF_8).length > VfsName.NAME_MAX) throw in.malformed("the file name '" + key + "'");
        }
        try {
            return VfsPath.parse(key);
        } catch (IllegalArgumentException e) {
            throw in.malformed("the file name '" + key + "'");
        }
    }
}
