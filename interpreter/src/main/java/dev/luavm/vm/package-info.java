/**
 * The virtual machine: per-sandbox state ({@link dev.luavm.vm.LuaState}), coroutines with their
 * own register and frame stacks, the dispatch loop and its out-of-line slow paths (arithmetic,
 * metamethods, calls), PUC-compatible error messages and tracebacks. The VM rules are numbered
 * atop {@code Interpreter}.
 */
package dev.luavm.vm;
