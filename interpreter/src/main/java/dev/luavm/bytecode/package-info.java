/**
 * The instruction set: {@link dev.luavm.bytecode.OpCode} (single source of truth),
 * {@link dev.luavm.bytecode.Instr} (the only code that shifts bits), compiled functions
 * ({@link dev.luavm.bytecode.Prototype}) and the {@code luac -l} style
 * {@link dev.luavm.bytecode.Disassembler}.
 */
package dev.luavm.bytecode;
