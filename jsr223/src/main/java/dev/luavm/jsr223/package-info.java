/**
 * luavm as a {@code javax.script} (JSR-223) engine: {@link dev.luavm.jsr223.LuaScriptEngineFactory}
 * is registered under the names {@code lua} and {@code luavm}; each
 * {@link dev.luavm.jsr223.LuaScriptEngine} is one sandbox (standard capabilities and default
 * limits unless its {@code luavm.*} attributes say otherwise, see
 * {@link dev.luavm.jsr223.EngineSettings}), its engine-scope {@code Bindings} are the sandbox's
 * globals ({@link dev.luavm.jsr223.LuaBindings}), and it is {@code Compilable} and
 * {@code Invocable}.
 */
package dev.luavm.jsr223;
