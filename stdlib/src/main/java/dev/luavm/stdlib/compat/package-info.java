/**
 * The {@code compat} capability bundle: Lua 5.3.6's {@code LUA_COMPAT_5_2} functions
 * ({@code bit32}, the deprecated {@code math} functions, {@code __ipairs}), as lua's Makefile and
 * Debian's lua5.3 build them.
 */
package dev.luavm.stdlib.compat;
