/**
 * The snapshot format (docs/SNAPSHOT.md): {@link dev.luavm.snapshot.StateWriter} writes a
 * sandbox's state, {@link dev.luavm.snapshot.StateReader} reads one back into a fresh sandbox with
 * every check the format's spec lists, both from the one table of tags
 * {@link dev.luavm.snapshot.Tag}; {@link dev.luavm.snapshot.Permanents} resolves the names of
 * library builtins and host functions. The VM's side (coroutines and frames) is
 * {@code dev.luavm.vm.CoroutineImage} and {@code dev.luavm.vm.VmSnapshots}; the API's,
 * {@code Sandbox.snapshot()} and {@code LuaVM.restore}. Internal: not exported.
 */
package dev.luavm.snapshot;
