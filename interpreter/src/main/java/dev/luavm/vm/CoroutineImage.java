package dev.luavm.vm;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;

/**
 * A coroutine's contents as plain data, for snapshots ({@code dev.luavm.snapshot}): read from a
 * live {@link Coroutine} with {@link #of}, checked against the bytecode with {@link #problem} and
 * put into a coroutine being restored with {@link #applyTo}. Everything here is the VM's own
 * state, so this class is the one place outside the dispatch loop that knows the fields of
 * {@link Coroutine} and {@link CallFrame} a snapshot must carry.
 *
 * <h2>What a restored frame may hold</h2>
 * A snapshot comes from outside, so a frame read from one is checked before it can run
 * ({@link #problem}): bounds of every index into the stack, the frame kinds and flags the VM
 * makes, a Lua frame's resume point (the instruction before its {@code pc} made the call that
 * the frame above it, or the pending yield, stands for), and the registers whose type the
 * dispatch loop takes for granted at that point: the control values of an active numeric
 * {@code for} (all integers or all floats, as FORPREP leaves them) and the table of an
 * unfinished constructor (SETLIST's target). Restored Lua frames carry {@link CallFrame#RESTORED}
 * and always run interpreted, so no compiled code's own assumptions about a register meet a
 * value that came from outside.
 */
public final class CoroutineImage {
    /** One frame of a coroutine's frame stack. */
    public static final class Frame {
        public byte kind;
        public int flags;
        public LuaClosure closure;
        public int func;
        public int base;
        public int pc;
        public int nresults;
        public Builtin builtin;
        public boolean failed;
        public Object handler;
        public int aux;
        public int handlerDepth;
        public int handlerNny;
        public int savedMetaDepth;
    }

    /** Frame kinds as a snapshot writes them (the VM's own numbers). */
    public static final byte LUA = CallFrame.LUA, PCALL = CallFrame.PCALL, XPCALL = CallFrame.XPCALL,
            RESUME = CallFrame.RESUME, WRAP = CallFrame.WRAP, SUSPEND = CallFrame.SUSPEND;
    /** The flag of the frame a host's call entered (the bottom frame of a paused run). */
    public static final int FRESH = CallFrame.FRESH;
    /** Every flag bit the VM sets on a frame. */
    public static final int KNOWN_FLAGS = CallFrame.FRESH | CallFrame.META | CallFrame.BOTTOM | CallFrame.HANDLER
            | CallFrame.TAIL | CallFrame.NEGATE | CallFrame.RESTORED;

    /** the most results a frame can want (CALL's C - 1, TFORCALL's C) */
    private static final int MAX_RESULTS = 511;

    public Coroutine.Status status;
    public boolean started;
    public Object body;
    public Coroutine resumer;
    public int nny;
    public int yieldFunc;
    public int yieldNres;
    public int resumeDepth;
    public int metaDepth;
    /** capacity of the register stack */
    public int stackCapacity;
    public int top;
    /** the registers up to the live top (see {@link LiveRoots}); slots above are nil */
    public Object[] live;
    /** capacity of the frame array and how many frame objects it holds (allocated once per depth) */
    public int frameCapacity;
    public int framesAllocated;
    public Frame[] frames;
    /** open upvalues, in the coroutine's list order (decreasing stack index) */
    public Upvalue[] open;

    /** Reads {@code co} (between runs, or paused) as it is; nothing is changed. */
    public static CoroutineImage of(Coroutine co) {
        CoroutineImage m = new CoroutineImage();
        m.status = co.status;
        m.started = co.started;
        m.body = co.body;
        m.resumer = co.resumer;
        m.nny = co.nny;
        m.yieldFunc = co.yieldFunc;
        m.yieldNres = co.yieldNres;
        m.resumeDepth = co.resumeDepth;
        m.metaDepth = co.metaDepth;
        m.stackCapacity = co.stack.length;
        m.top = co.top;
        int liveTop = LiveRoots.liveTop(co);
        // trailing nils need not be carried: the restored stack starts cleared
        while (liveTop > 0 && co.stack[liveTop - 1] == null) liveTop--;
        m.live = java.util.Arrays.copyOf(co.stack, liveTop);
        m.frameCapacity = co.frames.length;
        int allocated = 0;
        while (allocated < co.frames.length && co.frames[allocated] != null) allocated++;
        m.framesAllocated = allocated;
        m.frames = new Frame[co.nframes];
        for (int i = 0; i < co.nframes; i++) {
            CallFrame f = co.frames[i];
            Frame x = new Frame();
            x.kind = f.kind;
            x.flags = f.flags;
            x.closure = f.closure;
            x.func = f.func;
            x.base = f.base;
            x.pc = f.pc;
            x.nresults = f.nresults;
            x.builtin = f.builtin;
            x.failed = f.failed;
            x.handler = f.handler;
            x.aux = f.aux;
            x.handlerDepth = f.handlerDepth;
            x.handlerNny = f.handlerNny;
            x.savedMetaDepth = f.savedMetaDepth;
            m.frames[i] = x;
        }
        int n = 0;
        for (Upvalue u = co.openUpvals; u != null; u = u.nextOpen) n++;
        m.open = new Upvalue[n];
        n = 0;
        for (Upvalue u = co.openUpvals; u != null; u = u.nextOpen) m.open[n++] = u;
        return m;
    }

