package dev.luavm.vfs.session;

import dev.luavm.lib.FileStream;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsBackend;
import dev.luavm.vfs.VfsException;

import java.io.IOException;

/**
 * A C stdio stream over a VFS file, buffered as glibc's: one 4 KiB buffer (a regular file's
 * {@code st_blksize}), holding either bytes read ahead or bytes not yet written; writes go out
 * when the buffer fills (whole blocks beyond it directly, as {@code _IO_new_file_xsputn}), at a
 * newline in line mode, at once unbuffered, and at every flush, seek, read and close; reads fill
 * the buffer a block at a time. So two handles on one file see each other's bytes exactly when
 * lua5.3's would. The stream keeps its own logical position; an append stream writes at the end.
 *
 * <p>The buffer is counted as the sandbox's memory while the stream is open; bytes taken from
 * the backend pay the byte rule ({@link Session#chargeBytes}); every backend call is host work
 * under the run's deadline ({@link Session#io}).
 */
final class Stream implements FileStream {
    /** glibc's buffer for a regular file: its st_blksize */
    static final int BLOCK = 4096;

    private final Session session;
    private final MountPoint mount;
    /** null for a directory, which opens for reading and fails every read */
    private VfsBackend.Handle handle;
    private final boolean readable;
    private final boolean writable;
    private final boolean append;
    private final long address;

    private byte[] buf;
    private int bufSize = BLOCK;
    private int mode = FULL_BUFFERING;
    /** logical position when the buffer holds nothing */
    private long pos;
    /** read-ahead: buf[rpos, rlen) are the file's bytes from rbase + rpos */
    private long rbase;
    private int rpos;
    private int rlen;
    /** pending writes: buf[0, wlen) go to wbase */
    private long wbase;
    private int wlen;
    /** where the kernel's file offset would be (glibc's direct reads start there) */
    private long fdpos;
    private boolean closed;

    Stream(Session session, MountPoint mount, VfsBackend.Handle handle, boolean readable, boolean writable,
           boolean append, long address) {
        this.session = session;
        this.mount = mount;
        this.handle = handle;
        this.readable = readable;
        this.writable = writable;
        this.append = append;
        this.address = address;
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** The logical position. */
    private long position() {
        if (rlen > 0) return rbase + rpos;
        if (wlen > 0) return wbase + wlen;
        return pos;
    }

    private void dropReadAhead() {
        if (rlen > 0) {
            pos = rbase + rpos;
            rlen = rpos = 0;
        }
    }

    private byte[] buffer() throws VfsException {
        if (buf == null) {
            session.memory().hold(BLOCK);
            buf = new byte[BLOCK];
        }
        return buf;
    }

    // ------------------------------------------------------------------ reading

    private void checkRead() throws IOException {
        if (handle == null) throw new VfsException(Errno.EISDIR);
        if (!readable) throw new VfsException(Errno.EBADF);
        if (wlen > 0) flushPending();
    }

    @Override
    public int read() throws IOException {
        checkRead();
        if (rpos < rlen) return buf[rpos++] & 0xff;
        return fill() ? buf[rpos++] & 0xff : -1;
    }

    @Override
    public void unread() {
        if (rpos > 0) rpos--;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (wlen > 0 && len >= bufSize && bufSize >= 128) {
            // glibc's fread of a block or more straight after buffered writes (no seek or flush
            // between, which C leaves undefined) drops them and reads the descriptor where it is
            pos = fdpos;
            wlen = 0;
        }
        checkRead();
        if (len == 0) return 0;
        if (rpos >= rlen && !fill()) return -1;
        int n = Math.min(len, rlen - rpos);
        System.arraycopy(buf, rpos, b, off, n);
        rpos += n;
        return n;
    }

    /** Reads the next block into the buffer; false at the end of the file. */
    private boolean fill() throws IOException {
        long at = position();
        byte[] b = buffer();
        int want = Math.min(bufSize, b.length);
        session.chargeBytes(want);
        int n = session.io(() -> handle.read(at, b, 0, want));
        rbase = at;
        rpos = 0;
        rlen = Math.max(n, 0);
        fdpos = at + rlen;
        if (rlen == 0) pos = at;
        return rlen > 0;
    }

    // ------------------------------------------------------------------ writing

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (handle == null || !writable) throw new VfsException(Errno.EBADF);
        dropReadAhead();
        if (len == 0) return;
        if (mode == NO_BUFFERING) {
            direct(position(), b, off, len);
            return;
        }
        byte[] out = buffer();
        if (wlen == 0) wbase = pos;
        int count = len;
        boolean mustFlush = false;
        int space = bufSize - wlen;
        if (mode == LINE_BUFFERING && count <= space) {
            for (int i = off + len - 1; i >= off; i--) {
                if (b[i] == '\n') {
                    count = i - off + 1;
                    mustFlush = true;
                    break;
                }
            }
        }
        int first = Math.min(space, count);
        System.arraycopy(b, off, out, wlen, first);
        wlen += first;
        int toDo = len - first;
        if (toDo + (mustFlush ? 1 : 0) > 0) {
            flushPending();
            int whole = bufSize >= 128 ? toDo - toDo % bufSize : toDo;
            if (whole > 0) direct(pos, b, off + first, whole);
            int rest = toDo - whole;
            if (rest > 0) {
                wbase = pos;
                System.arraycopy(b, off + first + whole, out, 0, rest);
                wlen = rest;
            }
        }
    }

