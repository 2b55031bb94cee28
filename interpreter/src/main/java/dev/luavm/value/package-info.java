/**
 * Lua values as the runtime represents them: nil is {@code null}, booleans are {@code Boolean},
 * integers {@code Long}, floats {@code Double}; strings are byte strings
 * ({@link dev.luavm.value.LuaString}); tables ({@link dev.luavm.value.LuaTable}), closures,
 * builtins, upvalues and userdata live here too. Number/string conversions follow PUC in
 * {@link dev.luavm.value.LuaNumbers}.
 */
package dev.luavm.value;
