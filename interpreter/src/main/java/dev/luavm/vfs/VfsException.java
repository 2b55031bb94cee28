package dev.luavm.vfs;

import java.io.IOException;

/**
 * A file operation failed with {@link #errno()}; a script sees lua5.3's
 * {@code nil, message, errno} for it. Thrown by {@link VfsBackend}s to name the failure
 * precisely; any other {@link IOException} of a backend reaches the script as
 * {@link Errno#EIO}. The message never carries a host path.
 */
public final class VfsException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Errno errno;

    public VfsException(Errno errno) {
        super(errno.message);
        this.errno = errno;
    }

    public Errno errno() {
        return errno;
    }

    /** No stack trace: these are answers to a script (a missing file is common), not faults. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
