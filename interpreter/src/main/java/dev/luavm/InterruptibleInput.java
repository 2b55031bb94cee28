package dev.luavm;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * The host-given input stream of a sandbox ({@code Sandbox.Builder.input}), made interruptible:
 * a read that has to wait for the source waits on a reader thread of the stream's own while the
 * sandbox's thread polls the run's end (its deadline, a cancel) every {@value #POLL_MILLIS} ms,
 * so {@code io.read} on a pipe or terminal that gives nothing ends with the run's time limit or
 * cancel like any other work. A read the source can answer at once ({@code available() > 0})
 * is made directly, with no thread.
 *
 * <p>Nothing is lost: a read still waiting when its run ends stays pending, and what it brings
 * is delivered, in order, to the next read (of a later run). At most one read is pending, so the
 * stream has at most one reader thread, a daemon, started on the first read that has to wait and
 * ended by {@link #close()} (the sandbox closing: it is interrupted, which ends a read of an
 * interruptible source; a read of the process's standard input ends only when input comes or the
 * input is closed, and the thread then ends).
 */
final class InterruptibleInput extends InputStream {
    /** How often a waiting read looks at the run's end. */
    static final long POLL_MILLIS = 10;
    private static final int CHUNK = 8192;

    private final InputStream source;
    /** ends the run (throws) when it is over: the VM's safepoint */
    private volatile Runnable poll = () -> { };

    private final Object lock = new Object();
    // what the reader brought, not yet delivered (guarded by lock)
    private byte[] buffer = new byte[0];
    private int pos;
    private int len;
    private boolean eof;
    private IOException failure;
    /** a read asked of the reader and not answered yet (guarded by lock) */
    private boolean pending;
    private boolean closed;
    private Thread reader;

    InterruptibleInput(InputStream source) {
        this.source = source;
    }

    /** The safepoint a waiting read polls: it throws when the run must end. */
    void poll(Runnable poll) {
        this.poll = poll;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int n) throws IOException {
        java.util.Objects.checkFromIndexSize(off, n, b.length);
        if (n == 0) return 0;
        synchronized (lock) {
            while (true) {
                if (pos < len) {
                    int k = Math.min(n, len - pos);
                    System.arraycopy(buffer, pos, b, off, k);
                    pos += k;
                    return k;
                }
                if (failure != null) {
                    IOException e = failure;
                    failure = null;
                    throw e;
                }
                if (eof) return -1;
                if (closed) throw new IOException("input closed");
                if (!pending) {
                    int ready = available(source);
                    if (ready > 0) return source.read(b, off, Math.min(n, ready)); // answered at once: no thread
                    pending = true;
                    startReader();
                    lock.notifyAll();
                }
                try {
                    lock.wait(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading input");
                }
                // the run's deadline or cancel ends the wait (the poll throws); the read stays pending for a later one
                if (pending) poll.run();
            }
        }
    }

    private static int available(InputStream in) {
        try {
            return in.available();
        } catch (IOException e) {
            return 0; // the reader will see the failure, if there is one
        }
    }

    @Override
    public int available() {
        synchronized (lock) {
            return len - pos;
        }
    }

    private void startReader() {
        if (reader != null) return;
        reader = new Thread(this::readLoop, "luavm-input-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** The reader thread: one source read per pending request. */
    private void readLoop() {
        byte[] chunk = new byte[CHUNK];
        while (true) {
            synchronized (lock) {
                while (!pending && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        if (closed) break;
                    }
                }
                if (closed) {
                    reader = null;
                    return;
                }
            }
            int n;
            IOException f = null;
            try {
                n = source.read(chunk, 0, chunk.length);
            } catch (IOException e) {
                n = 0;
                f = e;
            }
            synchronized (lock) {
                if (n > 0) {
                    buffer = java.util.Arrays.copyOf(chunk, n);
                    pos = 0;
                    len = n;
                } else if (f != null) {
                    failure = f;
                } else if (n < 0) {
                    eof = true;
                }
                pending = false;
                lock.notifyAll();
                if (closed) {
                    reader = null;
                    return;
                }
            }
        }
    }

    /** Ends the reader thread (interrupting a read in progress); the host's stream stays open. */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            if (reader != null) reader.interrupt();
        }
    }
}
