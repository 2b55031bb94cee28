package dev.luavm.stdlib.os;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.FileSystem;
import dev.luavm.value.LuaString;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code os.remove}, {@code os.rename} and {@code os.tmpname} ({@code loslib.c}) over the
 * sandbox's file system, present only when the host granted one. Failures are lua5.3's:
 * {@code nil, "name: reason", errno} for remove, {@code nil, "reason", errno} for rename (5.3
 * names no file there), and the error {@code unable to generate a unique filename} for tmpname
 * without a {@code /tmp} mount.
 */
final class OsFiles {
    private OsFiles() {}

    /** {@code os.remove(filename)} */
    static int remove(CallContext c) {
        LuaString name = c.checkString(1);
        c.chargeBytes(name.length());
        try {
            fs(c).remove(c, name);
            return c.ret(Boolean.TRUE);
        } catch (VfsException e) {
            return failure(c, e.errno(), name);
        }
    }

    /** {@code os.rename(oldname, newname)} */
    static int rename(CallContext c) {
        LuaString from = c.checkString(1);
        LuaString to = c.checkString(2);
        c.chargeBytes((long) from.length() + to.length());
        try {
            fs(c).rename(c, from, to);
            return c.ret(Boolean.TRUE);
        } catch (VfsException e) {
            return failure(c, e.errno(), null);
        }
    }

    /** {@code os.tmpname()}: a new empty file in {@code /tmp}, or an error. */
    static int tmpname(CallContext c) {
        try {
            LuaString name = fs(c).tmpname(c);
            if (name != null) return c.ret(name);
        } catch (VfsException e) {
            // as mkstemp failing: lua5.3 says only this
        }
        throw c.error("unable to generate a unique filename");
    }

    private static FileSystem fs(CallContext c) {
        return c.host().fileSystem();
    }

    /** {@code luaL_fileresult}: nil, the name up to a NUL and the reason (or the reason alone), errno. */
    private static int failure(CallContext c, Errno errno, LuaString name) {
        if (name == null) return c.ret(null, LuaString.of(errno.message), (long) errno.code);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] n = name.bytesUnsafe();
        int len = 0;
        while (len < name.length() && n[len] != 0) len++;
        b.write(n, 0, len);
        b.writeBytes((": " + errno.message).getBytes(StandardCharsets.US_ASCII));
        return c.ret(null, c.newString(b.toByteArray()), (long) errno.code);
    }
}