    /** A coroutine to restore into (its contents come from {@link #applyTo}); charged like a new one. */
    public static Coroutine newCoroutine(LuaState st) {
        return new Coroutine(st, null, 0);
    }

    /**
     * Why this image cannot be the contents of a coroutine of {@code st}, or null. {@code main}
     * tells whether it is the state's main coroutine. Checks everything {@link #applyTo} and the
     * dispatch loop rely on (see the class comment); the links between coroutines (who resumed
     * whom, which one runs) are checked by the caller, who sees them all.
     */
    public String problem(LuaState st, boolean main) {
        if (stackCapacity < 0 || stackCapacity > st.maxStackSlots) return "stack capacity " + stackCapacity + " out of range";
        if (top < 0 || top > stackCapacity) return "stack top " + top + " out of range";
        if (live.length > stackCapacity) return "more live registers than the stack holds";
        int maxFrames = st.maxCallDepth + LuaState.HANDLER_EXTRA_FRAMES;
        if (frameCapacity < 0 || frameCapacity > Math.max(maxFrames, Coroutine.INITIAL_FRAMES)) {
            return "frame capacity " + frameCapacity + " out of range";
        }
        if (framesAllocated < frames.length || framesAllocated > frameCapacity) return "frame count out of range";
        if (frames.length > maxFrames) return "more frames than the call depth allows";
        if (nny < 0 || nny > frames.length + Calls.MAX_C_CALLS) return "bad non-yieldable count";
        if (metaDepth < 0 || metaDepth > Calls.MAX_C_CALLS) return "bad metamethod depth";
        if (resumeDepth < 0 || resumeDepth > Calls.MAX_C_CALLS) return "bad resume depth";
        if (yieldNres < -1 || yieldFunc < 0 || yieldFunc > stackCapacity) return "bad yield position";
        if (status == Coroutine.Status.DEAD && (frames.length != 0 || live.length != 0 || open.length != 0 || body != null)) {
            return "a dead coroutine with contents";
        }
        if (!started && (frames.length != 0 || live.length != 0 || !(body instanceof dev.luavm.value.LuaFunction))) {
            return "a coroutine not yet started must hold its body only";
        }
        if (started && body != null) return "a started coroutine still holds its body";
        if (status == Coroutine.Status.SUSPENDED && started && frames.length > 0 && frames[frames.length - 1].kind != LUA) {
            return "a suspended coroutine that is not waiting in a yield";
        }
        int metaFrames = 0;
        for (int i = 0; i < frames.length; i++) {
            String p = frameProblem(i, main);
            if (p != null) return "frame " + (i + 1) + ": " + p;
            if ((frames[i].flags & CallFrame.META) != 0) metaFrames++;
        }
        if (metaFrames > metaDepth) return "more metamethod frames than the metamethod depth";
        int prev = Integer.MAX_VALUE;
        for (Upvalue u : open) {
            if (u.index < 0 || u.index >= stackCapacity || u.index >= prev) return "open upvalues out of order";
            prev = u.index;
        }
        return null;
    }

