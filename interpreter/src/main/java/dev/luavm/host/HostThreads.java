package dev.luavm.host;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads host functions run on ({@link HostGateway}): daemon threads shared by every
 * sandbox in the JVM, each running one host call at a time, so that a call the sandbox gives up
 * at its deadline holds a thread of this pool, never the sandbox's own thread.
 *
 * <h2>Design</h2>
 * A host call takes an idle thread (the most recently used first, so a loop of calls keeps
 * reusing one warm thread), hands it the call ({@link OffThreadCall}) and waits; the thread runs
 * the function, hands the outcome back and goes back to the idle list. After a call a thread
 * waits busily for {@link #WORKER_SPIN_NANOS} for the next one before it parks (on a machine
 * with more than one processor), and so does the sandbox's thread for the result, so that a
 * loop of quick host calls on an idle machine pays a few hundred nanoseconds per call rather
 * than two context switches; on an oversubscribed machine each hand-over waits for the
 * scheduler (benchmarks: {@code HostCallBenchmark}; docs/API.md). An idle thread ends after
 * {@link #KEEP_ALIVE_NANOS}.
 *
 * <h2>Bounds</h2>
 * At most {@link #MAX_THREADS} threads live at once, idle, running or abandoned. A call that is
 * abandoned at its run's deadline keeps its thread until its function returns; then the
 * result is dropped and the thread is idle again. A function that never returns keeps its
 * thread for good: that is why the count is bounded, here and per sandbox
 * ({@link HostGateway#MAX_ABANDONED}). When the bound is hit, a host call is refused (a Lua
 * error the script may catch, the cause a {@link java.util.concurrent.RejectedExecutionException})
 * rather than run on the sandbox's thread, where it could hold the run past its deadline.
 *
 * <p>The threads hold no state a script can see or change: only the call in progress, whose
 * function is the host's and whose {@link HostCall} touches the sandbox only through the
 * exchange's rules.
 */
final class HostThreads {
    private HostThreads() {}

    /** Threads alive at once, whatever they are doing. */
    static final int MAX_THREADS = 1024;
    /** How long an idle thread waits for a call before it ends. */
    static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long a thread spins for its next call before it parks (0 on one processor). */
    static final long WORKER_SPIN_NANOS = Runtime.getRuntime().availableProcessors() > 1 ? 50_000 : 0;

    private static final Object LOCK = new Object();
    /** idle threads, the most recently used last (guarded by LOCK) */
    private static final ArrayDeque<Worker> IDLE = new ArrayDeque<>();
    /** live threads (guarded by LOCK) */
    private static int live;
    /** threads ever started, for their names (guarded by LOCK) */
    private static long started;

    /** An idle thread, or a new one; null when {@link #MAX_THREADS} threads are alive. */
    static Worker take() {
        long n;
        synchronized (LOCK) {
            Worker w = IDLE.pollLast();
            if (w != null) return w;
            if (live >= MAX_THREADS) return null;
            live++;
            n = ++started;
        }
        Worker w = new Worker("luavm-host-call-" + n);
        w.start();
        return w;
    }

    /**
     * One step of a short wait for the other thread of an exchange: a spin at first, then a
     * yield, which lets that thread run on this processor when the machine is oversubscribed.
     */
    static void pause(long waitedNanos) {
        if (waitedNanos < 2_000) Thread.onSpinWait();
        else Thread.yield();
    }

    /** Threads alive now (for tests and the soak benchmark's report). */
    static int live() {
        synchronized (LOCK) {
            return live;
        }
    }

    /** A thread of the pool: runs the calls handed to it, one at a time. */
    static final class Worker extends Thread {
        /** the call handed over and not yet taken, or null */
        private volatile OffThreadCall next;
        /** the call running now, or null (read by other threads to tell a host-call thread's sandbox) */
        volatile OffThreadCall current;

        private Worker(String name) {
            super(null, null, name, 0, false);
            setDaemon(true);
        }

        /** Hands {@code call} to this (idle, taken) thread. */
        void hand(OffThreadCall call) {
            next = call;
            LockSupport.unpark(this);
        }

        @Override
        public void run() {
            while (true) {
                OffThreadCall call = awaitCall();
                if (call == null) {
                    if (retire()) return;
                    continue; // taken while it timed out: its call is on the way
                }
                current = call;
                Thread.interrupted(); // an interrupt meant for the previous call ends with it
                setContextClassLoader(call.contextClassLoader());
                call.runOn(this);
                current = null;
                Thread.interrupted();
                setContextClassLoader(null);
                synchronized (LOCK) {
                    IDLE.addLast(this);
                }
            }
        }

        private OffThreadCall awaitCall() {
            long start = System.nanoTime();
            OffThreadCall c;
            while ((c = next) == null) {
                long waited = System.nanoTime() - start;
                if (waited < WORKER_SPIN_NANOS) {
                    pause(waited);
                } else if (waited >= KEEP_ALIVE_NANOS) {
                    return null;
                } else {
                    LockSupport.parkNanos(this, KEEP_ALIVE_NANOS - waited);
                    Thread.interrupted(); // nobody may interrupt an idle thread into spinning
                }
            }
            next = null;
            return c;
        }

        /** Ends this thread if it is still idle; false when it was taken meanwhile. */
        private boolean retire() {
            synchronized (LOCK) {
                if (!IDLE.remove(this)) return false;
                live--;
                return true;
            }
        }
    }
}
