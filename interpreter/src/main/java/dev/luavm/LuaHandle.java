package dev.luavm;

/**
 * A Lua value with no Java counterpart (a function, a coroutine) as the host sees it: opaque,
 * printable, and convertible back into the <em>same</em> sandbox, where it becomes the original
 * value again (so a host can hold a Lua callback and pass it back later). Passing it to another
 * sandbox fails with {@link LuaConversionException}: sandboxes never share state.
 */
public final class LuaHandle {
    private final Object owner;
    private final Object value;
    private final String type;
    /** the value's identity in its sandbox, as Lua's tostring shows it ({@link dev.luavm.value.Identity}) */
    private final int id;

    /** For the runtime: {@code owner} identifies the sandbox; {@code id} is the value's identity number there. */
    public LuaHandle(Object owner, Object value, String type, int id) {
        this.owner = owner;
        this.value = value;
        this.type = type;
        this.id = id;
    }

    /** The Lua type name: "function", "thread", ... */
    public String type() {
        return type;
    }

    /** For the runtime: the Lua value, if {@code owner} is the sandbox that made this handle. */
    public Object valueFor(Object owner) {
        if (owner != this.owner) throw new LuaConversionException("a " + type + " handle belongs to another sandbox");
        return value;
    }

    /** The same text as Lua's {@code tostring} of the value in its sandbox ({@code function: 0x0000002a}). */
    @Override
    public String toString() {
        return type + ": " + dev.luavm.value.Identity.hex(id); // what tostring shows in the sandbox
    }
}
