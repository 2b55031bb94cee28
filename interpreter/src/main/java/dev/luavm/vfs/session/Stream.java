package dev.luavm.vfs.session;

import dev.luavm.lib.FileStream;
import dev.luavm.vfs.Errno;
import dev.luavm.vfs.VfsException;

import java.io.IOException;

/**
 * glibc's {@code FILE} (2.36, {@code libio/fileops.c} and {@code genops.c}) over a VFS file, so
 * that buffering, positions and what two handles on one file see of each other are lua5.3's on
 * Linux, including what C leaves undefined: the pointers below are glibc's, and each method is
 * the glibc function named in its comment, for the narrow-character byte streams Lua uses.
 *
 * <p>One buffer of 4 KiB (a regular file's {@code st_blksize}), or one byte after
 * {@code setvbuf("no")} (glibc's {@code _shortbuf}), holds either bytes read ahead (the get area,
 * {@code [readBase, readEnd)}, next at {@code readPtr}) or bytes not yet written (the put area,
 * {@code [writeBase, writePtr)}, room up to {@code writeEnd}); {@code offset} is glibc's
 * {@code _offset}, the descriptor's offset when known. The system calls are {@link Descriptor}'s.
 *
 * <p>The buffer is counted as the sandbox's memory while the stream is open; bytes read from the
 * backend pay the byte rule; every backend call is host work under the run's deadline.
 */
final class Stream implements FileStream {
    /** glibc's buffer for a regular file: its st_blksize */
    static final int BLOCK = 4096;
    private static final long POS_BAD = -1;

    private final Session session;
    private final Descriptor fd;
    private final long address;

    // _flags
    private boolean currentlyPutting;
    private boolean lineBuf;
    private boolean unbuffered;
    private boolean eofSeen;
    /** _IO_ERR_SEEN, with the errno of the latest failure: reads do not throw, as C's do not; Lua asks ferror after */
    private Errno error;
    private boolean closed;

    /** null until allocated (_IO_doallocbuf); one byte when unbuffered */
    private byte[] buf;
    private int readBase;
    private int readPtr;
    private int readEnd;
    private int writeBase;
    private int writePtr;
    private int writeEnd;
    /** glibc's _offset: the descriptor's offset when known, else POS_BAD */
    private long offset = POS_BAD;
    /** whether the buffer was counted as memory */
    private boolean held;

