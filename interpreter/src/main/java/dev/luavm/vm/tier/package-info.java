/**
 * The compiled tier's service interface: {@link dev.luavm.vm.tier.FunctionCompiler} (the code
 * generator, in module {@code luavm-jit}) and {@link dev.luavm.vm.tier.Tier} (the modes). The
 * interpreter itself holds no code generator and no ASM.
 */
package dev.luavm.vm.tier;
