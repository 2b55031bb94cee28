package dev.luavm.value;

/** A Lua function value: either a {@link LuaClosure} (compiled Lua) or a {@link Builtin} (Java). */
public abstract sealed class LuaFunction permits LuaClosure, Builtin {
}
