package dev.luavm.host;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread per JVM that interrupts host functions still running at their run's
 * deadline ({@link HostGateway}). It holds only the pending interrupts, which no script can
 * see or change; a cancelled interrupt is removed at once.
 */
final class Watchdog {
    private Watchdog() {}

    private static final class Holder {
        static final ScheduledThreadPoolExecutor TIMER = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
                Thread th = new Thread(r, "luavm-host-call-watchdog");
                th.setDaemon(true);
                return th;
            });
            t.setRemoveOnCancelPolicy(true);
            return t;
        }
    }

    static ScheduledFuture<?> schedule(Runnable task, long nanos) {
        return Holder.TIMER.schedule(task, nanos, TimeUnit.NANOSECONDS);
    }
}
