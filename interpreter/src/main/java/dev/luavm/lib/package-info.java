/**
 * The contract between the interpreter and the standard library: capability bundles implement
 * {@link dev.luavm.lib.Library}; library functions see the VM only through
 * {@link dev.luavm.lib.CallContext} and the outside world only through
 * {@link dev.luavm.lib.HostEnvironment}.
 */
package dev.luavm.lib;