    Stream(Session session, Descriptor fd, long address) {
        this.session = session;
        this.fd = fd;
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

    private int bufSize() {
        return buf.length;
    }

    /** {@code _IO_doallocbuf}: the block buffer, counted as memory, pointers at its start. */
    private void allocate() throws VfsException {
        if (buf != null) return;
        session.memory().hold(BLOCK);
        held = true;
        buf = new byte[BLOCK];
    }

    /** glibc's fopen of "a" (not "a+") seeks to the end: ftell says so before any write. */
    void startAtEnd() throws VfsException {
        offset = fd.seek(0, SEEK_END);
    }

    // ------------------------------------------------------------------ writing

    /** {@code new_do_write}: the bytes to the descriptor at the put area's place; the buffer is empty after, failed or not. */
    private void newDoWrite(byte[] data, int off, int n) throws VfsException {
        try {
            if (fd.append) {
                offset = POS_BAD;
            } else if (readEnd != writeBase) {
                offset = fd.seek(writeBase - readEnd, SEEK_CUR);
            }
            fd.write(data, off, n);
            if (offset != POS_BAD) offset += n;
        } finally {
            readBase = readPtr = readEnd = 0;
            writeBase = writePtr = 0;
            writeEnd = lineBuf || unbuffered ? 0 : bufSize();
        }
    }

    /** {@code _IO_do_write}. */
    private void doWrite(int n) throws VfsException {
        if (n > 0) newDoWrite(buf, writeBase, n);
    }

    /** {@code _IO_new_file_overflow} with EOF: switches to writing when reading, then flushes. */
    private void overflow() throws VfsException {
        if (!fd.writable) throw new VfsException(Errno.EBADF);
        setUpPutting();
        doWrite(writePtr - writeBase);
    }

    /** {@code _IO_new_file_overflow} with a byte. */
    private void overflow(byte ch) throws VfsException {
        if (!fd.writable) throw new VfsException(Errno.EBADF);
        setUpPutting();
        if (writePtr == bufSize()) doWrite(writePtr - writeBase);
        buf[writePtr++] = ch;
        if (unbuffered || lineBuf && ch == '\n') doWrite(writePtr - writeBase);
    }

    /** The part of {@code _IO_new_file_overflow} that makes the put area where the get area stands. */
    private void setUpPutting() throws VfsException {
        if (currentlyPutting && buf != null) return;
        if (buf == null) {
            allocate();
            readBase = readPtr = readEnd = 0;
        }
        if (readPtr == bufSize()) readEnd = readPtr = 0;
        writePtr = readPtr;
        writeBase = writePtr;
        writeEnd = bufSize();
        readBase = readPtr = readEnd;
        currentlyPutting = true;
        if (lineBuf || unbuffered) writeEnd = writePtr;
    }

    /** {@code _IO_new_file_xsputn} (fwrite). */
    @Override
    public void write(byte[] s, int off, int n) throws IOException {
        if (n <= 0) return;
        int toDo = n;
        int count = 0;
        boolean mustFlush = false;
        int at = off;
        if (lineBuf && currentlyPutting) {
            count = bufSize() - writePtr;
            if (count >= n) {
                for (int p = off + n; --p >= off; ) {
                    if (s[p] == '\n') {
                        count = p - off + 1;
                        mustFlush = true;
                        break;
                    }
                }
            }
        } else if (buf != null && writeEnd > writePtr) {
            count = writeEnd - writePtr;
        }
        if (count > 0) {
            if (count > toDo) count = toDo;
            System.arraycopy(s, at, buf, writePtr, count);
            writePtr += count;
            at += count;
            toDo -= count;
        }
        if (toDo + (mustFlush ? 1 : 0) > 0) {
            overflow();
            int blockSize = bufSize();
            int doWrite = toDo - (blockSize >= 128 ? toDo % blockSize : 0);
            if (doWrite > 0) {
                newDoWrite(s, at, doWrite);
                at += doWrite;
                toDo -= doWrite;
            }
            if (toDo > 0) defaultXsputn(s, at, toDo);
        }
    }

    /**
     * {@code vfprintf}'s output of a number: an integer's sign through {@code outchar}
     * ({@code putc}) and its digits through {@code outstring} (fwrite); a float's sign and text
     * ({@code __printf_fp}'s {@code PRINT} of at most 20 characters) one {@code outchar} each. An
     * unbuffered stream gets the whole text at once ({@code buffered_vfprintf}).
     */
    @Override
    public void writeNumber(byte[] s, int off, int n, boolean isFloat) throws IOException {
        if (unbuffered) {
            write(s, off, n);
        } else if (isFloat) {
            for (int i = 0; i < n; i++) putc(s[off + i]);
        } else if (n > 1 && s[off] == '-') {
            putc(s[off]);
            write(s, off + 1, n - 1);
        } else {
            write(s, off, n);
        }
    }

    /** {@code _IO_putc_unlocked}. */
    private void putc(byte c) throws VfsException {
        if (buf == null || writePtr >= writeEnd) overflow(c);
        else buf[writePtr++] = c;
    }

    /** {@code _IO_default_xsputn}: into the room there is, the rest a byte at a time through overflow. */
    private void defaultXsputn(byte[] s, int at, int more) throws VfsException {
        while (true) {
            if (writePtr < writeEnd) {
                int count = Math.min(writeEnd - writePtr, more);
                System.arraycopy(s, at, buf, writePtr, count);
                writePtr += count;
                at += count;
                more -= count;
            }
            if (more == 0) return;
            overflow(s[at++]);
            more--;
        }
    }

    // ------------------------------------------------------------------ reading

    /** {@code _IO_switch_to_get_mode}: flushes what waits, then reads from where writing stood. */
    private void switchToGetMode() throws VfsException {
        if (writePtr > writeBase) overflow();
        readBase = 0;
        if (writePtr > readEnd) readEnd = writePtr;
        readPtr = writePtr;
        writeBase = writePtr = writeEnd = readPtr;
        currentlyPutting = false;
    }

    /** {@code _IO_new_file_underflow}: the next block into the buffer; false at the end. */
    private boolean underflow() throws VfsException {
        if (eofSeen) return false;
        if (!fd.readable) {
            error = Errno.EBADF;
            return false;
        }
        if (readPtr < readEnd) return true;
        allocate();
        try {
            switchToGetMode();
        } catch (VfsException e) {
            error = e.errno(); // glibc does not look at what this returns here
        }
        readBase = readPtr = 0;
        readEnd = 0;
        writeBase = writePtr = writeEnd = 0;
        int count;
        try {
            count = fd.read(buf, 0, bufSize());
        } catch (VfsException e) {
            error = e.errno();
            count = -1;
        }
        if (count <= 0) {
            if (count == 0) eofSeen = true;
            offset = POS_BAD;
            return false;
        }
        readEnd = count;
        if (offset != POS_BAD) offset += count;
        return true;
    }

    /** {@code __underflow}. */
    private boolean underflowFromAnyMode() throws VfsException {
        if (currentlyPutting) {
            try {
                switchToGetMode();
            } catch (VfsException e) {
                error = e.errno();
                return false;
            }
        }
        if (readPtr < readEnd) return true;
        return underflow();
    }

    /** getc: {@code _IO_getc_unlocked}, {@code __uflow}. */
    @Override
    public int read() throws IOException {
        if (buf != null && readPtr < readEnd) return buf[readPtr++] & 0xff;
        if (!underflowFromAnyMode()) return -1;
        return buf[readPtr++] & 0xff;
    }

    /** ungetc of the byte just read: {@code _IO_sputbackc}. */
    @Override
    public void unread() {
        if (buf != null && readPtr > readBase) {
            readPtr--;
            eofSeen = false; // a byte put back clears end-of-file, as ungetc does
        }
    }

    /** {@code _IO_file_xsgetn} (fread): up to {@code n} bytes; fewer only at the end of the file. */
    @Override
    public int read(byte[] s, int off, int n) throws IOException {
        int want = n;
        int at = off;
        if (buf == null) allocate();
        while (want > 0) {
            int have = readEnd - readPtr;
            if (want <= have) {
                System.arraycopy(buf, readPtr, s, at, want);
                readPtr += want;
                want = 0;
            } else {
                if (have > 0) {
                    System.arraycopy(buf, readPtr, s, at, have);
                    at += have;
                    want -= have;
                    readPtr += have;
                }
                if (want < bufSize()) {
                    if (!underflowFromAnyMode()) break;
                    continue;
                }
                // a block or more straight from the descriptor; the put area goes too, unflushed
                readBase = readPtr = readEnd = 0;
                writeBase = writePtr = 0;
                writeEnd = 0;
                int count = want;
                if (bufSize() >= 128) count -= want % bufSize();
                try {
                    count = fd.read(s, at, count);
                } catch (VfsException e) {
                    error = e.errno();
                    break;
                }
                if (count <= 0) {
                    eofSeen = true;
                    break;
                }
                at += count;
                want -= count;
                if (offset != POS_BAD) offset += count;
            }
        }
        return n - want;
    }

    /** {@code clearerr}: Lua's {@code g_read} starts with it. */
    @Override
    public void clearError() {
        eofSeen = false;
        error = null;
    }

    /** {@code ferror}: the errno of the latest failure since {@link #clearError}, or null. */
    @Override
    public Errno error() {
        return error;
    }

    // ------------------------------------------------------------------ positioning

    /** {@code fseek} then {@code ftell}, as Lua's {@code f_seek}. */
    @Override
    public long seek(int whence, long off) throws IOException {
        seekoff(off, whence);
        return tell();
    }

    /** {@code _IO_new_file_seekoff} (mode 3). */
    private void seekoff(long off, int dir) throws VfsException {
        boolean mustBeExact = readBase == readEnd && writeBase == writePtr;
        boolean wasWriting = writePtr > writeBase || currentlyPutting;
        if (wasWriting) switchToGetMode();
        if (buf == null) {
            allocate();
            writeBase = writePtr = writeEnd = 0;
            readBase = readPtr = readEnd = 0;
        }
        switch (dir) {
            case SEEK_CUR -> {
                off -= readEnd - readPtr;
                if (offset == POS_BAD) {
                    dumb(off, SEEK_CUR);
                    return;
                }
                off += offset;
                if (off < 0) throw new VfsException(Errno.EINVAL);
                dir = SEEK_SET;
            }
            case SEEK_END -> {
                if (fd.isDirectory()) {
                    dumb(off, SEEK_END);
                    return;
                }
                long size = fd.size();
                if (off > 0 && size + off < size) throw new VfsException(Errno.EINVAL);
                off += size;
                dir = SEEK_SET;
            }
            default -> { }
        }
        if (offset != POS_BAD && buf != null) {
            long startOffset = offset - readEnd;
            if (off >= startOffset && off < offset) {
                readPtr = (int) (off - startOffset);
                writeBase = writePtr = writeEnd = 0;
                eofSeen = false;
                fd.seek(offset, SEEK_SET); // resync
                return;
            }
        }
        if (!fd.readable) {
            dumb(off, dir);
            return;
        }
        long newOffset = off & ~((long) bufSize() - 1);
        long delta = off - newOffset;
        if (delta > bufSize()) {
            newOffset = off;
            delta = 0;
        }
        if (newOffset < 0) throw new VfsException(Errno.EINVAL);
        long result = fd.seek(newOffset, SEEK_SET);
        int count = 0;
        if (delta != 0) {
            try {
                count = fd.read(buf, 0, mustBeExact ? (int) delta : bufSize());
            } catch (VfsException e) {
                count = -1;
            }
            if (count < delta) {
                dumb(count < 0 ? delta : delta - count, SEEK_CUR);
                return;
            }
        }
        readBase = 0;
        readPtr = (int) delta;
        readEnd = count;
        writeBase = writePtr = writeEnd = 0;
        offset = result + count;
        eofSeen = false;
    }

    /** The {@code dumb:} path of seekoff: the descriptor seeks, the buffer is emptied. */
    private void dumb(long off, int dir) throws VfsException {
        long result = fd.seek(off, dir);
        eofSeen = false;
        offset = result;
        readBase = readPtr = readEnd = 0;
        writeBase = writePtr = writeEnd = 0;
    }

    /** {@code do_ftell}. */
    private long tell() throws VfsException {
        long adjust = 0;
        if (buf != null) {
            boolean unflushedWrites = writePtr > writeBase;
            if (unflushedWrites && fd.append) offset = fd.seek(0, SEEK_END);
            if (!unflushedWrites) adjust -= readEnd - readPtr;
            else if (fd.append) adjust += writePtr - writeBase;
            else adjust += writePtr - readEnd;
        }
        long result = offset != POS_BAD ? offset : fd.seek(0, SEEK_CUR);
        result += adjust;
        if (result < 0) throw new VfsException(Errno.EINVAL);
        return result;
    }

    // ------------------------------------------------------------------ flush, buffering, close

    /** {@code _IO_new_file_sync} (fflush). */
    @Override
    public void flush() throws IOException {
        if (writePtr > writeBase) doWrite(writePtr - writeBase);
        int delta = readPtr - readEnd;
        if (delta != 0) {
            fd.seek(delta, SEEK_CUR);
            readEnd = readPtr;
        }
        offset = POS_BAD;
    }

    /** {@code _IO_setvbuf} without a caller's buffer: full and line buffering only change flags; no buffering takes a one-byte buffer. */
    @Override
    public void setvbuf(int mode, long size) throws IOException {
        switch (mode) {
            case FULL_BUFFERING -> {
                lineBuf = false;
                unbuffered = false;
                if (buf == null) allocate();
            }
            case LINE_BUFFERING -> {
                unbuffered = false;
                lineBuf = true;
            }
            default -> {
                lineBuf = false;
                unbuffered = true;
                flush(); // _IO_default_setbuf syncs first
                releaseBuffer();
                buf = new byte[1];
                readBase = readPtr = readEnd = 0;
                writeBase = writePtr = writeEnd = 0;
            }
        }
    }

    /** {@code _IO_new_file_close_it}: flushes what waits; the descriptor is closed even when that fails. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        VfsException failure = null;
        try {
            if (currentlyPutting && writePtr > writeBase) doWrite(writePtr - writeBase);
        } catch (VfsException e) {
            failure = e;
        }
        closeNow();
        if (failure != null) throw failure;
    }

    /** The descriptor, for the session's bookkeeping of open directories. */
    Descriptor descriptor() {
        return fd;
    }

    /** Closes without flushing (the run ended by a limit). */
    void closeNow() {
        if (closed) return;
        closed = true;
        releaseBuffer();
        fd.close();
        session.closed(this);
    }

    private void releaseBuffer() {
        if (held) {
            session.memory().release(BLOCK);
            held = false;
        }
        buf = null;
    }
}
