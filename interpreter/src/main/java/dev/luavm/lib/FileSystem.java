package dev.luavm.lib;

import dev.luavm.value.LuaString;
import dev.luavm.vfs.VfsException;

/**
 * The sandbox's file system (a {@link dev.luavm.vfs.Vfs} granted by the host) as {@code io},
 * {@code os} and {@code require} use it: names as a script gives them, failures as
 * {@link VfsException}s carrying lua5.3's errno. Writes, removes and renames pass the host's
 * policy (the gateway's {@code writes:fs} events) before they happen.
 */
public interface FileSystem {
    /**
     * {@code fopen(name, mode)}: {@code mode} is C's, already checked
     * ({@code r w a}, optionally {@code +}, then any {@code b}s).
     */
    FileStream open(CallContext c, LuaString name, String mode) throws VfsException;

    /** C's {@code remove}: a file or an empty directory. */
    void remove(CallContext c, LuaString name) throws VfsException;

    /** C's {@code rename}. */
    void rename(CallContext c, LuaString from, LuaString to) throws VfsException;

    /** {@code os.tmpname}: the name of a new empty file in the {@code /tmp} mount, or null when there is none. */
    LuaString tmpname(CallContext c) throws VfsException;

    /** {@code io.tmpfile}: a new file in the {@code /tmp} mount, open {@code "w+"} and already removed. */
    FileStream tmpfile(CallContext c) throws VfsException;

    /** True when {@code name} lies under a mount point: a {@code package.path} candidate read from the VFS. */
    boolean covers(byte[] name);

    /** The size of the regular file {@code name}, or -1 when there is none (for {@code require}). */
    long fileSize(CallContext c, byte[] name);

    /** At most {@code max} bytes of the regular file {@code name}, or null when it cannot be read. */
    byte[] readFile(CallContext c, byte[] name, long max);
}
