/**
 * The one dependency of an embedder: the luavm API and runtime ({@code dev.luavm}) with the
 * standard library's capability bundles ({@code dev.luavm.stdlib}) and the compiled tier
 * ({@code dev.luavm.jit}, on ASM), which runs hot Lua functions as JVM bytecode by default
 * ({@code LuaVM.builder().tier(...)} chooses). {@code requires dev.luavm.all} is all it takes; only
 * the API packages are exported.
 */
module dev.luavm.all {
    requires transitive dev.luavm;
    requires dev.luavm.stdlib;
    requires dev.luavm.jit;
}
