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

    /** For the runtime: {@code owner} identifies the sandbox. */
    public LuaHandle(Object owner, Object value, String type) {
        this.owner = owner;
        this.value = value;
        this.type = type;
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

    @Override
    public String toString() {
        return type + ": 0x" + Integer.toHexString(System.identityHashCode(value));
    }
}
