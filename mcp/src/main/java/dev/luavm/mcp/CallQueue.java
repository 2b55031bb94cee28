package dev.luavm.mcp;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * The tool calls of one session, run one at a time in the order they arrived, on a worker thread
 * of the queue's own, while the reader goes on reading (so a cancellation, a ping or the end of
 * input is seen during a long call).
 *
 * <p>The queue is bounded by the bytes of the calls waiting in it: {@link #add} blocks while the
 * bound would be passed (a client that writes faster than its calls run waits on its pipe, as
 * with any stdio peer), but a call alone is always admitted. {@link #endOfInput()} lets the worker
 * finish what is queued and stop; {@link #abort()} drops what is queued and cancels the call in
 * progress. {@link #cancel} ends one call by its key: a queued call is dropped (never run), the
 * running one is told through its {@link CallCancellation}.
 */
final class CallQueue {
    /** Where {@link #cancel} found the call. */
    enum Cancelled { NONE, QUEUED, RUNNING }

    /** One queued call: the request's id key, the size of its frame, what runs it. */
    record Call(String key, long bytes, CallCancellation cancellation, Runnable body) {}

    private final long maxQueuedBytes;
    private final Deque<Call> queue = new ArrayDeque<>();
    private final Thread worker;
    private long queuedBytes;
    private Call running;
    private boolean inputEnded;

    CallQueue(String name, long maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
        this.worker = new Thread(this::work, name);
        worker.setDaemon(true);
    }

    /** Starts the worker. */
    void start() {
        worker.start();
    }

    /** Queues a call; blocks while the queue holds too many bytes. False once the input ended or the queue was aborted. */
    synchronized boolean add(Call call) throws InterruptedException {
        while (!inputEnded && !queue.isEmpty() && queuedBytes + call.bytes() > maxQueuedBytes) wait();
        if (inputEnded) return false;
        queue.addLast(call);
        queuedBytes += call.bytes();
        notifyAll();
        return true;
    }

    /**
     * Cancels the call with {@code key}: a queued one is removed (QUEUED: it will never run); the
     * running one is cancelled (RUNNING). NONE when no such call is queued or running (it finished,
     * or was never queued).
     */
    synchronized Cancelled cancel(String key) {
        if (running != null && running.key().equals(key)) {
            running.cancellation().cancel();
            return Cancelled.RUNNING;
        }
        for (Iterator<Call> it = queue.iterator(); it.hasNext(); ) {
            Call c = it.next();
            if (c.key().equals(key)) {
                it.remove();
                queuedBytes -= c.bytes();
                notifyAll();
                return Cancelled.QUEUED;
            }
        }
        return Cancelled.NONE;
    }

    /** The input has ended: the calls queued still run, then the worker stops. */
    synchronized void endOfInput() {
        inputEnded = true;
        notifyAll();
    }

    /** Drops the queued calls and cancels the running one; the worker stops once it returns. */
    synchronized void abort() {
        queue.clear();
        queuedBytes = 0;
        inputEnded = true;
        if (running != null) running.cancellation().cancel();
        notifyAll();
    }

    /** Waits until the worker has stopped (after {@link #endOfInput()} or {@link #abort()}); at once when it never started. */
    void awaitDone() throws InterruptedException {
        worker.join();
    }

    private void work() {
        while (true) {
            Call call;
            synchronized (this) {
                while (queue.isEmpty() && !inputEnded) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return; // nobody interrupts this thread but a JVM going down
                    }
                }
                if (queue.isEmpty()) return;
                call = queue.removeFirst();
                queuedBytes -= call.bytes();
                running = call;
                notifyAll();
            }
            try {
                call.body().run();
            } catch (RuntimeException e) {
                // a body answers its own failures; one that throws anyway must not stop the calls behind it
            } finally {
                synchronized (this) {
                    running = null;
                }
            }
        }
    }
}
