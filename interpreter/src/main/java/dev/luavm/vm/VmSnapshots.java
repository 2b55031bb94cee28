package dev.luavm.vm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.Heat;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;

/**
 * What a snapshot ({@code dev.luavm.snapshot}) reads from and writes into a {@link LuaState}
 * beyond the values themselves: the roots, the coroutines ({@link CoroutineImage}), closures
 * with their place in the sandbox's tiering cells, {@code coroutine.wrap} functions, and the
 * state of a run paused at a host call. Nothing here runs Lua code.
 */
public final class VmSnapshots {
    private VmSnapshots() {}

    /** The state's roots in snapshot order: globals, registry, then the string, number, boolean, nil, function and thread metatables. */
    public static LuaTable[] roots(LuaState st) {
        return new LuaTable[] {st.globals, st.registry, st.stringMeta, st.numberMeta, st.booleanMeta, st.nilMeta,
            st.functionMeta, st.threadMeta};
    }

    /** Number of entries {@link #roots} gives. */
    public static final int ROOTS = 8;

    /** Installs restored roots (same order as {@link #roots}); globals and registry must be tables. */
    public static void restoreRoots(LuaState st, LuaTable[] roots) {
        st.globals = java.util.Objects.requireNonNull(roots[0]);
        st.registry = java.util.Objects.requireNonNull(roots[1]);
        st.stringMeta = roots[2];
        st.numberMeta = roots[3];
        st.booleanMeta = roots[4];
        st.nilMeta = roots[5];
        st.functionMeta = roots[6];
        st.threadMeta = roots[7];
    }

    /** The coroutine running now: the main one between runs, the one that called the host function in a paused run. */
    public static Coroutine current(LuaState st) {
        return st.current;
    }

    /** Makes {@code co} the running coroutine of a state being restored for a paused run. */
    public static void restoreCurrent(LuaState st, Coroutine co) {
        st.current = co;
    }

    /** The most frames a coroutine of {@code st} may hold (its call depth, plus the room kept for message handlers). */
    public static int maxFrames(LuaState st) {
        return st.maxCallDepth + LuaState.HANDLER_EXTRA_FRAMES;
    }

    /**
     * Lets runs of {@code st} pause at host calls: {@code handler} takes the snapshot when one
     * does (on the sandbox's thread, inside the run, with the VM state as the pause left it).
     */
    public static void onPause(LuaState st, java.util.function.Consumer<RunPaused> handler) {
        st.pauseHandler = handler;
    }

    /** The builtin of a restored paused run's pending call (the marker on top of the running coroutine), or null. */
    public static Object pausedCall(LuaState st) {
        CallFrame m = st.current.topFrame();
        return m != null && m.kind == CallFrame.SUSPEND ? m.builtin : null;
    }

    /** The register stack of {@code co} (its open upvalues point into it). */
    public static Object[] stackOf(Coroutine co) {
        return co.stack;
    }

    /** The coroutine {@code co} was resumed by, while it runs or is normal. */
    public static Coroutine resumer(Coroutine co) {
        return co.resumer;
    }

    /**
     * A closure of {@code p}, nested in main prototype {@code main} at {@code path} (child
     * indices from the main function), with room for its upvalues; it shares the state's tiering
     * cell for {@code p} with the other closures of {@code p}, as a closure made by the VM would,
     * or, for the code of a module, the cell under {@code moduleRoot} (the module's root cell,
     * {@link Heat#ofModule}). Charged as the VM charges a closure.
     */
    public static LuaClosure newClosure(LuaState st, Prototype main, int[] path, Prototype p, Heat moduleRoot) {
        st.memory.charge(Sizes.CLOSURE_HEADER + p.upvalues.length * Sizes.REF);
        Heat h = moduleRoot != null ? moduleRoot : st.heatOf(main);
        Prototype parent = main;
        for (int idx : path) {
            h = h.child(parent, idx);
            parent = parent.protos[idx];
        }
        return new LuaClosure(p, new Upvalue[p.upvalues.length], h);
    }

    /** A closure's cache of child closures (see {@link LuaClosure#childCache}), made and charged as the VM makes it. */
    public static LuaClosure[] newChildCache(LuaState st, LuaClosure cl) {
        st.memory.charge((long) cl.proto.protos.length * Sizes.REF);
        LuaClosure[] cache = new LuaClosure[cl.proto.protos.length];
        cl.childCache = cache;
        return cache;
    }

    /** True for a function made by {@code coroutine.wrap}. */
    public static boolean isWrap(Object v) {
        return v instanceof Intrinsics.WrapFn;
    }

    /** The coroutine of a {@code coroutine.wrap} function. */
    public static Coroutine wrapped(Object wrap) {
        return ((Intrinsics.WrapFn) wrap).co;
    }

    /** A {@code coroutine.wrap} function of {@code co}, charged as {@code coroutine.wrap} charges it. */
    public static Builtin newWrap(LuaState st, Coroutine co) {
        st.memory.charge(Sizes.CLOSURE_HEADER);
        return new Intrinsics.WrapFn(co);
    }
}
