/**
 * The {@code package} capability bundle and {@code require}, after PUC's {@code loadlib.c}
 * (Lua 5.3.6) without the file system: modules come only from {@code package.preload} and from
 * the host ({@link dev.luavm.lib.HostEnvironment#resolveModule(String)}), never from files or
 * C libraries. {@code package.path}, {@code package.cpath} and {@code package.config} exist as
 * plain strings for compatibility; {@code package.searchpath} does PUC's string processing and
 * reports every candidate as absent. There is no {@code loadlib}.
 *
 * <p>Host modules are source text compiled by the VM's {@code load}
 * ({@link dev.luavm.lib.Intrinsic#LOAD}, obtained at install time and kept in the sandbox
 * registry), in text mode with the sandbox's globals as environment and {@code "@" + name} as
 * chunk name. {@code require} finds loaders through the table {@code package.searchers}
 * (preload, then host), so scripts may add searchers of their own as in PUC.
 */
package dev.luavm.stdlib.pkg;
