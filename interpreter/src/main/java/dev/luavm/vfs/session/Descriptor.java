package dev.luavm.vfs.session;

import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsBackend;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.VfsPath;

/**
 * What the kernel keeps for an open file: the file (or a directory, opened only to read), the
 * file offset, the access mode and {@code O_APPEND}. {@link Stream} is glibc's {@code FILE} on top
 * of it; these are the system calls it makes ({@code read}, {@code write}, {@code lseek},
 * {@code fstat}), failing as Linux's do, with the quotas of the mount checked at {@code write}.
 */
final class Descriptor {
    /** ext4's largest file with 4 KiB blocks ({@code s_maxbytes}) */
    static final long MAX_FILE_SIZE = ((1L << 32) - 1) << 12;

    private final Session session;
    private final MountPoint mount;
    /** the file; null for a directory */
    VfsBackend.Handle handle;
    /** for a directory: its path, kept up to date as this sandbox renames it (a removed directory's end is 0) */
    VfsPath directory;
    /** a directory this sandbox removed while it was open */
    boolean removed;
    final boolean readable;
    final boolean writable;
    final boolean append;
    long offset;

    Descriptor(Session session, MountPoint mount, VfsBackend.Handle handle, VfsPath directory, boolean readable,
               boolean writable, boolean append) {
        this.session = session;
        this.mount = mount;
        this.handle = handle;
        this.directory = directory;
        this.readable = readable;
        this.writable = writable;
        this.append = append;
    }

    boolean isDirectory() {
        return handle == null;
    }

    /** {@code read(2)}: up to {@code n} bytes at the offset; 0 at the end. */
    int read(byte[] b, int off, int n) throws VfsException {
        if (!readable) throw new VfsException(Errno.EBADF);
        if (offset > Long.MAX_VALUE - n) throw new VfsException(Errno.EINVAL); // rw_verify_area
        if (handle == null) throw new VfsException(Errno.EISDIR);
        session.chargeBytes(n);
        long at = offset;
        int got = session.io(() -> handle.read(at, b, off, n));
        if (got <= 0) return 0;
        offset += got;
        return got;
    }

    /** {@code write(2)}: all {@code n} bytes at the offset (at the end with {@code O_APPEND}), or a failure. */
    void write(byte[] b, int off, int n) throws VfsException {
        if (!writable) throw new VfsException(Errno.EBADF);
        if (n == 0) return;
        long at = append ? size() : offset;
        if (at > Long.MAX_VALUE - n) throw new VfsException(Errno.EINVAL);
        if (at + n > MAX_FILE_SIZE) throw new VfsException(Errno.EFBIG);
        long growth = session.growth(mount, handle, at, n);
        session.io(() -> {
            handle.write(at, b, off, n);
            return null;
        });
        session.grew(mount, growth);
        offset = at + n;
    }

    /**
     * {@code lseek(2)} as ext4 answers it ({@code generic_file_llseek_size}): a file's offsets
     * stop at {@link #MAX_FILE_SIZE}; a directory's (an htree) at the largest hash, which is also
     * its end, until it is removed, when it is a plain file of size 0 again.
     */
    long seek(long off, int whence) throws VfsException {
        boolean htree = handle == null && !removed;
        long base = switch (whence) {
            case dev.luavm.lib.FileStream.SEEK_SET -> 0;
            case dev.luavm.lib.FileStream.SEEK_CUR -> offset;
            default -> handle != null ? size() : htree ? Long.MAX_VALUE : 0;
        };
        long np = base + off;
        long max = htree ? Long.MAX_VALUE : MAX_FILE_SIZE;
        if (off > 0 && np < base || np < 0 || np > max) throw new VfsException(Errno.EINVAL);
        return offset = np;
    }

    /** {@code fstat}'s {@code st_size} of a regular file. */
    long size() throws VfsException {
        return session.io(handle::size);
    }

    /** This sandbox removed the directory {@code path} of {@code m}. */
    void removed(MountPoint m, VfsPath path) {
        if (handle == null && mount == m && path.equals(directory)) removed = true;
    }

    /** This sandbox renamed {@code from} to {@code to} in {@code m}: an open directory at or below it moves along. */
    void renamed(MountPoint m, VfsPath from, VfsPath to) {
        if (handle != null || mount != m || directory == null || !from.contains(directory)) return;
        java.util.List<String> parts = new java.util.ArrayList<>(to.parts());
        parts.addAll(directory.parts().subList(from.parts().size(), directory.parts().size()));
        directory = VfsPath.of(parts);
    }

    void close() {
        if (handle == null) return;
        try {
            handle.close();
        } catch (java.io.IOException | RuntimeException ignored) {
            // nothing more can be done for the script: the handle is gone either way
        }
        handle = null;
    }
}
