package dev.luavm.vm;

import dev.luavm.meter.LiveHeapWalker;
import dev.luavm.value.Upvalue;

import java.util.function.Consumer;

/**
 * What the live-heap walk ({@link LiveHeapWalker}) needs from the VM: the roots of a
 * {@link LuaState} (globals, registry, per-type metatables, the main and running coroutines,
 * the builtin running on top) and the contents of a {@link Coroutine} (its register stack, the
 * closures, builtins and handlers of its frames, its open upvalues, its body before the first
 * resume and the coroutine that resumed it). Everything else the walker sizes itself.
 */
public final class LiveRoots {
    private LiveRoots() {}

    /** Pushes every root of {@code st}. */
    public static void push(LuaState st, Consumer<Object> push) {
        push.accept(st.globals);
        push.accept(st.registry);
        push.accept(st.stringMeta);
        push.accept(st.numberMeta);
        push.accept(st.booleanMeta);
        push.accept(st.nilMeta);
        push.accept(st.functionMeta);
        push.accept(st.threadMeta);
        push.accept(st.mainCoroutine);
        push.accept(st.current);
        push.accept(st.runningBuiltin);
    }

    /**
     * The {@link LiveHeapWalker.Extension} for VM objects: a coroutine's size, with everything
     * it references pushed; -1 for anything else. Every register slot is visited, also above
     * the live frames: a stale value there is still held by the JVM, so counting it keeps the
     * cap honest (the VM does not clear registers on return).
     */
    public static long visit(Object o, Consumer<Object> push) {
        if (!(o instanceof Coroutine co)) return -1;
        for (Object v : co.stack) if (v != null) push.accept(v);
        for (int i = 0; i < co.nframes; i++) {
            CallFrame f = co.frames[i];
            push.accept(f.closure);
            push.accept(f.builtin);
            push.accept(f.handler);
        }
        for (Upvalue u = co.openUpvals; u != null; u = u.nextOpen) push.accept(u);
        push.accept(co.body);
        push.accept(co.resumer);
        return co.estimatedBytes();
    }

    /**
     * Between runs, drops the main coroutine's dead registers (everything: no frame is active),
     * as PUC's collector clears a thread's stack above its top, so values of a finished run are
     * not counted as held. Does nothing while Lua code is running.
     */
    public static void clearIdleStack(LuaState st) {
        Coroutine main = st.mainCoroutine;
        if (st.current != main || st.javaDepth != 0 || main.nframes != 0) return;
        java.util.Arrays.fill(main.stack, main.top, main.stack.length, null);
    }
}