    private String frameProblem(int i, boolean main) {
        Frame f = frames[i];
        if ((f.flags & ~KNOWN_FLAGS) != 0) return "unknown flags";
        if ((f.flags & CallFrame.FRESH) != 0 && !(main && i == 0)) return "a frame entered from Java";
        if ((f.flags & CallFrame.BOTTOM) != 0 && (main || i != 0)) return "a bottom frame above the bottom";
        if (f.func < 0 || f.func >= stackCapacity) return "function slot out of range";
        if (f.nresults < -1 || f.nresults > MAX_RESULTS) return "bad result count";
        if (f.kind == LUA) return luaFrameProblem(i);
        if (f.kind < PCALL || f.kind > SUSPEND) return "unknown frame kind " + f.kind;
        if (f.closure != null) return "a marker with a closure";
        if (f.builtin == null) return "a marker without its builtin";
        if (f.base != f.func + 1) return "a marker's base";
        if (f.func + 2 > stackCapacity) return "a marker's slots out of range";
        if (f.kind != XPCALL && (f.handler != null || f.handlerDepth != 0 || f.handlerNny != 0)) return "handler state on a non-xpcall marker";
        if (f.handlerDepth < 0 || f.handlerDepth > Calls.MAX_HANDLER_NESTING || f.handlerNny < 0 || f.handlerNny > nny) {
            return "bad handler counts";
        }
        if (f.savedMetaDepth < 0 || f.savedMetaDepth > Calls.MAX_C_CALLS) return "bad saved metamethod depth";
        if (f.kind == SUSPEND && i != frames.length - 1) return "a paused call below other frames";
        if ((f.kind == RESUME || f.kind == WRAP) && i != frames.length - 1) return "a coroutine resume below other frames";
        if (i + 1 < frames.length && frames[i + 1].func != f.func + 1 && (frames[i + 1].flags & CallFrame.HANDLER) == 0) {
            return "a protected call whose callee is elsewhere";
        }
        if ((f.flags & (CallFrame.META | CallFrame.HANDLER | CallFrame.TAIL | CallFrame.NEGATE | CallFrame.RESTORED)) != 0) {
            return "a marker with a Lua frame's flags";
        }
        if (f.aux != 0) return "a marker's auxiliary slot";
        return null;
    }

    private String luaFrameProblem(int i) {
        Frame f = frames[i];
        if (f.closure == null) return "a Lua frame without its function";
        if (f.builtin != null || f.handler != null || f.failed || f.handlerDepth != 0 || f.handlerNny != 0) {
            return "marker state on a Lua frame";
        }
        Prototype p = f.closure.proto;
        if (!p.isVararg) {
            if (f.base != f.func + 1) return "base of a fixed-argument function";
        } else if (f.base < f.func + 1 + p.numParams) {
            return "base of a vararg function";
        }
        if ((long) f.base + p.maxStackSize + Coroutine.EXTRA_STACK > stackCapacity) return "registers beyond the stack";
        if (f.pc < 0 || f.pc >= p.code.length) return "pc out of range";
        if ((f.flags & CallFrame.HANDLER) != 0) {
            if (f.aux < 0 || f.aux >= i || frames[f.aux].kind != XPCALL) return "a message handler without its xpcall";
        } else if ((f.flags & CallFrame.META) != 0) {
            if (i == 0 || frames[i - 1].kind != LUA) return "a metamethod frame not above a Lua frame";
            Frame caller = frames[i - 1];
            if (caller.pc < 1) return "a metamethod frame above a frame that has not started";
            int op = caller.closure.proto.code[caller.pc - 1] & 0x3F;
            if (op == OpCode.CONCAT.ordinal()) {
                int b = Instr.b(caller.closure.proto.code[caller.pc - 1]);
                if (f.aux < caller.base + b || f.aux >= caller.base + caller.closure.proto.maxStackSize) {
                    return "a concatenation's result slot";
                }
            } else if (f.aux != 0) {
                return "a metamethod frame's auxiliary slot";
            }
        } else if (f.aux != 0) {
            return "a Lua frame's auxiliary slot";
        }
        if ((f.flags & CallFrame.NEGATE) != 0 && (f.flags & CallFrame.META) == 0) return "a negated frame that is no metamethod";
        boolean belowHandler = false;
        for (int j = i + 1; j < frames.length; j++) {
            if ((frames[j].flags & CallFrame.HANDLER) != 0 && frames[j].aux < i) belowHandler = true;
        }
        if (belowHandler) return null; // the frames an error left under its message handler are cut back, never resumed
        String r = resumePointProblem(i);
        if (r != null) return r;
        return registerProblem(f);
    }

