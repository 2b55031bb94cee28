/**
 * The gas rule of docs/STDLIB.md ("What gas pays for") as helpers every library uses: byte work
 * paid chunk by chunk before it runs ({@link dev.luavm.stdlib.work.ByteWork}); string
 * comparisons pay the bytes they compare through the VM's own
 * {@code LuaString.compareTo(other, c::chargeGas)} and {@code equals(other, c::chargeGas)}.
 * Element work is charged with {@code CallContext.chargeGas}, in batches of 256 where a loop can
 * be long ({@code TableCosts.beforeMove}).
 */
package dev.luavm.stdlib.work;
