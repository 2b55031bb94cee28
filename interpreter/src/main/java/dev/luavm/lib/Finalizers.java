package dev.luavm.lib;

import dev.luavm.meter.Collector;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;

/**
 * Runs the {@code __gc} finalizers the collector has queued ({@link Collector}), from a builtin
 * ({@code collectgarbage}, or any builtin call after a memory-pressure walk queued some:
 * {@code Calls.callBuiltin}), one after the other, each as a call of the running builtin: one
 * level above it on the Java stack, never more, since a collection that starts while
 * finalizers run leaves the new ones queued for the outer loop (PUC stops the collector during
 * a finalizer in the same way).
 *
 * <p>An error in a finalizer propagates, as in PUC 5.3, as {@code error in __gc metamethod (msg)}
 * ({@code no message} for an error value that is not a string) from the call that ran it; the
 * finalizers after it stay queued for the next collection. A {@code __gc} that is not a
 * function when the object is finalized is skipped. Gas, time and cancellation end the run as
 * anywhere else.
 */
public final class Finalizers {
    private Finalizers() {}

    /** Runs every finalizer due, unless finalizers are already running below this call. */
    public static void runPending(CallContext c) {
        Collector gc = c.memory().collector();
        if (gc == null || !gc.hasPending() || !gc.enterFinalizers()) return;
        try {
            Object o;
            while ((o = gc.nextToFinalize()) != null) {
                Object f = Collector.finalizerOf(o);
                if (!(f instanceof LuaFunction)) continue;
                try {
                    c.callImplicitly(f, o);
                } catch (LuaError e) {
                    throw LuaError.of("error in __gc metamethod (" + message(e.value()) + ")");
                }
            }
        } finally {
            gc.exitFinalizers();
        }
    }

    /** The message of a finalizer's error as GCTM gives it. */
    public static String message(Object errorValue) {
        return errorValue instanceof LuaString s ? s.toString() : "no message";
    }
}
