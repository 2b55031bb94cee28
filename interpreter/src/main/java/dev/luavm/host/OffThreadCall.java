package dev.luavm.host;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * One host call run on a {@link HostThreads} thread: the exchange between the sandbox's thread,
 * which waits ({@link HostGateway}), and the host-call thread, which runs the function.
 *
 * <p>The sandbox's state is never touched by two threads at once. While the function runs, the
 * sandbox's thread does nothing but wait; what the function asks of the sandbox goes one of two
 * ways:
 * <ul>
 *   <li>a quick look or charge ({@link HostCall#chargeGas}, the caller's position, the elapsed
 *       time) runs on the host-call thread under {@link #IN_VM}: the sandbox's thread never
 *       gives the call up in the middle of one;</li>
 *   <li>Lua code ({@link HostCall#callLua}) runs on the sandbox's thread ({@link #onSandboxThread}):
 *       the host-call thread hands it over ({@link #CALLBACK}) and waits for the answer, so the
 *       VM only ever runs on the sandbox's thread.</li>
 * </ul>
 * The call ends {@link #DONE} (the function returned or threw: its outcome is handed back) or
 * {@link #ABANDONED}: the run's deadline or a cancel came, the function was interrupted, and it
 * did not return within the grace the gateway gives it. An abandoned call's outcome is dropped
 * when the function returns, and everything it asks of the sandbox from then on fails.
 */
final class OffThreadCall {
    /** the function is running on the host-call thread */
    static final int RUNNING = 0;
    /** the host-call thread is charging gas or reading the sandbox's state for the function */
    static final int IN_VM = 1;
    /** the host-call thread waits for Lua code it handed to the sandbox's thread */
    static final int CALLBACK = 2;
    /** the function returned or threw; its outcome is here */
    static final int DONE = 3;
    /** the sandbox's thread gave the call up; its outcome will be dropped */
    static final int ABANDONED = 4;

    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final HostGateway gateway;
    private final HostFunction function;
    private final HostCall call;
    private final Thread sandboxThread;
    private final ClassLoader contextClassLoader;
    /** told when an abandoned call's function finally returns */
    private final Runnable onAbandonedReturn;
    /** the thread running the function, once it took the call (guarded by this, for interrupts) */
    private volatile Thread worker;
    /** the sandbox's thread asked for an interrupt, maybe before the worker took the call (guarded by this) */
    private boolean interruptAsked;

    // the outcome, written by the worker before DONE (read after it)
    private Object result;
    private Throwable failure;

    // a callback, handed over with CALLBACK (written before it, read after it)
    private Supplier<?> request;
    private Object answer;
    private Throwable answerFailure;
    /** a Java error (stack, heap) in Lua code called back: the run ends with it, whatever the function does */
    private Error fatal;

    OffThreadCall(HostGateway gateway, HostFunction function, HostCall call, Runnable onAbandonedReturn) {
        this.gateway = gateway;
        this.function = function;
        this.call = call;
        this.sandboxThread = Thread.currentThread();
        this.contextClassLoader = sandboxThread.getContextClassLoader();
        this.onAbandonedReturn = onAbandonedReturn;
    }

    int state() {
        return state.get();
    }

    /** The gateway whose sandbox made the call. */
    HostGateway gateway() {
        return gateway;
    }

    ClassLoader contextClassLoader() {
        return contextClassLoader;
    }

    // ---- the host-call thread

    /** Runs the function on {@code me} and hands its outcome back (or drops it, if abandoned). */
    void runOn(Thread me) {
        synchronized (this) {
            worker = me;
            if (state.get() != RUNNING) { // given up before it began: the function never runs
                onAbandonedReturn.run();
                return;
            }
            if (interruptAsked) me.interrupt(); // the deadline came before this thread took the call
        }
        Object r = null;
        Throwable t = null;
        try {
            r = function.call(call);
        } catch (Throwable e) {
            t = e;
        }
        boolean done;
        synchronized (this) { // no interrupt meant for this call arrives after it
            result = r;
            failure = t;
            done = state.compareAndSet(RUNNING, DONE);
            Thread.interrupted();
        }
        if (done) {
            LockSupport.unpark(sandboxThread);
        } else {
            result = null; // abandoned: nobody will ever read it
            failure = null;
            onAbandonedReturn.run();
        }
    }

    /** True on the thread running this call's function, while it runs. */
    boolean isWorker() {
        return Thread.currentThread() == worker;
    }

    /**
     * Runs {@code action} (quick, no Lua code) on the host-call thread with the sandbox's thread
     * held off; fails once the call was abandoned.
     */
    <T> T inVm(Supplier<T> action) {
        if (!state.compareAndSet(RUNNING, IN_VM)) throw gone();
        try {
            return action.get();
        } finally {
            state.set(RUNNING);
        }
    }

    /** Runs {@code task} on the sandbox's thread and returns its result (or throws what it threw). */
    Object onSandboxThread(Supplier<?> task) {
        request = task;
        answer = null;
        answerFailure = null;
        if (!state.compareAndSet(RUNNING, CALLBACK)) throw gone();
        LockSupport.unpark(sandboxThread);
        boolean interrupted = false;
        while (state.get() == CALLBACK) {
            LockSupport.park(this);
            // the deadline's interrupt reaches the Lua code through the VM: keep it for the function
            if (Thread.interrupted()) interrupted = true;
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (state.get() == ABANDONED) throw gone();
        Throwable f = answerFailure;
        Object a = answer;
        answerFailure = null;
        answer = null;
        if (f instanceof RuntimeException e) throw e;
        if (f instanceof Error e) throw e;
        return a;
    }

    private static IllegalStateException gone() {
        return new IllegalStateException("HostCall used after its call ended (abandoned at the run's deadline or cancel)");
    }

    // ---- the sandbox's thread

    /**
     * Runs the callback handed over ({@link #CALLBACK}) here and hands the answer (or what it
     * threw) back; true when the callback ended the run (the VM's termination: gas, time,
     * cancel), which the function now sees thrown from its call back.
     */
    boolean serve() {
        Supplier<?> task = request;
        request = null;
        boolean ended = false;
        try {
            answer = task.get();
        } catch (dev.luavm.vm.LuaTermination e) {
            answerFailure = e;
            ended = true;
        } catch (Error e) {
            answerFailure = e;
            fatal = e;
            ended = true;
        } catch (RuntimeException e) {
            answerFailure = e;
        } finally {
            state.set(RUNNING);
            LockSupport.unpark(worker);
        }
        return ended;
    }

    /** Interrupts the function (as soon as it starts, if it has not yet), unless its call is over. */
    synchronized void interrupt() {
        interruptAsked = true;
        int s = state.get();
        if (s != DONE && s != ABANDONED && worker != null) worker.interrupt();
    }

    /** Gives the call up; false when it is done (or busy in the VM for a moment: try again). */
    boolean abandon() {
        return state.compareAndSet(RUNNING, ABANDONED) || state.compareAndSet(CALLBACK, ABANDONED);
    }

    /** The function's result (after {@link #DONE}), or throws what it threw. */
    Object outcome() throws Exception {
        if (fatal != null) throw fatal;
        Throwable t = failure;
        if (t == null) return result;
        if (t instanceof Exception e) throw e;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }
}
