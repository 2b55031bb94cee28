/**
 * Coverage-guided fuzz targets (Jazzer {@code @FuzzTest}) for the compiler, the VM behind the
 * sandbox API, and Lua patterns. In a normal test run each target replays its seed and crash
 * inputs from {@code src/test/resources/dev/luavm/conformance/fuzz/<Class>Inputs/<method>/};
 * with {@code JAZZER_FUZZ=1} it fuzzes. How to run them: {@code conformance-tests/DIFFTEST.md}.
 */
package dev.luavm.conformance.fuzz;
