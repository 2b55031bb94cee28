package dev.luavm.vm;

import java.util.concurrent.Callable;

/**
 * Runs a piece of the library's own work on a thread of its own, with a Java stack large enough
 * for it ({@link #STACK_BYTES}), for the host threads whose stack is too small: a thread made
 * with a 128 KiB stack, say, cannot initialise the standard library's classes (their lambdas'
 * bootstrap is deep) or parse a chunk with a function in an argument list (ANTLR's recursive
 * descent), yet the library promises such threads work and never see a
 * {@link StackOverflowError}.
 *
 * <p>Used where the depth needed is bounded and known: finding the capability bundles (class
 * initialisation), compiling, whose nesting the syntax check bounds at PUC's 200 levels
 * (under 768 KiB of stack), and the compiled tier's code generation when the calling thread
 * had no room for it ({@code Tiering}). The caller waits, uninterruptibly (the work is bounded and metered:
 * a cancel or time limit reaches it through its meter), and gets the result, or the exception
 * or error the work threw, as if it had run in place. Nothing is shared but what the task
 * captures; each call has its own short-lived daemon thread.
 */
public final class RoomyStack {
    private RoomyStack() {}

    /** The helper thread's stack: room for the deepest compile (under 768 KiB) with a margin. */
    public static final long STACK_BYTES = 4L << 20;

    /** Runs {@code task} on a thread with {@link #STACK_BYTES} of stack and returns what it returns; rethrows what it throws. */
    public static <T> T call(String what, Callable<T> task) {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                result[0] = task.call();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "luavm-" + what, STACK_BYTES);
        t.setDaemon(true);
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the work is bounded: wait for it, then pass the interrupt on
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Throwable e = failure[0];
        if (e == null) {
            @SuppressWarnings("unchecked")
            T r = (T) result[0];
            return r;
        }
        if (e instanceof RuntimeException re) throw re;
        if (e instanceof Error err) throw err;
        throw new IllegalStateException(what + " failed", e); // a checked exception from the task
    }
}
