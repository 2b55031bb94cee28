package dev.luavm.vm.tier;

import dev.luavm.bytecode.Prototype;

/**
 * The compiled tier's code generator, found with {@link java.util.ServiceLoader} (module
 * {@code luavm-jit}) or given to {@code LuaVM.Builder.functionCompiler}. It only produces class
 * bytes; the interpreter defines them as hidden classes of its own, one set per {@code LuaVM}.
 *
 * <p>The contract a generated class must meet is written on {@code dev.luavm.vm.TierSupport}:
 * it extends {@link #RUNTIME}, overrides {@code int run(LuaState, Coroutine, CallFrame)}, and
 * references no class but {@link #RUNTIME}, itself and Lua's value boxes ({@code java.lang.Long},
 * {@code Double}, {@code Boolean}, which inline fast paths test, unbox and box).
 */
public interface FunctionCompiler {
    /** Internal name of the one class generated code may reference (its superclass too). */
    String RUNTIME = "dev/luavm/vm/TierSupport";
    /** Package (internal form, with trailing slash) generated classes must be named in. */
    String PACKAGE = "dev/luavm/vm/";

    /**
     * Class bytes for {@code p} named {@code internalName}, or null to leave the function
     * interpreted (an instruction or shape this compiler cannot yet keep every guarantee for).
     */
    byte[] compile(Prototype p, String internalName);
}
