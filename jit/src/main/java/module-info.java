/**
 * luavm's compiled tier: hot Lua functions generated as JVM classes with ASM. It provides the
 * runtime's {@link dev.luavm.vm.tier.FunctionCompiler} service and exports nothing; the
 * generated classes are defined by the runtime itself, as hidden classes of {@code dev.luavm.vm}.
 */
module dev.luavm.jit {
    requires dev.luavm;
    requires org.objectweb.asm;

    provides dev.luavm.vm.tier.FunctionCompiler with dev.luavm.jit.DeferredFunctionCompiler;
}
