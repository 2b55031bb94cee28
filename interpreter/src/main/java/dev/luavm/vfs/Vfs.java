package dev.luavm.vfs;

import dev.luavm.vfs.session.HostDirectory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A file system a host grants a sandbox ({@code Capabilities.Builder.filesystem(vfs)}), made of
 * mounts; outside them nothing exists. Immutable: each {@code mount...} and {@code with...}
 * returns a new {@code Vfs}, and one may be shared by any number of sandboxes and threads.
 *
 * <pre>{@code
 * Vfs vfs = Vfs.create()
 *         .mountReadOnly("/data", Path.of("datasets"))            // read, never written
 *         .mountReadWrite("/out", Path.of("results"), 64 << 20)  // may grow by 64 MiB
 *         .mountMemory("/tmp", 8 << 20)                           // this sandbox's own, in memory
 *         .mountOverlay("/work", Path.of("repo"), 16 << 20);      // writes kept in memory, per run
 * }</pre>
 *
 * <h2>Mounts</h2>
 * <ul>
 *   <li>{@link #mountReadOnly(String, Path) read-only}: a host directory; every write under it
 *       fails with {@link Errno#EROFS}.</li>
 *   <li>{@link #mountReadWrite(String, Path, long) read-write}: a host directory the script
 *       writes; its files may grow by at most {@code quota} bytes over the sandbox's life (net:
 *       truncating or removing a file gives the room back).</li>
 *   <li>{@link #mountMemory(String, long) memory}: an empty directory in memory, one per sandbox,
 *       kept from run to run; its files may hold {@code quota} bytes, which count against the
 *       sandbox's memory limit as well.</li>
 *   <li>{@link #mountOverlay(String, Path, long) overlay}: a host directory as it is, with every
 *       change (writes, removals, renames) kept in memory, per sandbox, and thrown away when the
 *       next run starts unless the host commits it ({@code Sandbox.files()}). Its memory layer
 *       may hold {@code quota} bytes (a host file is copied in when first changed).</li>
 *   <li>A host's own {@link VfsBackend} (a database, an object store), read-only or read-write
 *       ({@link #mountReadOnly(String, VfsBackend)}, {@link #mountReadWrite(String, VfsBackend, long)}).</li>
 * </ul>
 * Mount points are absolute, normalised names ({@code /data}, {@code /a/b}, or {@code /});
 * mounts may nest (the longest mount point containing a name serves it, and a name is never
 * served by two).
 *
 * <h2>The working directory</h2>
 * A script's relative names ({@code io.open("file.txt")}, {@code os.remove("out/a")},
 * {@code require}'s {@code ./?.lua}) start at the working directory, {@code /} unless
 * {@link #withWorkingDirectory} names another: a directory inside a mount, or one holding mount
 * points. It is the host's choice alone (Lua has no {@code chdir}); {@code ..} from it is
 * resolved as from any directory, lexically and never above {@code /}, so no name reaches past
 * the mounts. A working directory that is missing in its mount (a subdirectory of a host
 * directory not there) makes relative names fail with {@code No such file or directory}, as a
 * removed working directory does on Linux. The CLI sets it to the mount of its own working
 * directory ({@code luavm --mount /work=.:rw}: {@code io.open("file.txt")} is {@code ./file.txt}).
 *
 * <h2>Quotas</h2>
 * Besides the bytes of each mount: at most {@link #maxOpenFiles()} handles open at once
 * ({@link Errno#EMFILE} beyond), and at most {@link #maxFiles()} files created and kept, over all
 * mounts ({@link Errno#ENOSPC} beyond, as a file system out of inodes). A quota breach is
 * {@code No space left on device} (28), at the write or at the flush that needed the room.
 */
public final class Vfs {
    /** Handles a sandbox may hold open at once, unless {@link #withMaxOpenFiles} says otherwise. */
    public static final int DEFAULT_MAX_OPEN_FILES = 64;
    /** Files a sandbox may create and keep, over all mounts, unless {@link #withMaxFiles} says otherwise. */
    public static final long DEFAULT_MAX_FILES = 10_000;
    /** A quota with no bound. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    /** How a mount is served and written. */
    public enum Mode {
        /** a host directory or backend, never written */
        READ_ONLY("read-only"),
        /** a host directory or backend, written in place */
        READ_WRITE("read-write"),
        /** files in memory, per sandbox, kept between runs */
        MEMORY("memory"),
        /** a host directory with the changes in memory, per sandbox, discarded at the next run unless committed */
        OVERLAY("overlay");

        /** the word docs and the CLI use */
        public final String word;

        Mode(String word) {
            this.word = word;
        }
    }

    /**
     * One mount: its point, its mode, the host directory behind it (null for memory and for a
     * host's backend), its byte quota ({@link #UNLIMITED} for none; 0 for a read-only mount) and,
     * for a host's backend or a host directory, the backend serving it (null for memory).
     */
    public record Mount(String path, Mode mode, Path hostDirectory, long quota, VfsBackend backend) {
        /** One line for listings, without the host directory's name: {@code "/out read-write, quota 8 MiB"}. */
        public String describe() {
            StringBuilder b = new StringBuilder(path).append(' ').append(mode.word);
            if (mode != Mode.MEMORY && hostDirectory == null) b.append(" (host backend)");
            if (mode != Mode.READ_ONLY) b.append(", quota ").append(quota == UNLIMITED ? "unlimited" : bytes(quota));
            return b.toString();
        }
    }

    /** Where relative names start unless {@link #withWorkingDirectory} says otherwise. */
    public static final String ROOT = "/";

    private static final Vfs EMPTY = new Vfs(List.of(), DEFAULT_MAX_OPEN_FILES, DEFAULT_MAX_FILES, ROOT);

    private final List<Mount> mounts;
    private final int maxOpenFiles;
    private final long maxFiles;
    private final String workingDirectory;

    private Vfs(List<Mount> mounts, int maxOpenFiles, long maxFiles, String workingDirectory) {
        this.mounts = mounts;
        this.maxOpenFiles = maxOpenFiles;
        this.maxFiles = maxFiles;
        this.workingDirectory = workingDirectory;
    }

    /** A file system with no mount yet: nothing exists in it. */
    public static Vfs create() {
        return EMPTY;
    }

    /**
     * Mounts the host directory {@code hostDir} at {@code path}, read-only.
     *
     * @throws IllegalArgumentException the mount point is not an absolute normalised name, is
     *         mounted already, or the directory does not exist
     * @throws UnsupportedOperationException the platform cannot open files relative to a
     *         directory handle (the JDK's {@code SecureDirectoryStream}; Linux and macOS can)
     */
    public Vfs mountReadOnly(String path, Path hostDir) {
        return add(new Mount(path, Mode.READ_ONLY, absolute(hostDir), 0, new HostDirectory(hostDir, true)));
    }

    /** Mounts the host directory {@code hostDir} at {@code path}, read-write; its files may grow by {@code quota} bytes. */
    public Vfs mountReadWrite(String path, Path hostDir, long quota) {
        return add(new Mount(path, Mode.READ_WRITE, absolute(hostDir), checkQuota(quota), new HostDirectory(hostDir, false)));
    }

    /** Mounts an empty in-memory directory at {@code path}, one per sandbox; its files may hold {@code quota} bytes. */
    public Vfs mountMemory(String path, long quota) {
        return add(new Mount(path, Mode.MEMORY, null, checkQuota(quota), null));
    }

    /**
     * Mounts {@code hostDir} at {@code path} as an overlay: read as it is, written only in memory
     * (per sandbox, at most {@code quota} bytes), the changes discarded when the next run starts
     * unless the host commits them.
     */
    public Vfs mountOverlay(String path, Path hostDir, long quota) {
        return add(new Mount(path, Mode.OVERLAY, absolute(hostDir), checkQuota(quota), new HostDirectory(hostDir, false)));
    }

    /** Mounts a host's backend at {@code path} as an overlay: read through it, written only in memory, per sandbox. */
    public Vfs mountOverlay(String path, VfsBackend lower, long quota) {
        return add(new Mount(path, Mode.OVERLAY, null, checkQuota(quota), Objects.requireNonNull(lower, "backend")));
    }

    /** Mounts a host's backend at {@code path}, read-only. */
    public Vfs mountReadOnly(String path, VfsBackend backend) {
        return add(new Mount(path, Mode.READ_ONLY, null, 0, Objects.requireNonNull(backend, "backend")));
    }

    /** Mounts a host's backend at {@code path}, read-write; its files may grow by {@code quota} bytes. */
    public Vfs mountReadWrite(String path, VfsBackend backend, long quota) {
        Objects.requireNonNull(backend, "backend");
        if (backend.readOnly()) throw new IllegalArgumentException("a read-only backend cannot be mounted read-write");
        return add(new Mount(path, Mode.READ_WRITE, null, checkQuota(quota), backend));
    }

    /** At most {@code n} handles open at once (default {@value #DEFAULT_MAX_OPEN_FILES}). */
    public Vfs withMaxOpenFiles(int n) {
        if (n < 0) throw new IllegalArgumentException("max open files must be >= 0: " + n);
        return new Vfs(mounts, n, maxFiles, workingDirectory);
    }

    /** At most {@code n} files created and kept, over all mounts (default {@value #DEFAULT_MAX_FILES}). */
    public Vfs withMaxFiles(long n) {
        if (n < 0) throw new IllegalArgumentException("max files must be >= 0: " + n);
        return new Vfs(mounts, maxOpenFiles, n, workingDirectory);
    }

    /**
     * Relative names start at {@code directory}, an absolute normalised name (as a mount point
     * is) inside one of the mounts made so far, or above one ({@code /a} when {@code /a/b} is
     * mounted; {@code /} always): mount first, then set the working directory.
     *
     * @throws IllegalArgumentException the name is not absolute and normalised (no {@code .},
     *         {@code ..}, empty component, NUL or trailing slash), or no mount holds it
     */
    public Vfs withWorkingDirectory(String directory) {
        String d = checkMountPoint(directory, "working directory");
        if (!reaches(d)) {
            throw new IllegalArgumentException("the working directory " + d + " is in no mount"
                    + (mounts.isEmpty() ? " (there is none yet: mount first)" : ""));
        }
        return new Vfs(mounts, maxOpenFiles, maxFiles, d);
    }

    /**
     * True when the absolute normalised name {@code dir} may be a working directory here: it is
     * {@code /}, a mount point, lies below one, or holds one.
     */
    public boolean reaches(String dir) {
        if (dir.equals(ROOT)) return true;
        for (Mount m : mounts) {
            String p = m.path();
            if (p.equals(ROOT) || dir.equals(p) || dir.startsWith(p + "/") || p.startsWith(dir + "/")) return true;
        }
        return false;
    }

    /** Where relative names start: {@code /} unless {@link #withWorkingDirectory} set another. */
    public String workingDirectory() {
        return workingDirectory;
    }

    /**
     * What a sandbox's capabilities say of this file system: one line per mount
     * ({@link Mount#describe()}), then {@code "working directory /work"} unless it is {@code /}.
     * An audit log's {@code run_started} seals these lines; a replay must give the same.
     */
    public List<String> grantLines() {
        List<String> out = new ArrayList<>();
        for (Mount m : mounts) out.add(m.describe());
        if (!workingDirectory.equals(ROOT)) out.add(WORKING_DIRECTORY_LINE + workingDirectory);
        return out;
    }

    /** How {@link #grantLines()} names the working directory. */
    public static final String WORKING_DIRECTORY_LINE = "working directory ";

    /** The mounts, in the order made. */
    public List<Mount> mounts() {
        return mounts;
    }

    /** The mount at exactly {@code path}, or null. */
    public Mount mount(String path) {
        for (Mount m : mounts) if (m.path().equals(path)) return m;
        return null;
    }

    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    public long maxFiles() {
        return maxFiles;
    }

    /** {@link #grantLines()}, then the handle and file quotas; host directories are not named. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.addAll(grantLines());
        out.add("at most " + maxOpenFiles + " open files, " + maxFiles + " files created");
        return out;
    }

    @Override
    public String toString() {
        return "Vfs" + describe();
    }

    private Vfs add(Mount m) {
        String p = checkMountPoint(m.path(), "mount point");
        for (Mount other : mounts) {
            if (other.path().equals(p)) throw new IllegalArgumentException("already mounted: " + p);
        }
        List<Mount> next = new ArrayList<>(mounts);
        next.add(new Mount(p, m.mode(), m.hostDirectory(), m.quota(), m.backend()));
        return new Vfs(Collections.unmodifiableList(next), maxOpenFiles, maxFiles, workingDirectory);
    }

    /** An absolute name without {@code .}, {@code ..}, empty components, NUL or a trailing slash ({@code /} itself allowed). */
    private static String checkMountPoint(String path, String what) {
        Objects.requireNonNull(path, what);
        if (path.equals("/")) return path;
        if (!path.startsWith("/") || path.endsWith("/")) {
            throw new IllegalArgumentException("a " + what + " is an absolute name without a trailing slash: '" + path + "'");
        }
        if (path.length() >= 4096) throw new IllegalArgumentException("a " + what + " of 4096 or more characters");
        for (String part : path.substring(1).split("/", -1)) {
            if (!VfsPath.plainName(part) || part.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
                throw new IllegalArgumentException("not a normalised " + what + ": '" + path + "'");
            }
        }
        return path;
    }

    private static long checkQuota(long quota) {
        if (quota < 0) throw new IllegalArgumentException("a quota is >= 0: " + quota);
        return quota;
    }

    private static Path absolute(Path dir) {
        return Objects.requireNonNull(dir, "host directory").toAbsolutePath().normalize();
    }

    /** {@code 8 MiB}, {@code 512 KiB}, {@code 100 bytes}: exact binary units only. */
    static String bytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) return (n >> 30) + " GiB";
        if (n >= 1L << 20 && n % (1L << 20) == 0) return (n >> 20) + " MiB";
        if (n >= 1L << 10 && n % (1L << 10) == 0) return (n >> 10) + " KiB";
        return n + (n == 1 ? " byte" : " bytes");
    }
}
