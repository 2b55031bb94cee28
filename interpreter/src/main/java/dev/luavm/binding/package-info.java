/**
 * Typed host modules: a plain Java class annotated with {@link dev.luavm.binding.LuaModule},
 * {@link dev.luavm.binding.LuaFunction} and {@link dev.luavm.binding.Param}, granted with one
 * call ({@code Capabilities.Builder.module(instance)}). {@link dev.luavm.binding.ModuleBinder}
 * reads the class once, at registration, into declared host functions whose arguments are
 * checked and converted to the methods' parameter types and whose results are converted from
 * their return types; every call goes through the host-call gateway (policy, audit) like any
 * other grant.
 */
package dev.luavm.binding;
