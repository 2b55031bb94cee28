/**
 * The {@code package} capability bundle and {@code require}, after PUC's {@code loadlib.c}
 * (Lua 5.3.6) without the host's file system: modules come from {@code package.preload}, from
 * Lua source files in the host's module directories ({@link dev.luavm.host.ModuleFiles}) or under
 * a mount point of the sandbox's own file system ({@link dev.luavm.lib.FileSystem}), found
 * through {@code package.path}, and from the host
 * ({@link dev.luavm.lib.HostEnvironment#resolveModule(String)}); never from C libraries.
 * {@code package.cpath} and {@code package.config} exist as plain strings for compatibility;
 * {@code package.searchpath} does PUC's string processing and finds only such files. There is no
 * {@code loadlib}.
 *
 * <p>Host modules are source text compiled by the VM's {@code load}
 * ({@link dev.luavm.lib.Intrinsic#LOAD}, obtained at install time and kept in the sandbox
 * registry), in text mode with the sandbox's globals as environment and {@code "@" + name} as
 * chunk name. {@code require} finds loaders through the table {@code package.searchers}
 * (preload, then host), so scripts may add searchers of their own as in PUC.
 */
package dev.luavm.stdlib.pkg;
