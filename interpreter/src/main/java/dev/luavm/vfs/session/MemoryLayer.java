package dev.luavm.vfs.session;

import dev.luavm.vfs.Errno;
import dev.luavm.vfs.FileChange;
import dev.luavm.vfs.VfsBackend;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.VfsPath;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Files in memory, alone (a memory mount: one empty root directory) or over a lower backend (an
 * overlay: the lower files as they are, every change here). Per sandbox, on its thread.
 *
 * <p>The layer maps paths (below the mount) to files or to whiteouts, which hide a lower file or
 * an emptied lower directory. A lower file is copied in when first opened to change it (not when
 * it is truncated); renaming a directory of the lower layer is {@link Errno#EXDEV}, as Linux's
 * overlayfs answers. No directory is ever made here: Lua 5.3 has no {@code mkdir}.
 *
 * <p>The bytes of the files count against the layer's quota ({@link Errno#ENOSPC} beyond) and,
 * with each entry's bookkeeping and the arrays' spare capacity, against the sandbox's memory
 * ({@link MemoryAccount}). A removed file that is still open keeps its memory until closed.
 */
public final class MemoryLayer implements VfsBackend {
    /** bookkeeping bytes per entry, besides its name */
    static final long ENTRY = 64;
    /** the largest file an array holds */
    static final int MAX_FILE = Integer.MAX_VALUE - 16;

    private static final Object WHITEOUT = new Object();

    /** One file of the layer. */
    static final class MemFile {
        byte[] data = new byte[0];
        int size;
        int opens;
        boolean linked = true;
    }

    private final VfsBackend lower;
    private final long quota;
    private final MemoryAccount memory;
    /** path (VfsPath.toString) to MemFile or WHITEOUT */
    private final TreeMap<String, Object> upper = new TreeMap<>();
    /** bytes of file contents, against the quota */
    private long held;

    /** A layer over {@code lower} (null: a memory mount) holding at most {@code quota} bytes. */
    public MemoryLayer(VfsBackend lower, long quota, MemoryAccount memory) {
        this.lower = lower;
        this.quota = quota;
        this.memory = memory;
    }

    /** Bytes of file contents held (what the quota counts). */
    public long bytesHeld() {
        return held;
    }

    /** True for an overlay (a lower layer below). */
    public boolean overlay() {
        return lower != null;
    }

    // ------------------------------------------------------------------ VfsBackend

    @Override
    public Stat stat(VfsPath path) throws IOException {
        List<String> parts = path.parts();
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) key.append('/');
            key.append(parts.get(i));
            Object e = upper.get(key.toString());
            boolean last = i == parts.size() - 1;
            if (e == WHITEOUT) {
                if (last) return null;
                throw new VfsException(Errno.ENOENT);
            }
            if (e instanceof MemFile f) {
                if (last) return Stat.file(f.size);
                throw new VfsException(Errno.ENOTDIR);
            }
        }
        if (lower != null) return lower.stat(path);
        if (path.isRoot()) return Stat.DIRECTORY;
        if (parts.size() > 1) throw new VfsException(Errno.ENOENT);
        return null;
    }

    @Override
    public Handle open(VfsPath path, OpenOptions o) throws IOException {
        Stat parent = stat(path.parent());
        if (parent == null) throw new VfsException(Errno.ENOENT);
        if (parent.kind() != Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
        Stat s = stat(path);
        if (s != null && s.kind() == Kind.DIRECTORY) throw new VfsException(Errno.EISDIR);
        if (s != null && o.exclusive()) throw new VfsException(Errno.EEXIST);
        if (s == null && !o.create()) throw new VfsException(Errno.ENOENT);
        String key = path.toString();
        Object cur = upper.get(key);
        if (!o.write()) {
            if (cur instanceof MemFile f) return new MemHandle(f, false);
            return lower.open(path, o);
        }
        MemFile f;
        if (cur instanceof MemFile existing) {
            f = existing;
            if (o.truncate()) resize(f, 0);
        } else {
            f = link(key);
            if (s != null && !o.truncate()) copyUp(path, f);
        }
        return new MemHandle(f, o.append());
    }

    @Override
    public void remove(VfsPath path) throws IOException {
        Stat s = stat(path);
        if (s == null) throw new VfsException(Errno.ENOENT);
        if (path.isRoot()) throw new VfsException(Errno.EBUSY);
        if (s.kind() == Kind.DIRECTORY && !list(path).isEmpty()) throw new VfsException(Errno.ENOTEMPTY);
        hide(path);
    }

    @Override
    public void rename(VfsPath from, VfsPath to) throws IOException {
        Stat s = stat(from);
        if (s == null) throw new VfsException(Errno.ENOENT);
        Stat parent = stat(to.parent());
        if (parent == null) throw new VfsException(Errno.ENOENT);
        if (parent.kind() != Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
        if (from.isRoot() || to.isRoot()) throw new VfsException(Errno.EBUSY);
        Stat t = stat(to);
        if (s.kind() == Kind.DIRECTORY) {
            if (t != null && t.kind() != Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
            if (from.contains(to) && !from.equals(to)) throw new VfsException(Errno.EINVAL);
            if (from.equals(to)) return;
            throw new VfsException(Errno.EXDEV); // a directory of the lower layer, as overlayfs
        }
        if (t != null && t.kind() == Kind.DIRECTORY) throw new VfsException(Errno.EISDIR);
        if (from.equals(to)) return;
        String fromKey = from.toString();
        String toKey = to.toString();
        boolean fromInLower = lower != null && lowerHas(from);
        Object old = upper.get(toKey);
        // the bookkeeping first, so a refusal leaves everything as it was
        long entries = (fromInLower ? ENTRY + fromKey.length() : 0) + (old == null ? ENTRY + toKey.length() : 0);
        charge(entries);
        Object cur = upper.get(fromKey);
        MemFile f;
        if (cur instanceof MemFile existing) {
            f = existing;
        } else {
            f = new MemFile();
            try {
                copyUp(from, f);
            } catch (IOException | RuntimeException e) {
                free(f);
                memory.release(entries);
                throw e;
            }
        }
        if (cur != null) {
            upper.remove(fromKey);
            memory.release(ENTRY + fromKey.length());
        }
        if (fromInLower) upper.put(fromKey, WHITEOUT);
        if (old instanceof MemFile o) unlink(o);
        upper.put(toKey, f);
    }

    @Override
    public List<String> list(VfsPath path) throws IOException {
        Stat s = stat(path);
        if (s == null) throw new VfsException(Errno.ENOENT);
        if (s.kind() != Kind.DIRECTORY) throw new VfsException(Errno.ENOTDIR);
        TreeSet<String> names = new TreeSet<>();
        if (lower != null) names.addAll(lower.list(path));
        String prefix = path.isRoot() ? "" : path + "/";
        for (Map.Entry<String, Object> e : upper.tailMap(prefix, true).entrySet()) {
            String k = e.getKey();
            if (!k.startsWith(prefix)) break;
            String rest = k.substring(prefix.length());
            if (rest.isEmpty() || rest.indexOf('/') >= 0) continue;
            if (e.getValue() == WHITEOUT) names.remove(rest);
            else names.add(rest);
        }
        return new ArrayList<>(names);
    }

    // ------------------------------------------------------------------ the host's side

    /** The changes over the lower layer (for a memory mount: its files), in name order. */
    public List<FileChange> changes() {
        List<FileChange> out = new ArrayList<>();
        for (Map.Entry<String, Object> e : upper.entrySet()) {
            if (e.getValue() instanceof MemFile f) out.add(new FileChange(e.getKey(), FileChange.Kind.WRITTEN, f.size));
            else out.add(new FileChange(e.getKey(), FileChange.Kind.REMOVED, 0));
        }
        return out;
    }

    /** Forgets every change (the memory is given back, except for files still open, until closed). */
    public void discard() {
        for (Object e : upper.values()) if (e instanceof MemFile f) unlink(f);
        long entries = 0;
        for (String k : upper.keySet()) entries += ENTRY + k.length();
        upper.clear();
        memory.release(entries);
    }

    /**
     * Writes every change into the lower layer (removals first, deepest first; then the files),
     * then forgets them. A failure stops the commit with the changes not yet applied still here.
     */
    public void commit() throws IOException {
        if (lower == null) throw new IllegalStateException("a memory mount has nothing to commit to");
        List<String> keys = new ArrayList<>(upper.descendingKeySet());
        for (String k : keys) {
            if (upper.get(k) != WHITEOUT) continue;
            try {
                lower.remove(VfsPath.parse(k));
            } catch (VfsException e) {
                if (e.errno() != Errno.ENOENT) throw e;
            }
            upper.remove(k);
            memory.release(ENTRY + k.length());
        }
        for (String k : new ArrayList<>(upper.keySet())) {
            MemFile f = (MemFile) upper.get(k);
            try (Handle h = lower.open(VfsPath.parse(k), new OpenOptions(false, true, true, true, false, false))) {
                if (f.size > 0) h.write(0, f.data, 0, f.size);
            }
            upper.remove(k);
            unlink(f);
            memory.release(ENTRY + k.length());
        }
    }

    /** The contents of the file {@code path} held here, or null (a copy). */
    public byte[] read(VfsPath path) {
        return upper.get(path.toString()) instanceof MemFile f ? Arrays.copyOf(f.data, f.size) : null;
    }

    /** Every file and whiteout, for a snapshot: path to contents, or to null for a whiteout. */
    public Map<String, byte[]> entries() {
        Map<String, byte[]> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : upper.entrySet()) {
            out.put(e.getKey(), e.getValue() instanceof MemFile f ? Arrays.copyOf(f.data, f.size) : null);
        }
        return out;
    }

    /**
     * Puts a file ({@code contents}) or a whiteout (null) at {@code path}, charged as a write
     * would be (a snapshot being restored, a host filling a memory mount).
     */
    public void put(VfsPath path, byte[] contents) throws IOException {
        if (path.isRoot()) throw new VfsException(Errno.EISDIR);
        String key = path.toString();
        Object old = upper.get(key);
        if (contents == null) {
            if (old instanceof MemFile f) unlink(f);
            else if (old == null) charge(ENTRY + key.length());
            upper.put(key, WHITEOUT);
            return;
        }
        MemFile f = old instanceof MemFile m ? m : link(key);
        resize(f, 0);
        resize(f, contents.length);
        System.arraycopy(contents, 0, f.data, 0, contents.length);
    }

    // ------------------------------------------------------------------ internals

    private MemFile link(String key) throws VfsException {
        Object old = upper.get(key);
        if (old == null) charge(ENTRY + key.length());
        MemFile f = new MemFile();
        upper.put(key, f);
        return f;
    }

    /** Hides {@code path}: its file here goes; a whiteout stays when the lower layer has it. */
    private void hide(VfsPath path) throws IOException {
        String key = path.toString();
        Object cur = upper.get(key);
        if (cur instanceof MemFile f) unlink(f);
        boolean inLower = lower != null && lowerHas(path);
        if (inLower) {
            if (cur == null) charge(ENTRY + key.length());
            upper.put(key, WHITEOUT);
        } else if (cur != null) {
            upper.remove(key);
            memory.release(ENTRY + key.length());
        }
    }

    private boolean lowerHas(VfsPath path) throws IOException {
        try {
            return lower.stat(path) != null;
        } catch (VfsException e) {
            return false;
        }
    }

    private void copyUp(VfsPath path, MemFile f) throws IOException {
        try (Handle h = lower.open(path, OpenOptions.READ)) {
            long size = h.size();
            if (size > MAX_FILE) throw new VfsException(Errno.ENOSPC);
            resize(f, (int) size);
            int at = 0;
            while (at < f.size) {
                int n = h.read(at, f.data, at, f.size - at);
                if (n <= 0) break;
                at += n;
            }
            if (at < f.size) resize(f, at); // the lower file shrank meanwhile
        }
    }

    private void unlink(MemFile f) {
        f.linked = false;
        if (f.opens == 0) free(f);
    }

    private void free(MemFile f) {
        held -= f.size;
        memory.release(f.data.length);
        f.data = new byte[0];
        f.size = 0;
    }

    private void charge(long bytes) throws VfsException {
        memory.hold(bytes);
    }

    /** Sets a file's size: the quota and the memory checked first, new bytes zero. */
    void resize(MemFile f, long size) throws VfsException {
        if (size > MAX_FILE) throw new VfsException(Errno.ENOSPC);
        long grow = size - f.size;
        if (grow > 0 && held + grow > quota) throw new VfsException(Errno.ENOSPC);
        if (size > f.data.length) {
            long cap = Math.max(size, Math.min((long) MAX_FILE, f.data.length + (long) f.data.length / 2 + 64));
            charge(cap - f.data.length);
            f.data = Arrays.copyOf(f.data, (int) cap);
        } else if (size < f.size) {
            Arrays.fill(f.data, (int) size, f.size, (byte) 0);
            if (size == 0 && f.data.length > 0) {
                memory.release(f.data.length);
                f.data = new byte[0];
            }
        }
        held += size - f.size;
        f.size = (int) size;
    }

    /** A handle on a file of this layer. */
    private final class MemHandle implements Handle {
        private MemFile f;
        private final boolean append;

        MemHandle(MemFile f, boolean append) {
            this.f = f;
            this.append = append;
            f.opens++;
        }

        @Override
        public int read(long position, byte[] b, int off, int len) throws IOException {
            if (f == null) throw new VfsException(Errno.EBADF);
            if (position >= f.size) return -1;
            int n = (int) Math.min(len, f.size - position);
            System.arraycopy(f.data, (int) position, b, off, n);
            return n;
        }

        @Override
        public void write(long position, byte[] b, int off, int len) throws IOException {
            if (f == null) throw new VfsException(Errno.EBADF);
            long at = append ? f.size : position;
            long end = at + len;
            // a file removed while open still takes room, as an unlinked file does, until closed
            if (end > f.size) resize(f, end);
            System.arraycopy(b, off, f.data, (int) at, len);
        }

        @Override
        public long size() {
            return f == null ? 0 : f.size;
        }

        @Override
        public void close() {
            if (f == null) return;
            if (--f.opens == 0 && !f.linked) free(f);
            f = null;
        }
    }
}
