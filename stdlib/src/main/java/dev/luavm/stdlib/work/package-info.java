/**
 * The gas rule of docs/STDLIB.md ("What gas pays for") as helpers every library uses: byte work
 * paid chunk by chunk before it runs ({@link dev.luavm.stdlib.work.ByteWork}) and string
 * comparisons paid by the bytes they compare ({@link dev.luavm.stdlib.work.StringCompare}).
 * Element work is charged with {@code CallContext.chargeGas}, in batches of 256 where a loop can
 * be long ({@code TableCosts.beforeMove}).
 */
package dev.luavm.stdlib.work;
