package dev.luavm.jit;

import dev.luavm.bytecode.Prototype;
import dev.luavm.vm.tier.FunctionCompiler;

/**
 * The compiler the runtime finds as a service: {@link AsmFunctionCompiler}, loaded (and ASM with
 * it) at the first function compiled instead of when a {@code LuaVM} is built. ASM's classes
 * (class-file version 49) cannot be in the launcher's CDS archive, nor can a class linked against
 * them, so a run that compiles nothing (most short scripts, {@code luavm -e ''}) would load and
 * verify them from the jar for nothing.
 */
public final class DeferredFunctionCompiler implements FunctionCompiler {
    private volatile FunctionCompiler asm;

    @Override
    public byte[] compile(Prototype p, String internalName) {
        FunctionCompiler c = asm;
        if (c == null) asm = c = new AsmFunctionCompiler(); // stateless: a second one from a race is harmless
        return c.compile(p, internalName);
    }
}
