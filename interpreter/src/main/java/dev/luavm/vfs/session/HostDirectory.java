package dev.luavm.vfs.session;

import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsBackend;
import dev.luavm.vfs.VfsException;
import dev.luavm.vfs.VfsPath;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A host directory as a {@link VfsBackend}, resolved the way WASI preopens and cap-std do: every
 * operation starts from a handle on the mount's root directory (checked to be the very
 * directory mounted, by its file key) and walks down one component at a time through directory
 * handles ({@link SecureDirectoryStream}: {@code openat}, {@code fstatat}, {@code unlinkat},
 * {@code renameat}), each opened without following links. No host path is ever built from a
 * script's name and then checked, so a directory swapped for a symbolic link between a check and
 * a use is refused by the kernel, not raced.
 *
 * <p>Symbolic links inside the directory are followed as the kernel would follow them, as long
 * as their target stays inside: the target (relative to the link's directory, or absolute) is
 * resolved lexically and, if it lies below the root, walked again from the root, component by
 * component; a target outside the root makes the name absent ({@link Errno#ENOENT}), as is
 * everything outside the mounts. More than 40 links in one resolution is {@link Errno#ELOOP}.
 * The last component of a remove or a rename is never followed (the link itself is removed or
 * renamed, as C's {@code remove} and {@code rename} do).
 *
 * <p>Stateless apart from the root's identity: one instance serves every sandbox of a
 * {@code Vfs}, and every directory handle it opens is closed before the call returns.
 */
public final class HostDirectory implements VfsBackend {
    /** Linux's {@code MAXSYMLINKS} */
    static final int MAX_LINKS = 40;

    private final Path root;
    private final Object rootKey;
    private final boolean readOnly;

    /**
     * The directory {@code dir}, as its real path now.
     *
     * @throws IllegalArgumentException it is not an existing directory
     * @throws UnsupportedOperationException the platform has no {@link SecureDirectoryStream}
     */
    public HostDirectory(Path dir, boolean readOnly) {
        this.readOnly = readOnly;
        try {
            this.root = dir.toRealPath();
            BasicFileAttributes a = Files.readAttributes(root, BasicFileAttributes.class);
            if (!a.isDirectory()) throw new IllegalArgumentException("not a directory: " + dir);
            this.rootKey = a.fileKey();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot mount " + dir + ": " + e.getMessage(), e);
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
            if (!(ds instanceof SecureDirectoryStream)) {
                throw new UnsupportedOperationException("host directory mounts need a platform with SecureDirectoryStream (Linux, macOS)");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot mount " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The directory's real path when it was mounted. */
    public Path root() {
        return root;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public Stat stat(VfsPath path) throws IOException {
        try (Located at = locate(path.parts(), true)) {
            return at.stat();
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public Stat lstat(VfsPath path) throws IOException {
        try (Located at = locate(path.parts(), false)) {
            return at.stat();
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public Handle open(VfsPath path, OpenOptions o) throws IOException {
        try (Located at = locate(path.parts(), true)) {
            if (at.name == null || at.attrs != null && at.attrs.isDirectory()) throw new VfsException(Errno.EISDIR);
            if (at.attrs == null && !o.create()) throw new VfsException(Errno.ENOENT);
            if (at.attrs != null && o.exclusive()) throw new VfsException(Errno.EEXIST);
            Path name = Path.of(at.name);
            if (o.append() && o.read()) {
                // the JDK refuses READ with APPEND on one channel: one for each, the writes appending atomically
                SeekableByteChannel w = at.dir.newByteChannel(name, options(false, o));
                try {
                    SeekableByteChannel r = at.dir.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
                    return new ChannelHandle(r, w, true);
                } catch (IOException e) {
                    w.close();
                    throw e;
                }
            }
            SeekableByteChannel ch = at.dir.newByteChannel(name, options(o.read(), o));
            return new ChannelHandle(o.read() ? ch : null, o.write() ? ch : null, o.append());
        } catch (IOException e) {
            throw translate(e);
        }
    }

    private static Set<OpenOption> options(boolean read, OpenOptions o) {
        Set<OpenOption> s = new HashSet<>();
        s.add(LinkOption.NOFOLLOW_LINKS);
        if (read) s.add(StandardOpenOption.READ);
        if (o.write()) {
            s.add(StandardOpenOption.WRITE);
            if (o.append()) s.add(StandardOpenOption.APPEND);
            if (o.truncate()) s.add(StandardOpenOption.TRUNCATE_EXISTING);
            if (o.exclusive()) s.add(StandardOpenOption.CREATE_NEW);
            else if (o.create()) s.add(StandardOpenOption.CREATE);
        }
        return s;
    }

    @Override
    public void remove(VfsPath path) throws IOException {
        try (Located at = locate(path.parts(), false)) {
            if (at.name == null) throw new VfsException(Errno.EBUSY);
            if (at.attrs == null) throw new VfsException(Errno.ENOENT);
            if (at.attrs.isDirectory()) at.dir.deleteDirectory(Path.of(at.name));
            else at.dir.deleteFile(Path.of(at.name));
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public void rename(VfsPath from, VfsPath to) throws IOException {
        try (Located src = locate(from.parts(), false); Located dst = locate(to.parts(), false)) {
            if (src.name == null || dst.name == null) throw new VfsException(Errno.EBUSY);
            if (src.attrs == null) throw new VfsException(Errno.ENOENT);
            src.dir.move(Path.of(src.name), dst.dir, Path.of(dst.name));
        } catch (IOException e) {
            throw translate(e);
        }
    }

    @Override
    public List<String> list(VfsPath path) throws IOException {
        try (Located at = locate(path.parts(), true)) {
            if (at.name != null && at.attrs == null) throw new VfsException(Errno.ENOENT);
            if (at.name != null && !at.attrs.isDirectory()) throw new VfsException(Errno.ENOTDIR);
            List<String> out = new ArrayList<>();
            if (at.name == null) {
                for (Path p : at.dir) out.add(p.getFileName().toString());
                return out;
            }
            try (SecureDirectoryStream<Path> d = at.dir.newDirectoryStream(Path.of(at.name), LinkOption.NOFOLLOW_LINKS)) {
                for (Path p : d) out.add(p.getFileName().toString());
            }
            return out;
        } catch (IOException e) {
            throw translate(e);
        }
    }

    // ------------------------------------------------------------------ resolution

    /**
     * The last component of a name and an open handle on the directory holding it; for the
     * root itself, a handle on the root and no name. Close it.
     */
    private static final class Located implements AutoCloseable {
        final SecureDirectoryStream<Path> dir;
        final String name;
        /** the attributes of name (not followed), null when absent */
        final BasicFileAttributes attrs;

        Located(SecureDirectoryStream<Path> dir, String name, BasicFileAttributes attrs) {
            this.dir = dir;
            this.name = name;
            this.attrs = attrs;
        }

        Stat stat() {
            if (name == null) return Stat.DIRECTORY;
            if (attrs == null) return null;
            if (attrs.isDirectory()) return Stat.DIRECTORY;
            if (attrs.isRegularFile()) return Stat.file(attrs.size());
            return new Stat(Kind.OTHER, 0);
        }

        @Override
        public void close() throws IOException {
            dir.close();
        }
    }

    /** A handle on the root, refused when the directory there now is not the one mounted. */
    private SecureDirectoryStream<Path> openRoot() throws IOException {
        SecureDirectoryStream<Path> s = (SecureDirectoryStream<Path>) Files.newDirectoryStream(root);
        try {
            Object key = s.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
            if (rootKey != null && !rootKey.equals(key)) throw new VfsException(Errno.ENOENT);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private Located locate(List<String> parts, boolean followLast) throws IOException {
        return locate(parts, followLast, new int[1]);
    }

    /** Walks {@code parts} from the root, one directory handle at a time (see the class comment). */
    private Located locate(List<String> parts, boolean followLast, int[] links) throws IOException {
        SecureDirectoryStream<Path> dir = openRoot();
        try {
            if (parts.isEmpty()) return new Located(dir, null, null);
            List<String> walked = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                String name = parts.get(i);
                boolean last = i == parts.size() - 1;
                if (name.getBytes(StandardCharsets.UTF_8).length > 255) throw new VfsException(Errno.ENAMETOOLONG);
                BasicFileAttributes a = attributes(dir, name);
                if (a != null && a.isSymbolicLink() && (!last || followLast)) {
                    if (++links[0] > MAX_LINKS) throw new VfsException(Errno.ELOOP);
                    List<String> target = linkTarget(walked, name);
                    target.addAll(parts.subList(i + 1, parts.size()));
                    dir.close();
                    dir = null;
                    return locate(target, followLast, links);
                }
                if (last) return new Located(dir, name, a);
                if (a == null) throw new VfsException(Errno.ENOENT);
                if (!a.isDirectory()) throw new VfsException(Errno.ENOTDIR);
                SecureDirectoryStream<Path> next = dir.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS);
                dir.close();
                dir = next;
                walked.add(name);
            }
            throw new IllegalStateException("unreachable");
        } catch (IOException | RuntimeException e) {
            if (dir != null) dir.close();
            throw e;
        }
    }

    private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, String name) throws IOException {
        try {
            return dir.getFileAttributeView(Path.of(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * The components below the root that the link {@code walked/name} points at, resolved
     * lexically; {@link Errno#ENOENT} when the target lies outside the root. The link's text is
     * read by its host path, but only read: what it names is walked again from the root.
     */
    private List<String> linkTarget(List<String> walked, String name) throws IOException {
        Path link = root;
        for (String w : walked) link = link.resolve(w);
        Path target;
        try {
            target = Files.readSymbolicLink(link.resolve(name));
        } catch (InvalidPathException e) {
            throw new VfsException(Errno.ENOENT);
        }
        List<String> out = new ArrayList<>();
        if (target.isAbsolute()) {
            List<String> abs = lexical(new ArrayList<>(), target);
            List<String> rootParts = lexical(new ArrayList<>(), root);
            if (abs.size() < rootParts.size() || !abs.subList(0, rootParts.size()).equals(rootParts)) {
                throw new VfsException(Errno.ENOENT); // leads out of the mount
            }
            out.addAll(abs.subList(rootParts.size(), abs.size()));
            return out;
        }
        out.addAll(walked);
        for (Path p : target) {
            String s = p.toString();
            if (s.equals("..")) {
                if (out.isEmpty()) throw new VfsException(Errno.ENOENT); // above the root: outside the mount
                out.remove(out.size() - 1);
            } else if (!s.isEmpty() && !s.equals(".")) {
                out.add(s);
            }
        }
        return out;
    }

    /** The components of an absolute host path with {@code .} and {@code ..} resolved lexically. */
    private static List<String> lexical(List<String> out, Path abs) {
        for (Path p : abs) {
            String s = p.toString();
            if (s.equals("..")) {
                if (!out.isEmpty()) out.remove(out.size() - 1);
            } else if (!s.isEmpty() && !s.equals(".")) {
                out.add(s);
            }
        }
        return out;
    }

    /** A JDK file exception as the errno the kernel gave (its reason is strerror's text). */
    static IOException translate(IOException e) {
        if (e instanceof VfsException) return e;
        Errno errno;
        if (e instanceof NoSuchFileException) errno = Errno.ENOENT;
        else if (e instanceof FileAlreadyExistsException) errno = Errno.EEXIST;
        else if (e instanceof AccessDeniedException) errno = Errno.EACCES;
        else if (e instanceof DirectoryNotEmptyException) errno = Errno.ENOTEMPTY;
        else if (e instanceof NotDirectoryException) errno = Errno.ENOTDIR;
        else if (e instanceof AtomicMoveNotSupportedException) errno = Errno.EXDEV;
        else if (e instanceof FileSystemLoopException) errno = Errno.ELOOP;
        else if (e instanceof FileSystemException f) errno = Errno.ofMessage(f.getReason());
        else errno = Errno.ofMessage(e.getMessage());
        return errno != null ? new VfsException(errno) : e;
    }

    /** An open host file: positional reads and writes on its channel(s). */
    private static final class ChannelHandle implements Handle {
        private final SeekableByteChannel reader;
        private final SeekableByteChannel writer;
        private final boolean append;

        ChannelHandle(SeekableByteChannel reader, SeekableByteChannel writer, boolean append) {
            this.reader = reader;
            this.writer = writer;
            this.append = append;
        }

        @Override
        public int read(long position, byte[] b, int off, int len) throws IOException {
            if (reader == null) throw new VfsException(Errno.EBADF);
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            try {
                if (reader instanceof FileChannel fc) return fc.read(buf, position);
                reader.position(position);
                return reader.read(buf);
            } catch (IOException e) {
                throw translate(e);
            }
        }

        @Override
        public void write(long position, byte[] b, int off, int len) throws IOException {
            if (writer == null) throw new VfsException(Errno.EBADF);
            ByteBuffer buf = ByteBuffer.wrap(b, off, len);
            try {
                if (!append && writer instanceof FileChannel fc) {
                    while (buf.hasRemaining()) fc.write(buf, position + (buf.position() - off));
                    return;
                }
                if (!append) writer.position(position);
                while (buf.hasRemaining()) writer.write(buf);
            } catch (IOException e) {
                throw translate(e);
            }
        }

        @Override
        public long size() throws IOException {
            try {
                return (writer != null ? writer : reader).size();
            } catch (IOException e) {
                throw translate(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                if (reader != null) reader.close();
            } finally {
                if (writer != null && writer != reader) writer.close();
            }
        }
    }
}
