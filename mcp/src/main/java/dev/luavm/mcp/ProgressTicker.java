package dev.luavm.mcp;

import io.modelcontextprotocol.spec.McpSchema;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * MCP progress notifications for one long call, sent only when the client asked for them (a
 * {@code progressToken} in the request's {@code _meta}): every {@code interval} while the call
 * runs, {@code progress} is the milliseconds it has run (strictly increasing, as the spec asks),
 * {@code total} its time limit in milliseconds, and {@code message} says the same in words.
 * None is sent once {@link #close()} has returned, so the last one always precedes the answer, nor
 * once the call is cancelled.
 */
final class ProgressTicker implements AutoCloseable {
    private final Object token;
    private final long startNanos = System.nanoTime();
    private final long totalMillis;
    private final CallCancellation cancellation;
    private final Consumer<McpSchema.ProgressNotification> send;
    private ScheduledFuture<?> future;
    private long last = -1;
    private boolean stopped;

    private ProgressTicker(Object token, Duration limit, CallCancellation cancellation,
                           Consumer<McpSchema.ProgressNotification> send) {
        this.token = token;
        this.totalMillis = limit.toMillis();
        this.cancellation = cancellation;
        this.send = send;
    }

    /** Starts ticking when {@code token} is not null; the returned ticker is closed when the call ends. */
    static ProgressTicker start(ScheduledExecutorService timer, Object token, Duration interval, Duration limit,
                                CallCancellation cancellation, Consumer<McpSchema.ProgressNotification> send) {
        ProgressTicker t = new ProgressTicker(token, limit, cancellation, send);
        if (token != null) {
            long every = Math.max(1, interval.toMillis());
            synchronized (t) {
                t.future = timer.scheduleAtFixedRate(t::tick, every, every, TimeUnit.MILLISECONDS);
            }
        }
        return t;
    }

    private synchronized void tick() {
        if (stopped || cancellation.cancelled()) return;
        long ms = Math.max(last + 1, (System.nanoTime() - startNanos) / 1_000_000);
        last = ms;
        String message = String.format(java.util.Locale.ROOT, "running for %.1f s of its %.1f s time limit",
                ms / 1000.0, totalMillis / 1000.0);
        try {
            send.accept(new McpSchema.ProgressNotification(token, (double) ms, (double) totalMillis, message));
        } catch (RuntimeException e) {
            stopped = true; // the client's end is gone: the call's own answer will say so, or nothing will
        }
    }

    /** Stops: when this returns, no notification is being sent and none will be. */
    @Override
    public synchronized void close() {
        stopped = true;
        if (future != null) future.cancel(false);
    }
}
