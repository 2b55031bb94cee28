package dev.luavm.host;

import dev.luavm.LuaConversionException;
import dev.luavm.lib.CallContext;
import dev.luavm.value.Builtin;
import dev.luavm.vm.LuaError;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * The one door from Lua into host code. Every granted {@link HostFunction} is installed as a
 * {@link Builtin} made by {@link #wrap}, so every call passes through {@link #invoke}, which in
 * order: charges gas, converts the arguments to Java, asks the {@link HostCallPolicy}, runs the
 * function (interruptible by {@link #cancel()}), checks for cancellation, and converts the
 * results back. Both conversions charge gas before their work: 1 per value and 1 per 8 bytes
 * of every string ({@link ValueConverter}).
 *
 * <p>Errors: a {@link HostFunctionException} becomes a Lua error with its message; a Lua error
 * or the VM's run-ending signals pass through untouched; any other exception becomes the Lua
 * error {@code host function 'name' failed}, naming no Java class, while the exception is kept
 * here ({@link #causeOf}) so the host can find it again on the {@code LuaScriptException}.
 *
 * <p>One gateway per sandbox. {@link #cancel()} may be called from any thread.
 */
public final class HostGateway {
    /** Gas for entering a host function, on top of the conversions' work either way. */
    public static final long CALL_GAS = 20;
    /** How many host exceptions are remembered for {@link #causeOf}. */
    private static final int REMEMBERED_CAUSES = 16;

    private final String sandboxName;
    private final HostCallPolicy policy;
    private final ValueConverter converter;
    private final Runnable safepoint;

    private final Object lock = new Object();
    /** the thread running a host function right now, or null (guarded by lock) */
    private Thread hostThread;
    private volatile boolean cancelled;
    private final ArrayDeque<Map.Entry<Object, Throwable>> causes = new ArrayDeque<>();

    /**
     * @param safepoint polls the VM's cancellation flag, clock and gas after each host function
     *                  returns (it throws the VM's termination when the run must end)
     */
    public HostGateway(String sandboxName, HostCallPolicy policy, ValueConverter converter, Runnable safepoint) {
        this.sandboxName = sandboxName;
        this.policy = policy;
        this.converter = converter;
        this.safepoint = safepoint;
        converter.setGateway(this);
    }

    /** A Lua function that calls {@code fn} through this gateway. */
    public Builtin wrap(String name, HostFunction fn) {
        return Builtin.of(name, c -> invoke(name, fn, c));
    }

    private int invoke(String name, HostFunction fn, CallContext c) {
        int n = c.nargs();
        c.chargeGas(CALL_GAS);
        Object[] raw = new Object[n];
        for (int i = 0; i < n; i++) raw[i] = c.arg(i + 1);
        List<Object> args;
        try {
            args = converter.toJavaAll(raw, 0, n, c::chargeGas);
        } catch (LuaConversionException e) {
            throw c.error("bad argument to '" + name + "' (" + e.getMessage() + ")");
        }
        HostCall call = new HostCall(sandboxName, name, args, c, this);
        HostCallPolicy.Decision decision = policy.check(call);
        if (!decision.allowed()) throw c.error("host function '" + name + "' denied: " + decision.reason());

        Object result;
        enter();
        try {
            result = fn.call(call);
        } catch (HostFunctionException e) {
            throw remember(c.error(e.getMessage() == null ? "host function '" + name + "' failed" : e.getMessage()), e);
        } catch (LuaError e) {
            throw e;
        } catch (InterruptedException e) {
            result = null;
            if (!cancelled) throw remember(c.error("host function '" + name + "' failed"), e);
        } catch (Exception e) {
            if (isRunSignal(e)) throw (RuntimeException) e;
            throw remember(c.error("host function '" + name + "' failed"), e);
        } finally {
            call.finish();
            exit();
        }
        safepoint.run(); // a cancel or the deadline during the host call ends the run here

        List<?> values = result instanceof Results r ? r.values() : java.util.Collections.singletonList(result);
        Object[] lua;
        try {
            lua = converter.toLuaAll(values, c::chargeGas);
        } catch (LuaConversionException e) {
            throw c.error("host function '" + name + "' returned an unconvertible value (" + e.getMessage() + ")");
        }
        return c.retArray(lua, lua.length);
    }

    /**
     * True for the VM's run-ending signal (gas, time, cancellation, output), which must cross
     * host code untouched.
     */
    private static boolean isRunSignal(Exception e) {
        return e instanceof dev.luavm.vm.LuaTermination;
    }

    private LuaError remember(LuaError error, Throwable cause) {
        synchronized (causes) {
            if (causes.size() == REMEMBERED_CAUSES) causes.removeFirst();
            causes.addLast(Map.entry(error.value(), cause));
        }
        return error;
    }

    /**
     * The host exception behind a Lua error value raised by this gateway, or null. Found by the
     * identity of the error value, so it survives a script catching and re-raising the error.
     */
    public Throwable causeOf(Object errorValue) {
        if (errorValue == null) return null;
        synchronized (causes) {
            for (Map.Entry<Object, Throwable> e : causes) {
                if (e.getKey() == errorValue) return e.getValue();
            }
        }
        return null;
    }

    private void enter() {
        synchronized (lock) {
            hostThread = Thread.currentThread();
        }
    }

    private void exit() {
        synchronized (lock) {
            hostThread = null;
            // an interrupt meant for the host function must not outlive it
            if (cancelled) Thread.interrupted();
        }
    }

    /** Marks the sandbox cancelled and interrupts a host function that is running. Any thread. */
    public void cancel() {
        synchronized (lock) {
            cancelled = true;
            if (hostThread != null) hostThread.interrupt();
        }
    }

    /** Clears the cancelled mark before a new run. */
    public void reset() {
        cancelled = false;
    }

    public boolean isCancelled() {
        return cancelled;
    }
}
