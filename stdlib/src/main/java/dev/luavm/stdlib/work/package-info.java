/**
 * The gas rule of docs/STDLIB.md ("What gas pays for") as helpers every library uses: byte work
 * paid chunk by chunk before it runs ({@link dev.luavm.stdlib.work.ByteWork}), element work in
 * batches ({@link dev.luavm.stdlib.work.ElementWork}), and string comparisons paid by the bytes
 * they compare ({@link dev.luavm.stdlib.work.StringCompare}).
 */
package dev.luavm.stdlib.work;
