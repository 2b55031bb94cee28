/**
 * luavm: a Lua 5.3 runtime for untrusted scripts. Embedders see only the API packages:
 * {@code dev.luavm} (runtime, sandboxes, capabilities, limits, exceptions), {@code dev.luavm.host}
 * (host functions, policies, results), {@code dev.luavm.audit} (the audit log),
 * {@code dev.luavm.binding} (typed host modules), {@code dev.luavm.replay} (replaying recorded runs),
 * {@code dev.luavm.vfs} (the file system a host grants)
 * and {@code dev.luavm.docs} (documentation of
 * the grants). The VM's
 * innards (compiler, bytecode, values, meters, the library interface) are exported only to the
 * runtime's own modules that build on them.
 *
 * <p>A new module of the runtime that needs an internal package is named in that package's
 * {@code exports ... to} line below; a new API package gets a plain {@code exports} line.
 */
module dev.luavm {
    requires dev.luavm.grammar;
    requires org.antlr.antlr4.runtime;

    // the API
    exports dev.luavm;
    exports dev.luavm.host;
    exports dev.luavm.audit;
    exports dev.luavm.binding;
    exports dev.luavm.docs;
    exports dev.luavm.replay;
    exports dev.luavm.vfs;
    // the tier names (LuaVM.Builder.tier) and the compiled tier's service interface
    exports dev.luavm.vm.tier;

    // the VM's innards, for the standard library's bundles only
    exports dev.luavm.lib to dev.luavm.stdlib;
    exports dev.luavm.value to dev.luavm.stdlib, dev.luavm.jit;
    // the prototypes the code generator reads (FunctionCompiler.compile's argument)
    exports dev.luavm.bytecode to dev.luavm.jit;
    exports dev.luavm.vm to dev.luavm.stdlib;
    exports dev.luavm.meter to dev.luavm.stdlib;

    // capability bundles and the pattern matcher come from the stdlib module (or any provider)
    uses dev.luavm.lib.Library;
    uses dev.luavm.lib.LuaPatterns;
    uses dev.luavm.vm.tier.FunctionCompiler;
}
