/**
 * The {@code utf8} capability bundle, after PUC's {@code lutf8lib.c} (Lua 5.3.6).
 *
 * <p>5.3's rules, which are looser than 5.4's: sequences of up to four bytes, code points up to
 * {@code 0x10FFFF}, surrogates accepted, overlong forms rejected; {@code utf8.char} takes values
 * up to {@code 0x10FFFF}. Strings are byte arrays; the decoder reads a byte past the end as the
 * 0 that terminates every PUC string, so it behaves identically at the end of the subject.
 */
package dev.luavm.stdlib.utf8;
