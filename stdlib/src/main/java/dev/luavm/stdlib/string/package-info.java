/**
 * The {@code string} capability bundle: {@link dev.luavm.stdlib.string.StringLibrary} registers
 * the functions; {@code PatternMatcher} and {@code PatternFunctions} implement Lua patterns,
 * {@code StringFormat} and {@code Printf} implement {@code string.format}, {@code StringPack}
 * implements {@code pack}/{@code unpack}/{@code packsize}, and {@code ByteBuilder} is the one
 * place results are charged (gas per byte, memory before allocation).
 */
package dev.luavm.stdlib.string;
