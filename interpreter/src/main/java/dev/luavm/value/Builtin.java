package dev.luavm.value;

import dev.luavm.lib.CallContext;

import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;

/**
 * A function written in Java and callable from Lua: a library function or a host function.
 *
 * <p>Calling convention: the VM hands the function a {@link CallContext} whose arguments are
 * {@code c.arg(1) .. c.arg(c.nargs())}; the function returns its results through the context
 * ({@code return c.ret(x, y)}), which yields the number of results. Write results only after
 * every argument has been read and every callback into Lua has returned: results overwrite the
 * argument slots.
 *
 * <p>Library builtins are immutable and may be shared by every sandbox in the JVM; per-sandbox
 * state (globals, meters, the string metatable, the random generator) is reached through the
 * context. A builtin made per call that holds Lua values (a {@code string.gmatch} iterator and
 * its subject, a {@code coroutine.wrap} function and its coroutine) belongs to one sandbox and
 * must report those values through {@link #forEachReference} and its own size through
 * {@link #estimatedBytes}, so the live-heap walk sees everything a script can reach through it
 * (VM rule 2). Shared builtins hold no Lua value and keep the defaults: nothing, 0 bytes.
 */
public abstract non-sealed class Builtin extends LuaFunction {
    /** the name used in error messages when no better name is known ("insert") */
    public final String name;
    /** the name as found from the global table ("table.insert"), used as PUC's pushglobalfuncname */
    public final String qualifiedName;

    /**
     * For a pure function of one number ({@code math.sqrt}, {@code math.sin}, ...): its result
     * on a float argument, exactly what a call with that one argument returns; null for every
     * other builtin. The compiled tier computes it without the call where a loop calls such a
     * function on a number (jit {@code RegionEmitter}), behind a guard on this field, charging
     * what the call charges.
     */
    public final DoubleUnaryOperator floatFunction;
    /** whether {@link #floatFunction} also gives the result for an integer argument, converted (not so for abs) */
    public final boolean floatOfInteger;

    protected Builtin(String qualifiedName) {
        this(qualifiedName, null, false);
    }

    /** A pure function of one number; see {@link #floatFunction} and {@link #floatOfInteger}. */
    protected Builtin(String qualifiedName, DoubleUnaryOperator floatFunction, boolean floatOfInteger) {
        this.floatFunction = floatFunction;
        this.floatOfInteger = floatOfInteger;
        this.qualifiedName = qualifiedName;
        int dot = qualifiedName.lastIndexOf('.');
        this.name = dot < 0 ? qualifiedName : qualifiedName.substring(dot + 1);
    }

    /** Runs the function; returns the number of results placed through {@code c}. */
    public abstract int call(CallContext c);

    /**
     * Hands every Lua value this builtin holds to {@code visitor} (for the live-heap walk). A
     * builtin that captures Lua values must override this; shared library builtins hold none.
     */
    public void forEachReference(Consumer<Object> visitor) {
    }

    /**
     * Bytes accounted to this builtin object itself, as charged when it was made (its referenced
     * values are sized separately); 0 for builtins shared by every sandbox.
     */
    public long estimatedBytes() {
        return 0;
    }

    /**
     * A builtin from a lambda, for hosts and tests. The walk cannot see inside a lambda, so
     * {@code body} must capture no Lua value: a builtin that holds one is a subclass overriding
     * {@link #forEachReference}.
     *
     * <p>The standard library does not use it: its builtins are anonymous subclasses
     * ({@code new Builtin("name") { public int call(CallContext c) { ... } }}), for start-up.
     * Each lambda a class initialiser evaluates links an {@code invokedynamic} call site, which
     * JDK 17's CDS archive does not keep (about 65 µs each on the main thread, ~200 of them),
     * while an anonymous class is one more class loaded from the archive (about 7 µs); the warm
     * call is one virtual call instead of two (benchmarks/PROFILE.md, "Start-up: builtins
     * without invokedynamic").
     */
    public static Builtin of(String qualifiedName, Body body) {
        return new Builtin(qualifiedName) {
            @Override
            public int call(CallContext c) {
                return body.call(c);
            }
        };
    }

    /**
     * A shared library builtin that is a pure function of one number: {@code body} must return
     * {@code f(x)} for a call with one float argument {@code x} (and, when {@code ofInteger},
     * for an integer argument converted to float), charging nothing beyond the call itself.
     */
    public static Builtin ofFloat(String qualifiedName, Body body, DoubleUnaryOperator f, boolean ofInteger) {
        return new Builtin(qualifiedName, f, ofInteger) {
            @Override
            public int call(CallContext c) {
                return body.call(c);
            }
        };
    }

    /**
     * The keys a library table holds {@code functions} under: each one's {@link #name} (or, with
     * {@code qualified}, its {@link #qualifiedName}) as a Lua string, in order. A plain loop: it
     * runs in library class initialisers, where a stream's lambdas would each cost an
     * {@code invokedynamic} linkage at start-up.
     */
    public static LuaString[] keys(java.util.List<Builtin> functions, boolean qualified) {
        LuaString[] keys = new LuaString[functions.size()];
        for (int i = 0; i < keys.length; i++) {
            Builtin f = functions.get(i);
            keys[i] = LuaString.of(qualified ? f.qualifiedName : f.name);
        }
        return keys;
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
