package dev.luavm.vm;

import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;

/**
 * One activation on a coroutine's frame stack. Frame objects are allocated once per depth and
 * reused (VM rule 3): a call fills the next slot, a return lowers {@code nframes} and clears the
 * popped frame's references ({@link #clearRefs}), so a returned frame keeps no closure, builtin
 * or handler alive (the live-heap walk also clears any it finds above {@code nframes}).
 *
 * <p>Two kinds of frames exist. A {@link #LUA} frame runs a closure: its registers are
 * {@code stack[base .. base+maxStackSize)}, its function sits at {@code stack[func]} and its
 * results go to {@code stack[func ..]}. A <em>marker</em> frame stands for a VM-implemented
 * builtin that must outlive the call it makes ({@code pcall}, {@code xpcall},
 * {@code coroutine.resume}, a {@code coroutine.wrap} function): the marker's callee runs above
 * it, and when the callee finishes the dispatch loop finds the marker on top and completes it
 * (prefixing {@code true}/{@code false}, delivering a coroutine's values, ...). A marker is only
 * ever the top frame when its callee has finished and left its values at
 * {@code stack[func+1 .. top)}.
 */
final class CallFrame {
    static final byte LUA = 0;
    static final byte PCALL = 1;
    static final byte XPCALL = 2;
    static final byte RESUME = 3;
    static final byte WRAP = 4;
    /**
     * A host function's call paused by its policy ({@code HostCallPolicy.Decision.suspend}): the
     * marker's callee is the host function, whose results a resumed run puts at {@code func}
     * ({@link Calls#finishPaused}); when the dispatch loop finds it on top, the run stops there.
     */
    static final byte SUSPEND = 5;

    /** The frame was entered from Java: its completion returns from the dispatch loop. */
    static final int FRESH = 1;
    /** A Lua metamethod called by an opcode: on return, complete that opcode (finishOp). */
    static final int META = 2;
    /** The first frame of a coroutine: on return, the coroutine is dead. */
    static final int BOTTOM = 4;
    /** An xpcall message handler: on return, unwind to its xpcall. */
    static final int HANDLER = 8;
    /** Entered by a tail call (for tracebacks). */
    static final int TAIL = 16;
    /** META for __le answered through not __lt(b, a). */
    static final int NEGATE = 32;
    /**
     * Restored from a snapshot: the frame runs interpreted until it returns (its registers came
     * from outside, and compiled code's typed copies assume what the bytecode alone could put in
     * them).
     */
    static final int RESTORED = 64;
    /** flags that need the out-of-line return path */
    static final int SPECIAL = FRESH | META | BOTTOM | HANDLER;

    byte kind;
    int flags;
    LuaClosure closure;
    /** stack index of the function; results are stored from here */
    int func;
    /** first register (LUA frames) */
    int base;
    /** next instruction (LUA frames), saved while the frame is not running */
    int pc;
    /** results wanted by the caller, -1 for all */
    int nresults;
    /** the builtin a marker stands for (tracebacks) */
    Builtin builtin;
    /** marker: the callee raised (pcall result is false) */
    boolean failed;
    /** XPCALL: the message handler */
    Object handler;
    /** HANDLER frames: index of the xpcall marker; META frames on CONCAT: result register */
    int aux;
    /** XPCALL: nesting of handler invocations (errors inside the handler) */
    int handlerDepth;
    /** XPCALL: what its running Lua message handlers added to the coroutine's nny (a handler cannot yield) */
    int handlerNny;
    /** markers: the coroutine's {@code metaDepth} when pushed, restored when an error unwinds here */
    int savedMetaDepth;

    /** Drops what a popped frame references. */
    void clearRefs() {
        closure = null;
        builtin = null;
        handler = null;
    }
}
