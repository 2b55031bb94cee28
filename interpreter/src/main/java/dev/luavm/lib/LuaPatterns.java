package dev.luavm.lib;

import dev.luavm.value.LuaString;

/**
 * Lua 5.3 pattern matching as a service, for code outside the standard library that needs it
 * (the host gateway's pattern constraints, {@code dev.luavm.host.ArgConstraint#pattern}). The
 * matcher lives in the stdlib module, which provides this interface through
 * {@link java.util.ServiceLoader} as it provides {@link Library}; without stdlib on the class
 * path there is no implementation.
 */
public interface LuaPatterns {
    /**
     * True when {@code pattern} matches somewhere in {@code subject}, exactly as
     * {@code string.find(subject, pattern) ~= nil} ({@code ^} anchors at the start, {@code $} at
     * the end). The work is charged to {@code c} as {@code string.find} charges it; a malformed
     * pattern raises the Lua error {@code string.find} would.
     */
    boolean find(CallContext c, LuaString subject, LuaString pattern);
}
