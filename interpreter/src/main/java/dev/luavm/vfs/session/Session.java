package dev.luavm.vfs.session;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.FileStream;
import dev.luavm.lib.FileSystem;
import dev.luavm.value.LuaString;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.Vfs;
import dev.luavm.vfs.VfsBackend;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.VfsPath;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaTermination;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One sandbox's view of its {@link Vfs}: the mounts with this sandbox's in-memory layers, the
 * open streams, the quota counters. Every operation of {@code io}, {@code os} and {@code require}
 * on files comes here, in this order: the name is normalised ({@link VfsName}; a relative one
 * from the {@linkplain Vfs#workingDirectory() working directory}) and given to the
 * mount with the longest point containing it (none: {@link Errno#ENOENT}); the backend is asked
 * what is there; modes and quotas are checked; a write, remove or rename passes the gateway
 * ({@link SessionHost#approve}, {@link Errno#EACCES} when refused); then the backend acts, as
 * host work under the run's deadline. Failures come out in the order Linux reports them for
 * the same call, so a script sees lua5.3's answer.
 *
 * <p>Runs: every stream still open when a run ends is flushed (unless a limit ended the run) and
 * closed, and overlays drop their changes when the next run starts ({@link #startRun}) unless
 * the host committed them. Sandbox thread only, except for the host's calls between runs.
 */
public final class Session implements FileSystem {
    /** os.tmpname's names: {@code /tmp/lua_XXXXXX}, as glibc's mkstemp template in lua5.3 */
    private static final String TMP_PREFIX = "lua_";
    private static final String TMP_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final int TMP_TRIES = 100;
    /** where tostring's addresses start (VM rule 7: no identity hashes) */
    private static final long FIRST_ADDRESS = 0x55551000L;

    private final Vfs vfs;
    private final SessionHost host;
    /** longest mount point first */
    private final List<MountPoint> mounts = new ArrayList<>();
    private final List<Stream> open = new ArrayList<>();
    /** where relative names start, as components ({@link Vfs#workingDirectory()}) */
    private final List<String> workingDirectory;
    /** os.tmpname's generator: SplitMix64's state, one long a snapshot carries */
    private long names;
    /** files created and kept, net, over all mounts */
    private long files;
    private long streams;

    public Session(Vfs vfs, SessionHost host) {
        this.vfs = vfs;
        this.host = host;
        for (Vfs.Mount m : vfs.mounts()) {
            List<String> at = m.path().equals("/") ? List.of() : List.of(m.path().substring(1).split("/"));
            MemoryLayer layer = switch (m.mode()) {
                case MEMORY -> new MemoryLayer(null, m.quota(), host.memory());
                case OVERLAY -> new MemoryLayer(m.backend(), m.quota(), host.memory());
                default -> null;
            };
            mounts.add(new MountPoint(m, at, layer != null ? layer : m.backend(), layer));
        }
        mounts.sort(Comparator.comparingInt((MountPoint p) -> p.at.size()).reversed());
        this.names = host.seed() ^ 0x6c75615f766673L;
        String wd = vfs.workingDirectory();
        this.workingDirectory = wd.equals(Vfs.ROOT) ? List.of() : List.of(wd.substring(1).split("/"));
    }

    /** The file system this session serves. */
    public Vfs vfs() {
        return vfs;
    }

    MemoryAccount memory() {
        return host.memory();
    }

    void chargeBytes(long n) {
        host.chargeBytes(n);
    }

    // ------------------------------------------------------------------ names

    /** A name resolved: its mount, its path there, and the name as parsed. */
    private record Target(MountPoint mount, VfsPath path, VfsName name) {
        /** the absolute VFS name, for the gateway's events */
        String absolute() {
            return "/" + String.join("/", name.parts());
        }
    }

    private MountPoint mountFor(List<String> parts) {
        for (MountPoint m : mounts) {
            if (parts.size() >= m.at.size() && parts.subList(0, m.at.size()).equals(m.at)) return m;
        }
        return null;
    }

    private Target resolve(byte[] name) throws VfsException {
        VfsName n = VfsName.parse(name, workingDirectory);
        for (List<String> dir : n.climbed()) directory(dir);
        MountPoint m = mountFor(n.parts());
        if (m == null) throw new VfsException(Errno.ENOENT); // outside every mount nothing exists
        VfsPath path = VfsPath.of(n.parts().subList(m.at.size(), n.parts().size()));
        int tooLong = n.firstTooLong();
        if (tooLong >= 0) {
            // Linux looks the directories up first: a missing one is reported before the long name
            VfsPath dir = VfsPath.of(path.parts().subList(0, tooLong - m.at.size()));
            directory(m, dir);
            throw new VfsException(Errno.ENAMETOOLONG);
        }
        return new Target(m, path, n);
    }

    /**
     * Fails unless {@code parts} (from the root of the VFS) name a directory: one of a mount, a
     * mount point, or a directory holding mount points (the root, {@code /a} of {@code /a/b}).
     */
    private void directory(List<String> parts) throws VfsException {
        MountPoint m = mountFor(parts);
        if (m != null) {
            directory(m, VfsPath.of(parts.subList(m.at.size(), parts.size())));
            return;
        }
        for (MountPoint p : mounts) {
            if (p.at.size() > parts.size() && p.at.subList(0, parts.size()).equals(parts)) return;
        }
        throw new VfsException(Errno.ENOENT);
    }

    /** Fails unless {@code dir} is a directory of {@code m}. */
    private void directory(MountPoint m, VfsPath dir) throws VfsException {
        VfsBackend.Stat s = io(() -> m.backend.stat(dir));
        if (s == null) throw new VfsException(Errno.ENOENT);
        if (s.kind() != VfsBackend.Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
    }

    private VfsBackend.Stat stat(Target t) throws VfsException {
        return io(() -> t.mount.backend.stat(t.path));
    }

    /** The name itself, a link not followed (for remove and rename). */
    private VfsBackend.Stat lstat(Target t) throws VfsException {
        return io(() -> t.mount.backend.lstat(t.path));
    }

    @Override
    public boolean covers(byte[] name) {
        try {
            return mountFor(VfsName.parse(name, workingDirectory).parts()) != null;
        } catch (VfsException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ io and os

    @Override
    public FileStream open(CallContext c, LuaString name, String mode) throws VfsException {
        char kind = mode.charAt(0);
        boolean plus = mode.indexOf('+') >= 0;
        boolean read = kind == 'r' || plus;
        boolean write = kind != 'r' || plus;
        boolean append = kind == 'a';
        boolean create = kind != 'r';
        boolean truncate = kind == 'w';
        Target t = resolve(name.bytesUnsafe());
        if (open.size() >= vfs.maxOpenFiles()) throw new VfsException(Errno.EMFILE);
        MountPoint m = t.mount;
        VfsBackend.Stat s = stat(t);
        if (s != null && s.kind() == VfsBackend.Kind.DIRECTORY) {
            if (write) throw new VfsException(Errno.EISDIR);
            return register(new Stream(this, new Descriptor(this, m, null, t.path, true, false, false), nextAddress()));
        }
        if (t.name.directory()) {
            if (s != null) throw new VfsException(Errno.ENOTDIR);
            throw new VfsException(create ? Errno.EISDIR : Errno.ENOENT);
        }
        if (s == null) {
            if (!create) throw new VfsException(Errno.ENOENT);
            directory(m, t.path.parent());
        }
        if (s != null && s.kind() == VfsBackend.Kind.OTHER) throw new VfsException(Errno.EACCES); // devices, pipes
        if (write) {
            if (m.readOnly()) throw new VfsException(Errno.EROFS);
            approve(c, "fs.write", t.absolute(), mode.replace("b", ""));
        }
        if (s == null && files >= vfs.maxFiles()) throw new VfsException(Errno.ENOSPC);
        VfsBackend.OpenOptions o = new VfsBackend.OpenOptions(read, write, create, truncate, append, false);
        VfsBackend.Handle h = io(() -> m.backend.open(t.path, o));
        if (s == null) files++;
        if (truncate && s != null && m.sessionQuota()) m.grown -= s.size();
        Stream stream = new Stream(this, new Descriptor(this, m, h, null, read, write, append), nextAddress());
        if (append && !plus) stream.startAtEnd();
        return register(stream);
    }

    @Override
    public void remove(CallContext c, LuaString name) throws VfsException {
        Target t = resolve(name.bytesUnsafe());
        if (t.name.last().equals(".")) throw new VfsException(Errno.EINVAL); // rmdir(".")
        MountPoint m = t.mount;
        VfsBackend.Stat s = lstat(t);
        if (s == null) throw new VfsException(Errno.ENOENT);
        if (t.path.isRoot()) throw new VfsException(Errno.EBUSY); // a mount point
        if (t.name.directory() && s.kind() != VfsBackend.Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
        if (m.readOnly()) throw new VfsException(Errno.EROFS);
        approve(c, "fs.remove", t.absolute());
        io(() -> {
            m.backend.remove(t.path);
            return null;
        });
        for (Stream open : this.open) open.descriptor().removed(m, t.path);
        if (s.kind() == VfsBackend.Kind.FILE) {
            files--;
            if (m.sessionQuota()) m.grown -= s.size();
        }
    }

    @Override
    public void rename(CallContext c, LuaString from, LuaString to) throws VfsException {
        // Linux finds both directories, the old one first, before it looks for the file
        Target a = resolve(from.bytesUnsafe());
        if (!a.path.isRoot()) directory(a.mount, a.path.parent());
        Target b = resolve(to.bytesUnsafe());
        if (!b.path.isRoot()) directory(b.mount, b.path.parent());
        VfsBackend.Stat s = lstat(a);
        if (s == null) throw new VfsException(Errno.ENOENT);
        if (a.path.isRoot() || b.path.isRoot()) throw new VfsException(Errno.EBUSY); // a mount point, as Linux
        if (a.mount != b.mount) throw new VfsException(Errno.EXDEV);
        boolean dir = s.kind() == VfsBackend.Kind.DIRECTORY;
        if (!dir && (a.name.directory() || b.name.directory())) throw new VfsException(Errno.ENOTDIR);
        MountPoint m = a.mount;
        if (m.readOnly()) throw new VfsException(Errno.EROFS);
        approve(c, "fs.rename", a.absolute(), b.absolute());
        VfsBackend.Stat replaced;
        try {
            replaced = a.path.equals(b.path) ? null : lstat(b);
        } catch (VfsException e) {
            replaced = null; // the rename will say why
        }
        io(() -> {
            m.backend.rename(a.path, b.path);
            return null;
        });
        if (dir) for (Stream open : this.open) open.descriptor().renamed(m, a.path, b.path);
        if (!dir && replaced != null && replaced.kind() == VfsBackend.Kind.FILE) {
            files--;
            if (m.sessionQuota()) m.grown -= replaced.size();
        }
    }

    @Override
    public LuaString tmpname(CallContext c) throws VfsException {
        MountPoint m = tmpMount();
        if (m == null) return null;
        for (int i = 0; i < TMP_TRIES; i++) {
            StringBuilder n = new StringBuilder(TMP_PREFIX);
            for (int k = 0; k < 6; k++) n.append(TMP_CHARS.charAt(nextNameChar()));
            VfsPath path = VfsPath.of(List.of(n.toString()));
            if (io(() -> m.backend.stat(path)) != null) continue;
            String absolute = "/tmp/" + n;
            if (m.readOnly()) throw new VfsException(Errno.EROFS);
            approve(c, "fs.write", absolute, "w");
            if (files >= vfs.maxFiles()) throw new VfsException(Errno.ENOSPC);
            VfsBackend.OpenOptions o = new VfsBackend.OpenOptions(false, true, true, false, false, true);
            try {
                io(() -> m.backend.open(path, o)).close();
            } catch (VfsException e) {
                if (e.errno() == Errno.EEXIST) continue;
                throw e;
            } catch (IOException e) {
                throw new VfsException(Errno.EIO);
            }
            files++;
            return LuaString.of(absolute);
        }
        throw new VfsException(Errno.EEXIST);
    }

    @Override
    public FileStream tmpfile(CallContext c) throws VfsException {
        LuaString name = tmpname(c);
        if (name == null) throw new VfsException(Errno.ENOENT);
        FileStream s = open(c, name, "w+");
        remove(c, name); // open and already unlinked, as glibc's tmpfile
        return s;
    }

    /** SplitMix64's next value, reduced to an index into {@link #TMP_CHARS}. */
    private int nextNameChar() {
        long z = names += 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        z ^= z >>> 31;
        return (int) Long.remainderUnsigned(z, TMP_CHARS.length());
    }

    private MountPoint tmpMount() {
        for (MountPoint m : mounts) if (m.mount.path().equals("/tmp")) return m;
        return null;
    }

    private void approve(CallContext c, String operation, String... args) throws VfsException {
        if (!host.approve(c, operation, List.of(args))) throw new VfsException(Errno.EACCES);
    }

    // ------------------------------------------------------------------ require

    @Override
    public long fileSize(CallContext c, byte[] name) {
        try {
            Target t = resolve(name);
            VfsBackend.Stat s = stat(t);
            return s != null && s.kind() == VfsBackend.Kind.FILE && !t.name.directory() ? s.size() : -1;
        } catch (VfsException e) {
            return -1;
        }
    }

    @Override
    public byte[] readFile(CallContext c, byte[] name, long max) {
        try {
            Target t = resolve(name);
            VfsBackend.Handle h = io(() -> t.mount.backend.open(t.path, VfsBackend.OpenOptions.READ));
            try {
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                byte[] b = new byte[Stream.BLOCK];
                long at = 0;
                while (at < max) {
                    long from = at;
                    int want = (int) Math.min(b.length, max - at);
                    int n = io(() -> h.read(from, b, 0, want));
                    if (n <= 0) break;
                    out.write(b, 0, n);
                    at += n;
                }
                return out.toByteArray();
            } finally {
                h.close();
            }
        } catch (IOException e) {
            return null;
        }
    }

    // ------------------------------------------------------------------ streams and quotas

    private Stream register(Stream s) {
        open.add(s);
        return s;
    }

    void closed(Stream s) {
        open.remove(s);
    }

    private long nextAddress() {
        return FIRST_ADDRESS + 0x100L * ++streams;
    }

    /**
     * The growth a write of {@code len} bytes at {@code at} makes, checked against a read-write
     * mount's quota before the write ({@link Errno#ENOSPC}); add it with {@link #grew} after.
     */
    long growth(MountPoint m, VfsBackend.Handle h, long at, int len) throws VfsException {
        if (!m.sessionQuota()) return 0;
        long size = io(h::size);
        long growth = Math.max(0, at + len - size);
        if (growth > 0 && m.grown + growth > m.mount.quota()) throw new VfsException(Errno.ENOSPC);
        return growth;
    }

    void grew(MountPoint m, long growth) {
        m.grown += growth;
    }

    /** A backend call as host work; any failure but the VM's own signals becomes an errno. */
    <T> T io(IoCall<T> call) throws VfsException {
        try {
            return host.hostWork(call::call);
        } catch (VfsException e) {
            throw e;
        } catch (LuaTermination | LuaError e) {
            throw e;
        } catch (IOException e) {
            IOException t = HostDirectory.translate(e);
            throw t instanceof VfsException v ? v : new VfsException(Errno.EIO);
        } catch (Exception e) {
            throw new VfsException(Errno.EIO); // a backend's own failure: its message withheld
        }
    }

    /** A backend call. */
    @FunctionalInterface
    interface IoCall<T> {
        T call() throws IOException;
    }

    // ------------------------------------------------------------------ runs and the host

    /** A run starts: overlays forget what the last run changed and the host did not commit. */
    public void startRun() {
        for (MountPoint m : mounts) {
            if (m.mount.mode() == Vfs.Mode.OVERLAY) m.layer.discard();
        }
    }

    /**
     * A run ended: every stream still open is flushed ({@code flush}: the run was not ended by a
     * limit, so lua5.3's exit would flush it too) and closed, the most recently opened first.
     */
    public void endRun(boolean flush) {
        List<Stream> all = new ArrayList<>(open);
        java.util.Collections.reverse(all); // the newest first, as lua_close runs the handles' finalizers
        for (Stream s : all) {
            if (flush) {
                try {
                    s.close();
                } catch (IOException | RuntimeException e) {
                    s.closeNow();
                }
            } else {
                s.closeNow();
            }
        }
    }

    /** The in-memory layer of the memory or overlay mount at {@code path}, or null. */
    public MemoryLayer layer(String path) {
        for (MountPoint m : mounts) if (m.mount.path().equals(path)) return m.layer;
        return null;
    }

    /** The host reads a whole file by its VFS name (between runs: no policy, no gas); null when there is none. */
    public byte[] hostRead(String name) throws IOException {
        Target t = resolve(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        VfsBackend.Stat s = t.mount.backend.stat(t.path);
        if (s == null || s.kind() != VfsBackend.Kind.FILE) return null;
        try (VfsBackend.Handle h = t.mount.backend.open(t.path, VfsBackend.OpenOptions.READ)) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            byte[] b = new byte[Stream.BLOCK];
            long at = 0;
            int n;
            while ((n = h.read(at, b, 0, b.length)) > 0) {
                out.write(b, 0, n);
                at += n;
            }
            return out.toByteArray();
        }
    }

    /**
     * The host puts a file into a memory or overlay mount (between runs), charged to its quota
     * and the sandbox's memory as a script's write would be.
     */
    public void hostWrite(String name, byte[] contents) throws IOException {
        Target t = resolve(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (t.mount.layer == null) {
            throw new IllegalArgumentException(t.mount.mount.path() + " is not a memory or overlay mount");
        }
        directory(t.mount, t.path.parent());
        boolean existed = t.mount.backend.stat(t.path) != null;
        t.mount.layer.put(t.path, contents);
        if (!existed) files++;
    }

    /** What a snapshot carries of this session (its memory and overlay mounts, its counters): the extension section {@code "vfs"}, registered by the sandbox. */
    public dev.luavm.lib.SnapshotParticipant snapshotParticipant() {
        return new SessionSnapshot(this);
    }

    List<MountPoint> mountPoints() {
        return mounts;
    }

    long tmpNameState() {
        return names;
    }

    /** A restore sets the counters a snapshot carried. */
    void restoreCounters(long files, long streams, long names) {
        this.files = files;
        this.streams = streams;
        this.names = names;
    }

    long streamsOpened() {
        return streams;
    }

    /** Open streams now (tests, the host). */
    public int openStreams() {
        return open.size();
    }

    /** Files created and kept, net, over all mounts. */
    public long filesCreated() {
        return files;
    }
}
