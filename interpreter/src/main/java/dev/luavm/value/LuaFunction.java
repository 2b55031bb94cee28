package dev.luavm.value;

/** A Lua function value: either a {@link LuaClosure} (compiled Lua) or a {@link Builtin} (Java). */
public abstract sealed class LuaFunction permits LuaClosure, Builtin {
    /** the script-visible identity, assigned on first use ({@link Identity}); 0 until then */
    int identity;
}
