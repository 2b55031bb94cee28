package dev.luavm.binding;

import java.util.List;

/**
 * A Lua function passed to a {@link LuaFunction} method, callable from Java during that call:
 * arguments are converted to Lua and results back to Java as host calls convert them, and the
 * call is charged to the script. A Lua error raised by the function propagates through the method
 * to the script. Valid only while the host call that received it runs, and on its thread: kept
 * and called later (in another host call, after the run, after the sandbox closed) or from
 * another thread, it throws {@link IllegalStateException} saying so, and a module method that
 * lets that exception through gives the script its message. Methods may also take {@code java.util.function} types
 * ({@code Function}, {@code Predicate}, ...) for Lua functions, converted by their type arguments.
 */
public interface LuaCallback {
    /** Calls the function; all its results, converted to Java. */
    List<Object> callAll(Object... args);

    /** Calls the function; its first result, or null. */
    default Object call(Object... args) {
        List<Object> r = callAll(args);
        return r.isEmpty() ? null : r.get(0);
    }
}
