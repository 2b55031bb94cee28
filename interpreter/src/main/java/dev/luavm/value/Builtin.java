package dev.luavm.value;

import dev.luavm.lib.CallContext;

/**
 * A function written in Java and callable from Lua: a library function or a host function.
 *
 * <p>Calling convention: the VM hands the function a {@link CallContext} whose arguments are
 * {@code c.arg(1) .. c.arg(c.nargs())}; the function returns its results through the context
 * ({@code return c.ret(x, y)}), which yields the number of results. Write results only after
 * every argument has been read and every callback into Lua has returned: results overwrite the
 * argument slots.
 *
 * <p>Builtins are immutable and may be shared by every sandbox in the JVM; per-sandbox state
 * (globals, meters, the string metatable, the random generator) is reached through the context.
 */
public abstract non-sealed class Builtin extends LuaFunction {
    /** the name used in error messages when no better name is known ("insert") */
    public final String name;
    /** the name as found from the global table ("table.insert"), used as PUC's pushglobalfuncname */
    public final String qualifiedName;

    protected Builtin(String qualifiedName) {
        this.qualifiedName = qualifiedName;
        int dot = qualifiedName.lastIndexOf('.');
        this.name = dot < 0 ? qualifiedName : qualifiedName.substring(dot + 1);
    }

    /** Runs the function; returns the number of results placed through {@code c}. */
    public abstract int call(CallContext c);

    /** A builtin from a lambda, for the many one-liners of the standard library. */
    public static Builtin of(String qualifiedName, Body body) {
        return new Builtin(qualifiedName) {
            @Override
            public int call(CallContext c) {
                return body.call(c);
            }
        };
    }

    @FunctionalInterface
    public interface Body {
        int call(CallContext c);
    }

    @Override
    public String toString() {
        return "builtin: " + qualifiedName;
    }
}
