package dev.luavm.vfs;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Where a mount's files live: a host directory, memory, or anything a host serves files from (a
 * database, an object store). The VFS does everything else: names (a backend sees only
 * {@link VfsPath}s below its root), modes (a read-only mount never calls a writing method),
 * quotas, buffering, the gateway's events and the lua5.3 failure forms. A backend answers
 * questions about paths and moves bytes.
 *
 * <p>Every call runs on the sandbox's thread as host work: under the run's deadline and
 * cancellation (the thread is interrupted at the deadline, and the run then ends), so a backend
 * that blocks should respond to interruption. A failure is a {@link VfsException} naming its
 * {@link Errno}; any other {@link IOException} or runtime exception reaches the script as
 * {@link Errno#EIO}, its message withheld.
 *
 * <p>One backend instance may serve many sandboxes at once (a {@link Vfs} is shared); the
 * built-in in-memory layers are made per sandbox.
 */
public interface VfsBackend {
    /** What a path names. */
    enum Kind { FILE, DIRECTORY, OTHER }

    /** A path's kind and, for a file, its size in bytes. */
    record Stat(Kind kind, long size) {
        public static final Stat DIRECTORY = new Stat(Kind.DIRECTORY, 0);

        public static Stat file(long size) {
            return new Stat(Kind.FILE, size);
        }
    }

    /**
     * How {@link #open} opens a file. {@code create} makes it when absent ({@code exclusive}:
     * fails with {@link Errno#EEXIST} when present), {@code truncate} empties it, {@code append}
     * makes every write go to the end.
     */
    record OpenOptions(boolean read, boolean write, boolean create, boolean truncate, boolean append, boolean exclusive) {
        public static final OpenOptions READ = new OpenOptions(true, false, false, false, false, false);
    }

    /** An open file. Positions are byte offsets; the VFS keeps the stream position itself. */
    interface Handle extends Closeable {
        /** Reads up to {@code len} bytes at {@code position}; -1 at or past the end. */
        int read(long position, byte[] b, int off, int len) throws IOException;

        /** Writes {@code len} bytes at {@code position} (at the end, whatever the position, for an append handle). */
        void write(long position, byte[] b, int off, int len) throws IOException;

        /** The file's size now. */
        long size() throws IOException;

        @Override
        void close() throws IOException;
    }

    /**
     * What {@code path} names, following symbolic links that stay inside the backend; null when
     * nothing is there. A component before the last that is a file: {@link Errno#ENOTDIR}.
     */
    Stat stat(VfsPath path) throws IOException;

    /**
     * What the name {@code path} itself is, not following a symbolic link in its last component
     * (a link is {@link Kind#OTHER}); null when nothing is there. Remove and rename act on the
     * name itself. The default is {@link #stat}: for backends without links.
     */
    default Stat lstat(VfsPath path) throws IOException {
        return stat(path);
    }

    /**
     * Opens the file {@code path}. Absent without {@code create}: {@link Errno#ENOENT}; a
     * directory opened to write: {@link Errno#EISDIR}. Directories are never opened here (the
     * VFS answers reads of them itself).
     */
    Handle open(VfsPath path, OpenOptions options) throws IOException;

    /** Removes the file, or the empty directory, {@code path} (C's {@code remove}); a link itself, not its target. */
    void remove(VfsPath path) throws IOException;

    /** Renames {@code from} to {@code to} (C's {@code rename}: a file replaces a file, a directory an empty directory). */
    void rename(VfsPath from, VfsPath to) throws IOException;

    /** The names in the directory {@code path}, in any order. */
    List<String> list(VfsPath path) throws IOException;

    /**
     * A backend that only reads: the VFS answers every write under it with
     * {@link Errno#EROFS} before calling it. Default false.
     */
    default boolean readOnly() {
        return false;
    }

    /** Releases what the backend holds for a session that ended (a sandbox closed). Default: nothing. */
    default void release() {
    }
}
