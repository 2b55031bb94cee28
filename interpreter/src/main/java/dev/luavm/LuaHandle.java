package dev.luavm;

import dev.luavm.host.Results;

/**
 * A Lua value with no Java counterpart (a function, a coroutine) as the host sees it: opaque,
 * printable, callable when it is a function, and convertible back into the <em>same</em>
 * sandbox, where it becomes the original value again (so a host can hold a Lua callback, call it
 * or pass it back later). Passing it to another sandbox fails with
 * {@link LuaConversionException}: sandboxes never share state.
 *
 * <pre>{@code
 * LuaHandle square = sb.evalAs("return function(x) return x * x end", LuaHandle.class);
 * int nine = square.call(3).first(int.class);
 * }</pre>
 */
public final class LuaHandle {
    private final Sandbox owner;
    private final Object value;
    private final String type;
    /** the value's identity in its sandbox, as Lua's tostring shows it ({@link dev.luavm.value.Identity}) */
    private final int id;

    LuaHandle(Sandbox owner, Object value, String type, int id) {
        this.owner = owner;
        this.value = value;
        this.type = type;
        this.id = id;
    }

    /**
     * The Lua type name.
     *
     * @return "function" or "thread"
     */
    public String type() {
        return type;
    }

    /**
     * Calls the function this handle stands for, as a run of its sandbox: with the sandbox's
     * limits (time and output afresh, gas from the sandbox's budget), its audit log and its
     * one-thread-at-a-time rule, exactly like {@link Sandbox#call}. From inside a host function
     * of the same sandbox it fails (a run does not nest).
     *
     * @param args the arguments, converted to Lua as {@link Sandbox#call} converts them
     * @return all the function's results
     * @throws LuaScriptException the function raised an error (a coroutine handle: "attempt to
     *         call a thread value")
     * @throws LuaLimitException a limit ended the run
     * @throws LuaSandboxStateException the sandbox is closed or busy
     */
    public Results call(Object... args) {
        return owner.callHandle(this, args);
    }

    /** The Lua value, if {@code sandbox} is the sandbox that made this handle. */
    Object valueFor(Sandbox sandbox) {
        if (sandbox != owner) throw new LuaConversionException("a " + type + " handle belongs to another sandbox");
        return value;
    }

    /** The same text as Lua's {@code tostring} of the value in its sandbox ({@code function: 0x0000002a}). */
    @Override
    public String toString() {
        return type + ": " + dev.luavm.value.Identity.hex(id); // what tostring shows in the sandbox
    }
}
