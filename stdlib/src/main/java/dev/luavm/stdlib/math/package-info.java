/**
 * The {@code math} capability bundle, after PUC's {@code lmathlib.c} (Lua 5.3.6): integer and
 * float subtypes, results and error messages as in 5.3.6.
 *
 * <p>Random numbers come from a per-sandbox xoshiro256** generator ({@link Xoshiro256}) kept in
 * the sandbox registry and seeded from {@link dev.luavm.lib.HostEnvironment#randomSeed()}; the
 * builtins themselves hold no state. The values differ from PUC's (which uses the C library's
 * {@code rand}), but ranges, argument checks and messages match.
 */
package dev.luavm.stdlib.math;
