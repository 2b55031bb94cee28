/**
 * The {@code table} capability bundle, after PUC's {@code ltablib.c} (Lua 5.3.6).
 *
 * <p>Element access goes through {@link dev.luavm.lib.CallContext#index} and
 * {@link dev.luavm.lib.CallContext#setIndex} (5.3's {@code lua_geti}/{@code lua_seti}, honouring
 * {@code __index}/{@code __newindex}) and lengths through {@link dev.luavm.lib.CallContext#length}
 * ({@code luaL_len}, honouring {@code __len}), so proxies work as in 5.3; {@link TableArgs} holds
 * the shared checks and a raw fast path for plain tables.
 *
 * <p>Work that grows with the input is charged before it is done ({@link TableCosts}): a
 * {@code table.insert} into a proxy whose {@code __len} claims {@code 2^62} elements is stopped by
 * the gas meter before its first move.
 */
package dev.luavm.stdlib.table;