    /** The instruction before the frame's pc must have made the call the frame above (or the pending yield) stands for. */
    private String resumePointProblem(int i) {
        Frame f = frames[i];
        Frame above = i + 1 < frames.length ? frames[i + 1] : null;
        if (above != null && (above.flags & CallFrame.META) != 0) return null; // checked from above
        if (above != null && (above.flags & CallFrame.HANDLER) != 0) return null; // the error's frame, cut back when it returns
        int callee;
        if (above != null) {
            callee = above.func;
        } else if (status == Coroutine.Status.SUSPENDED && started) {
            callee = yieldFunc; // yielded: the call of coroutine.yield
        } else {
            return "a Lua frame on top of a coroutine that is not suspended in a yield";
        }
        if (f.pc < 1) return "a frame that made no call";
        int ins = f.closure.proto.code[f.pc - 1];
        int op = ins & 0x3F;
        int a = f.base + Instr.a(ins);
        if (op == OpCode.CALL.ordinal() || op == OpCode.TAILCALL.ordinal()) {
            if (callee != a) return "the call does not match the frame above";
        } else if (op == OpCode.TFORCALL.ordinal()) {
            if (callee != a + 3) return "the iterator call does not match the frame above";
        } else {
            return "the frame above was not called by this frame's instruction";
        }
        if (op == OpCode.TAILCALL.ordinal() && above != null && above.kind == LUA) return "a tail call that kept its frame";
        return null;
    }

    /** Registers the dispatch loop reads without a type check at the frame's pc: for loops, constructors. */
    private String registerProblem(Frame f) {
        int[] code = f.closure.proto.code;
        int pc = f.pc;
        int[] lastNewTable = new int[256]; // per register: pc of its latest NEWTABLE before q, or -1
        java.util.Arrays.fill(lastNewTable, -1);
        for (int q = 0; q < code.length; q++) {
            int ins = code[q];
            int op = ins & 0x3F;
            if (op == OpCode.NEWTABLE.ordinal()) {
                lastNewTable[Instr.a(ins)] = q;
            } else if (op == OpCode.FORPREP.ordinal()) {
                int loop = q + 1 + Instr.sbx(ins);
                if (q < pc && pc <= loop) {
                    int ra = f.base + Instr.a(ins);
                    Object x = reg(ra), lim = reg(ra + 1), step = reg(ra + 2);
                    boolean ints = x instanceof Long && lim instanceof Long && step instanceof Long;
                    boolean floats = x instanceof Double && lim instanceof Double && step instanceof Double;
                    if (!ints && !floats) return "a numeric for loop's control values";
                }
            } else if (op == OpCode.SETLIST.ordinal()) {
                int a = Instr.a(ins);
                int made = lastNewTable[a];
                if (made >= 0 && made < pc && pc <= q && !(reg(f.base + a) instanceof LuaTable)) {
                    return "a table constructor's table";
                }
            }
        }
        return null;
    }

    private Object reg(int i) {
        return i < live.length ? live[i] : null;
    }

    /**
     * Puts this image (checked by {@link #problem}) into {@code co}, charging the stack and frame
     * arrays to the state's memory meter; open upvalues are pointed at the new stack. Lua frames
     * are marked {@link CallFrame#RESTORED}.
     */
    public void applyTo(Coroutine co) {
        LuaState st = co.state;
        st.memory.charge((long) stackCapacity * Sizes.STACK_SLOT + (long) frameCapacity * Sizes.REF
                + (long) framesAllocated * Sizes.FRAME);
        co.status = status;
        co.started = started;
        co.body = body;
        co.resumer = resumer;
        co.nny = nny;
        co.yieldFunc = yieldFunc;
        co.yieldNres = yieldNres;
        co.resumeDepth = resumeDepth;
        co.metaDepth = metaDepth;
        co.stack = new Object[stackCapacity];
        System.arraycopy(live, 0, co.stack, 0, live.length);
        co.top = top;
        co.frames = new CallFrame[frameCapacity];
        for (int i = 0; i < framesAllocated; i++) co.frames[i] = new CallFrame();
        for (int i = 0; i < frames.length; i++) {
            Frame x = frames[i];
            CallFrame f = co.frames[i];
            f.kind = x.kind;
            f.flags = x.kind == LUA ? x.flags | CallFrame.RESTORED : x.flags;
            f.closure = x.closure;
            f.func = x.func;
            f.base = x.base;
            f.pc = x.pc;
            f.nresults = x.nresults;
            f.builtin = x.builtin;
            f.failed = x.failed;
            f.handler = x.handler;
            f.aux = x.aux;
            f.handlerDepth = x.handlerDepth;
            f.handlerNny = x.handlerNny;
            f.savedMetaDepth = x.savedMetaDepth;
        }
        co.nframes = frames.length;
        Upvalue prev = null;
        for (Upvalue u : open) {
            u.stack = co.stack;
            u.nextOpen = null;
            if (prev == null) co.openUpvals = u; else prev.nextOpen = u;
            prev = u;
        }
        if (open.length == 0) co.openUpvals = null;
        co.spareCtx = null;
    }
}
