/**
 * Host functions: how Java code granted to a sandbox is called from Lua. Every call passes
 * through {@link dev.luavm.host.HostGateway} (the seam for policies, quotas, audit and replay);
 * values cross the boundary through {@link dev.luavm.host.ValueConverter}, bounded in depth and size.
 */
package dev.luavm.host;
