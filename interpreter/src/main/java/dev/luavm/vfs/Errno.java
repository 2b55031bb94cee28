package dev.luavm.vfs;

/**
 * The failures a file operation of the VFS reports, with Linux's numbers and glibc's
 * {@code strerror} texts, so a script sees exactly what lua5.3 shows on Linux:
 * {@code nil, "data/x: No such file or directory", 2}.
 */
public enum Errno {
    /** a name that does not exist, or lies outside every mount */
    ENOENT(2, "No such file or directory"),
    /** a backend failed in a way the VFS cannot name */
    EIO(5, "Input/output error"),
    /** reading a handle open only for writing, or writing one open only for reading */
    EBADF(9, "Bad file descriptor"),
    /** the host's policy refused the operation */
    EACCES(13, "Permission denied"),
    /** removing or renaming a mount point */
    EBUSY(16, "Device or resource busy"),
    EEXIST(17, "File exists"),
    /** renaming across mounts, or a directory in an overlay */
    EXDEV(18, "Invalid cross-device link"),
    ENOTDIR(20, "Not a directory"),
    EISDIR(21, "Is a directory"),
    /** a name with a NUL byte, a negative seek */
    EINVAL(22, "Invalid argument"),
    /** the sandbox's quota of open handles */
    EMFILE(24, "Too many open files"),
    /** a write past the largest file the file system holds (ext4's 16 TiB) */
    EFBIG(27, "File too large"),
    /** a byte or file quota, or memory for an in-memory mount */
    ENOSPC(28, "No space left on device"),
    ESPIPE(29, "Illegal seek"),
    /** writing under a read-only mount */
    EROFS(30, "Read-only file system"),
    /** a name of 4096 bytes or more, or a component of more than 255 */
    ENAMETOOLONG(36, "File name too long"),
    ENOTEMPTY(39, "Directory not empty"),
    /** more than 40 symbolic links followed while resolving one name */
    ELOOP(40, "Too many levels of symbolic links"),
    /** a name that is not valid UTF-8 (the host's file names are Unicode) */
    EILSEQ(84, "Invalid or incomplete multibyte or wide character");

    /** Linux's errno value */
    public final int code;
    /** glibc's {@code strerror} text */
    public final String message;

    Errno(int code, String message) {
        this.code = code;
        this.message = message;
    }

    /** The errno whose {@code strerror} text is {@code reason} (as Java's file exceptions carry it), or null. */
    public static Errno ofMessage(String reason) {
        if (reason == null) return null;
        for (Errno e : values()) {
            if (reason.equals(e.message) || reason.endsWith(": " + e.message)) return e;
        }
        return null;
    }
}
