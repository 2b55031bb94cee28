package dev.luavm.vm;

import dev.luavm.meter.Sizes;
import dev.luavm.value.Upvalue;

/**
 * A Lua thread ({@code type(co) == "thread"}): its own register stack and frame stack, switched
 * by the dispatch loop without any Java thread (VM rule 3, threat T15).
 *
 * <h2>Frame stack</h2>
 * {@code frames[0 .. nframes)} are reusable {@link CallFrame} objects; {@code stack} holds every
 * register of every frame, one growable array as in PUC. Both start small and double on demand,
 * charging the memory meter first, and shrink back when a deep call chain has returned
 * ({@link #shrinkStacks}: the main coroutine when a run ends, any coroutine as it yields). Open upvalues form a list sorted by decreasing stack index;
 * when the stack is reallocated they are repointed to the new array. Popped frames drop their
 * references ({@link #popFrames}); registers above the live frames are cleared by the memory
 * walk ({@link LiveRoots}), and a dead coroutine drops its stacks ({@link #die}), so nothing a
 * returned call or a finished coroutine held stays reachable from here.
 *
 * <p>The main coroutine of a {@link LuaState} is never suspended; it runs Java entries into Lua.
 */
public final class Coroutine {
    /** Coroutine status as {@code coroutine.status} reports it. */
    public enum Status {
        SUSPENDED("suspended"), RUNNING("running"), NORMAL("normal"), DEAD("dead");

        public final String luaName;

        Status(String luaName) {
            this.luaName = luaName;
        }
    }

    static final int INITIAL_STACK = 48;
    static final int INITIAL_FRAMES = 8;
    /** extra slots above a frame for metamethod calls (PUC's EXTRA_STACK) */
    static final int EXTRA_STACK = 5;
    /** room guaranteed to a builtin (LUA_MINSTACK) */
    static final int MIN_STACK = 20;
    /** register slots ({@link #shrinkStacks}) a coroutine keeps however few it uses (2 KiB) */
    static final int KEEP_STACK = 256;
    /** frames ({@link #shrinkStacks}) a coroutine keeps however few it uses (about 2 KiB) */
    static final int KEEP_FRAMES = 32;

    final LuaState state;
    Object[] stack;
    int top;
    CallFrame[] frames;
    int nframes;
    Upvalue openUpvals;
    /** a builtin-call context to reuse, or null while it is taken (see {@link Ctx}) */
    Ctx spareCtx;
    Status status;
    /** the coroutine that resumed this one, while it runs */
    Coroutine resumer;
    /** Java re-entries active on this coroutine: yielding is impossible while positive */
    int nny;
    /** the body function, until the first resume */
    Object body;
    boolean started;
    /** where the values of the next resume go, and how many the yield call wants */
    int yieldFunc;
    int yieldNres;
    /** resume-chain depth (coroutines resuming coroutines), capped like PUC's C levels */
    int resumeDepth;
    /**
     * Lua metamethod frames ({@link CallFrame#META}) on this coroutine's frame stack. They run on
     * the heap stack here, but PUC calls each through {@code luaD_call}, one C level apiece, so
     * a metamethod recursing without end must stop with "C stack overflow" at the same cap.
     * Kept exact on the normal path (push in {@link Meta}, pop in {@link Calls#finishSpecial});
     * an error unwinding to a marker restores the count the marker saved.
     */
    int metaDepth;
    /** the script-visible identity, assigned on first use ({@link dev.luavm.value.Identity}); 0 until then */
    public int identity;

    Coroutine(LuaState state, Object body, int initialStack) {
        this.state = state;
        state.memory.charge(Sizes.COROUTINE_HEADER + (long) initialStack * Sizes.STACK_SLOT
                + INITIAL_FRAMES * Sizes.REF);
        this.stack = new Object[initialStack];
        this.frames = new CallFrame[INITIAL_FRAMES];
        this.body = body;
        this.status = Status.SUSPENDED;
    }

    public Status status() {
        return status;
    }

    public LuaState state() {
        return state;
    }

    /** Makes {@code stack} hold at least {@code needed} slots ("stack overflow" past the limit). */
    void ensureStack(int needed) {
        if (needed > stack.length) growStack(needed);
    }

    void growStack(int needed) {
        if (needed > state.maxStackSlots) throw VmError.stackOverflow();
        long size = Math.max((long) stack.length * 2, needed);
        if (size > state.maxStackSlots) size = Math.max(needed, state.maxStackSlots);
        state.memory.charge((size - stack.length) * Sizes.STACK_SLOT);
        Object[] ns = java.util.Arrays.copyOf(stack, (int) size);
        for (Upvalue u = openUpvals; u != null; u = u.nextOpen) u.stack = ns;
        stack = ns;
    }

