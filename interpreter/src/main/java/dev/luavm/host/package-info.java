/**
 * Host functions: how Java code granted to a sandbox is called from Lua, and how each call is
 * governed. Every call passes through {@link dev.luavm.host.HostGateway}, which checks what the
 * grant declares ({@link dev.luavm.host.Safety}, {@link dev.luavm.host.Param},
 * {@link dev.luavm.host.ArgConstraint}), asks the {@link dev.luavm.host.HostCallPolicy} (and,
 * when it says so, an {@link dev.luavm.host.Operator}) from a read-only
 * {@link dev.luavm.host.CallRequest}, and writes the call to the audit log
 * ({@link dev.luavm.audit}); values cross the boundary through
 * {@link dev.luavm.host.ValueConverter}, bounded in depth and size.
 */
package dev.luavm.host;
