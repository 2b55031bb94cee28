/**
 * The one dependency of an embedder: the luavm API and runtime ({@code dev.luavm}) with the
 * standard library's capability bundles ({@code dev.luavm.stdlib}). {@code requires dev.luavm.all}
 * (or {@code requires dev.luavm}, with the stdlib module on the module path) is all it takes.
 */
module dev.luavm.all {
    requires transitive dev.luavm;
    requires dev.luavm.stdlib;
}