    /**
     * Gives back what a deep recursion grew and no frame uses any more, as PUC's
     * {@code luaD_shrinkstack} and {@code luaE_shrinkCI} do: the register stack down to what its
     * frames use plus an eighth and {@code 2 * EXTRA_STACK} (PUC's good size), the frame array and
     * the frame objects above it down to twice the frames in use; neither below
     * {@link #KEEP_STACK} / {@link #KEEP_FRAMES}, so a run of ordinary depth never churns, and
     * only when the stack is more than twice that (the hysteresis that keeps a coroutine going
     * up and down around one depth from reallocating each time). The meter is credited with what
     * was dropped ({@link dev.luavm.meter.MemoryMeter#credit}; the walk counts the arrays and
     * every frame object, {@link #estimatedBytes}), the same on every JVM.
     *
     * <p>Called only where no Java frame holds this coroutine's stack array: the main coroutine
     * between runs ({@link LiveRoots#clearIdleStack}) and a coroutine as it yields. A snapshot
     * carries the capacities, so a restored sandbox shrinks when the original would have.
     */
    void shrinkStacks() {
        if (status == Status.DEAD) return;
        long freed = 0;
        int inUse = stackInUse();
        int good = Math.max(KEEP_STACK, inUse + inUse / 8 + 2 * EXTRA_STACK);
        if (stack.length > 2L * good) {
            Object[] ns = java.util.Arrays.copyOf(stack, good);
            for (Upvalue u = openUpvals; u != null; u = u.nextOpen) u.stack = ns;
            freed += (long) (stack.length - good) * Sizes.STACK_SLOT;
            stack = ns;
        }
        int goodFrames = Math.max(KEEP_FRAMES, 2 * nframes);
        if (frames.length > 2L * goodFrames) {
            int made = framesMade();
            freed += (long) (frames.length - goodFrames) * Sizes.REF + (long) Math.max(0, made - goodFrames) * Sizes.FRAME;
            frames = java.util.Arrays.copyOf(frames, goodFrames);
        }
        if (freed > 0) state.memory.credit(freed);
    }

    /** Slots the live frames (with their EXTRA_STACK) and {@code top} cover. */
    private int stackInUse() {
        int inUse = top;
        for (int i = 0; i < nframes; i++) {
            CallFrame f = frames[i];
            int end = (f.kind == CallFrame.LUA ? f.base + f.closure.proto.maxStackSize : f.func + 2) + EXTRA_STACK;
            if (end > inUse) inUse = end;
        }
        return inUse;
    }

    /** The frame object for depth {@code n}, allocating (and charging) it the first time. */
    CallFrame frameAt(int n) {
        if (n >= frames.length) {
            if (n >= state.maxCallDepth + LuaState.HANDLER_EXTRA_FRAMES) throw VmError.stackOverflow();
            int size = (int) Math.min((long) frames.length * 2, state.maxCallDepth + LuaState.HANDLER_EXTRA_FRAMES);
            state.memory.charge((long) (size - frames.length) * Sizes.REF);
            frames = java.util.Arrays.copyOf(frames, size);
        }
        CallFrame f = frames[n];
        if (f == null) {
            state.memory.charge(Sizes.FRAME);
            f = new CallFrame();
            frames[n] = f;
        }
        return f;
    }

    /** The open upvalue for {@code stack[index]}, created if needed (luaF_findupval). */
    Upvalue findUpvalue(int index) {
        Upvalue prev = null;
        Upvalue u = openUpvals;
        while (u != null && u.index >= index) {
            if (u.index == index) return u;
            prev = u;
            u = u.nextOpen;
        }
        state.memory.charge(Sizes.UPVALUE);
        Upvalue nu = new Upvalue(stack, index);
        nu.nextOpen = u;
        if (prev == null) openUpvals = nu; else prev.nextOpen = nu;
        return nu;
    }

    /** Closes every open upvalue at or above {@code level} (luaF_close). */
    void closeUpvalues(int level) {
        Upvalue u = openUpvals;
        while (u != null && u.index >= level) {
            Upvalue next = u.nextOpen;
            u.close();
            u.nextOpen = null;
            u = next;
        }
        openUpvals = u;
    }

    /**
     * Pops the frames above depth {@code n}, clearing what they reference (closure, builtin,
     * handler) so neither the memory walk nor the JVM keeps what returned frames held.
     */
    void popFrames(int n) {
        CallFrame[] fs = frames;
        for (int i = n; i < nframes; i++) fs[i].clearRefs();
        nframes = n;
    }

    /**
     * Ends this coroutine for good (its body returned, or an error or a run's termination left
     * it): closes its open upvalues, so closures keep their values, and drops its stacks.
     */
    void die() {
        closeUpvalues(0);
        status = Status.DEAD;
        resumer = null;
        body = null;
        nframes = 0;
        metaDepth = 0;
        top = 0;
        stack = new Object[0];
        frames = new CallFrame[0];
        spareCtx = null;
    }

    /** The running frame, or null for a coroutine that has none. */
    CallFrame topFrame() {
        return nframes == 0 ? null : frames[nframes - 1];
    }

    boolean isMain() {
        return this == state.mainCoroutine;
    }

    /**
     * Bytes accounted to this coroutine (for the live-heap walk): its arrays and every frame
     * object it keeps, in use or kept for reuse above {@code nframes}, as each was charged when
     * made; so what {@link #shrinkStacks} drops is exactly what it credits.
     */
    long estimatedBytes() {
        return Sizes.COROUTINE_HEADER + (long) stack.length * Sizes.STACK_SLOT
                + (long) frames.length * Sizes.REF + (long) framesMade() * Sizes.FRAME;
    }

    /** Frame objects made (a prefix of {@code frames}: frames are pushed at the top, {@link #frameAt}). */
    private int framesMade() {
        int n = nframes;
        while (n < frames.length && frames[n] != null) n++;
        return n;
    }

    @Override
    public String toString() {
        return "thread";
    }
}
