package dev.luavm.vm;

import dev.luavm.meter.LiveHeapWalker;
import dev.luavm.value.Upvalue;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * What the live-heap walk ({@link LiveHeapWalker}) needs from the VM: the roots of a
 * {@link LuaState} (globals, registry, per-type metatables, the main and running coroutines,
 * the builtin running on top) and the contents of a {@link Coroutine} (its live registers, the
 * closures, builtins and handlers of its live frames, its open upvalues, its body before the
 * first resume and the coroutine that resumed it). Everything else the walker sizes itself;
 * builtins that hold Lua values (wrap functions, gmatch iterators) report them themselves.
 *
 * <h2>Live registers</h2>
 * A coroutine's registers are live up to its <em>live top</em>: the highest of {@code top} and,
 * for every frame below {@code nframes}, the end of its registers ({@code base + maxStackSize}
 * for a Lua frame; the function slot and first argument for a marker, whose callee runs above
 * it). Slots above belong to frames that returned. As the atomic phase of PUC's collector
 * clears a thread's stack above its top, the walk counts only the live part and clears the rest,
 * and clears the references of the frame objects above {@code nframes} and of the coroutine's
 * spare builtin context: what the walk did not count, the JVM no longer keeps. Every VM path
 * that puts values above the live top first raises {@code top} or pushes the frame that covers
 * them, and charges memory (which may start a walk) only before writing or after covering them.
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
        push.accept(st.handlerRaiser);
    }

    /**
     * The {@link LiveHeapWalker.Extension} for VM objects: a coroutine's size, with everything
     * it references pushed; -1 for anything else. Dead registers and popped frames are cleared
     * on the way (see the class comment).
     */
    public static long visit(Object o, Consumer<Object> push) {
        return visit(null, o, push);
    }

    /**
     * As {@link #visit(Object, Consumer)}, knowing the state: while a plain builtin runs for the
     * running coroutine's top Lua frame (OP_CALL), that frame's registers above the builtin's
     * arguments are dead, as above PUC's {@code L->top} during a C call (the compiler puts a call
     * at the first free register), so a loop's temporaries do not keep objects alive for the
     * collector.
     */
    public static long visit(LuaState st, Object o, Consumer<Object> push) {
        if (!(o instanceof Coroutine co)) return -1;
        Object[] s = co.stack;
        int live = liveTop(co, st != null && st.current == co && st.runningBuiltin != null);
        for (int i = 0; i < live; i++) {
            Object v = s[i];
            if (v != null) push.accept(v);
        }
        Arrays.fill(s, live, s.length, null);
        CallFrame[] fs = co.frames;
        for (int i = 0; i < co.nframes; i++) {
            CallFrame f = fs[i];
            push.accept(f.closure);
            push.accept(f.builtin);
            push.accept(f.handler);
        }
        for (int i = co.nframes; i < fs.length && fs[i] != null; i++) fs[i].clearRefs();
        // a spare context is never in use; the builtin it last ran (a gmatch iterator, say) is not held
        if (co.spareCtx != null) co.spareCtx.fn = null;
        for (Upvalue u = co.openUpvals; u != null; u = u.nextOpen) push.accept(u);
        push.accept(co.body);
        push.accept(co.resumer);
        return co.estimatedBytes();
    }

    /** One past the highest register of {@code co} that a live frame or {@code top} covers. */
    static int liveTop(Coroutine co) {
        return liveTop(co, false);
    }

    /**
     * As above; {@code builtinOnTop}: a plain builtin runs for the top frame, whose live registers
     * then end at {@code top}. A Lua frame below another frame whose function sits inside its
     * registers (a call made by OP_CALL) likewise holds only the registers below that function.
     */
    static int liveTop(Coroutine co, boolean builtinOnTop) {
        int live = co.top;
        CallFrame[] fs = co.frames;
        int n = co.nframes;
        for (int i = 0; i < n; i++) {
            CallFrame f = fs[i];
            int end = f.kind == CallFrame.LUA ? f.base + f.closure.proto.maxStackSize : f.func + 2;
            if (f.kind == CallFrame.LUA) {
                int callee = i + 1 < n ? fs[i + 1].func : builtinOnTop ? co.top : -1;
                if (callee >= f.base && callee < end) end = callee;
            }
            if (end > live) live = end;
        }
        return Math.min(live, co.stack.length);
    }

    /**
     * Between runs, drops the main coroutine's dead registers (everything: no frame is active)
     * and the references of its popped frames, as PUC's collector clears a thread's stack above
     * its top, so values of a finished run are neither counted nor kept, and gives back the
     * stacks a deep run grew ({@link Coroutine#shrinkStacks}). Does nothing while Lua code is
     * running.
     */
    public static void clearIdleStack(LuaState st) {
        Coroutine main = st.mainCoroutine;
        if (st.current != main || st.javaDepth != 0 || main.nframes != 0) return;
        Arrays.fill(main.stack, main.top, main.stack.length, null);
        CallFrame[] fs = main.frames;
        for (int i = 0; i < fs.length && fs[i] != null; i++) fs[i].clearRefs();
        if (main.spareCtx != null) main.spareCtx.fn = null;
        main.shrinkStacks(); // a deep run's stacks are not the sandbox's to keep
    }
}
