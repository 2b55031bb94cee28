package dev.luavm.lib;

import java.io.IOException;

/**
 * An open file of the sandbox's file system as the {@code io} library sees it: a C stdio stream
 * ({@code FILE*}) over a VFS file, buffered as glibc buffers one (4 KiB, full buffering by
 * default, {@code setvbuf}'s three modes), with one logical position shared by reads and writes.
 * Failures are {@link dev.luavm.vfs.VfsException}s naming the errno lua5.3 reports.
 */
public interface FileStream {
    /** {@code setvbuf} modes */
    int NO_BUFFERING = 0;
    int FULL_BUFFERING = 1;
    int LINE_BUFFERING = 2;
    /** {@code seek} origins */
    int SEEK_SET = 0;
    int SEEK_CUR = 1;
    int SEEK_END = 2;

    /** getc: the next byte, or -1 at the end of the file or on a failure ({@link #error()} says which). */
    int read() throws IOException;

    /** Puts back the byte {@link #read()} just returned ({@code ungetc}). */
    void unread();

    /** {@code fread}: up to {@code len} bytes into {@code b}, fewer only at the end of the file or on a failure. */
    int read(byte[] b, int off, int len) throws IOException;

    /** {@code clearerr}: forgets the end-of-file seen and the failure (Lua's reads start with it). */
    void clearError();

    /** {@code ferror} with {@code errno}: the latest read failure since {@link #clearError()}, or null. */
    dev.luavm.vfs.Errno error();

    /** Writes {@code len} bytes (buffered; a failure may show here or at a later flush). */
    void write(byte[] b, int off, int len) throws IOException;

    /**
     * {@code fprintf} of a number Lua formatted ({@code "%lld"}, or {@code "%.14g"} when
     * {@code isFloat}): glibc writes an integer's sign with {@code putc} and its digits with one
     * {@code fwrite}, and a float's characters one {@code putc} each, which can flush at other
     * moments than a plain write would.
     */
    void writeNumber(byte[] b, int off, int len, boolean isFloat) throws IOException;

    /** {@code fseek} then {@code ftell}: the new position. */
    long seek(int whence, long offset) throws IOException;

    void flush() throws IOException;

    /** {@code setvbuf}: one of the three modes; {@code size} as C's, which glibc ignores without a buffer of the caller's. */
    void setvbuf(int mode, long size) throws IOException;

    /** Flushes and closes; closed even when the flush fails (whose failure is then thrown). */
    void close() throws IOException;

    boolean isClosed();

    /** A number for {@code tostring}'s {@code file (0x...)}: the same on every run of the same script. */
    long address();
}
