/**
 * Differential testing against PUC-Rio Lua 5.3: {@link dev.luavm.conformance.difftest.ProgramGenerator}
 * makes random deterministic programs from seeds, {@link dev.luavm.conformance.difftest.ReferenceLua}
 * runs them in batches on {@code lua5.3}, the luavm side runs them through the public
 * {@code Sandbox} API, and {@link dev.luavm.conformance.difftest.DifferentialRunner} compares,
 * shrinks and records mismatches. How to run it: {@code conformance-tests/DIFFTEST.md}.
 */
package dev.luavm.conformance.difftest;