    /** Writes bytes at {@code at} now (at the end for an append stream); the position follows. */
    private void direct(long at, byte[] b, int off, int len) throws IOException {
        long where = append ? session.io(handle::size) : at;
        long growth = session.growth(mount, handle, where, len);
        session.io(() -> {
            handle.write(where, b, off, len);
            return null;
        });
        session.grew(mount, growth);
        pos = where + len;
        fdpos = pos;
    }

    /** Writes what the buffer holds; on failure the bytes are dropped, as glibc drops them. */
    private void flushPending() throws IOException {
        if (wlen == 0) return;
        int n = wlen;
        long at = wbase;
        wlen = 0;
        pos = at;
        direct(at, buf, 0, n);
    }

    @Override
    public void flush() throws IOException {
        if (handle == null) return;
        flushPending();
    }

    @Override
    public long seek(int whence, long offset) throws IOException {
        if (handle == null) {
            // a directory: glibc answers from the kernel's directory offsets
            if (whence == SEEK_END) return Long.MAX_VALUE;
            long np = (whence == SEEK_SET ? 0 : pos) + offset;
            if (np < 0) throw new VfsException(Errno.EINVAL);
            return pos = np;
        }
        flushPending();
        long base = switch (whence) {
            case SEEK_SET -> 0;
            case SEEK_CUR -> position();
            default -> session.io(handle::size);
        };
        long np = base + offset;
        if (offset > 0 && np < base || np < 0) throw new VfsException(Errno.EINVAL);
        rlen = rpos = 0;
        pos = np;
        fdpos = np;
        return np;
    }

    @Override
    public void setvbuf(int mode, long size) throws IOException {
        flush();
        dropReadAhead();
        rlen = rpos = 0;
        this.mode = mode;
        // glibc ignores the size without a caller's buffer, and after _IONBF keeps its one-byte buffer
        if (mode == NO_BUFFERING) bufSize = 1;
    }

    @Override
    public void close() throws IOException {
        if (closed) return;
        IOException failure = null;
        try {
            flush();
        } catch (IOException e) {
            failure = e;
        }
        closeNow();
        if (failure != null) throw failure;
    }

    /** Closes without flushing (the run ended by a limit, or the sandbox closed). */
    void closeNow() {
        if (closed) return;
        closed = true;
        wlen = rlen = rpos = 0;
        if (buf != null) {
            session.memory().release(BLOCK);
            buf = null;
        }
        if (handle != null) {
            try {
                handle.close();
            } catch (IOException | RuntimeException ignored) {
                // nothing more can be done for the script: the handle is gone either way
            }
            handle = null;
        }
        session.closed(this);
    }

    /** True while bytes wait in the buffer. */
    boolean pendingWrites() {
        return wlen > 0;
    }
}
