package dev.luavm.vm;

import dev.luavm.bytecode.OpCode;

/**
 * The opcodes as {@code int} constants, so that the dispatch loop ({@link Interpreter#execute})
 * can switch on the 6-bit opcode field with labels that read like the opcode table
 * ({@code case OP_MOVE:}); an enum switch would cost a lookup array per instruction. Each value
 * is the {@link OpCode} constant's ordinal, which is how an instruction word stores it;
 * {@code OpsTest} fails if one drifts from {@link OpCode}.
 */
final class Ops {
    private Ops() {}

    static final int OP_MOVE = 0;
    static final int OP_LOADK = 1;
    static final int OP_LOADKX = 2;
    static final int OP_LOADBOOL = 3;
    static final int OP_LOADNIL = 4;
    static final int OP_GETUPVAL = 5;
    static final int OP_GETTABUP = 6;
    static final int OP_GETTABLE = 7;
    static final int OP_SETTABUP = 8;
    static final int OP_SETUPVAL = 9;
    static final int OP_SETTABLE = 10;
    static final int OP_NEWTABLE = 11;
    static final int OP_SELF = 12;
    static final int OP_ADD = 13;
    static final int OP_SUB = 14;
    static final int OP_MUL = 15;
    static final int OP_MOD = 16;
    static final int OP_POW = 17;
    static final int OP_DIV = 18;
    static final int OP_IDIV = 19;
    static final int OP_BAND = 20;
    static final int OP_BOR = 21;
    static final int OP_BXOR = 22;
    static final int OP_SHL = 23;
    static final int OP_SHR = 24;
    static final int OP_UNM = 25;
    static final int OP_BNOT = 26;
    static final int OP_NOT = 27;
    static final int OP_LEN = 28;
    static final int OP_CONCAT = 29;
    static final int OP_JMP = 30;
    static final int OP_EQ = 31;
    static final int OP_LT = 32;
    static final int OP_LE = 33;
    static final int OP_TEST = 34;
    static final int OP_TESTSET = 35;
    static final int OP_CALL = 36;
    static final int OP_TAILCALL = 37;
    static final int OP_RETURN = 38;
    static final int OP_FORLOOP = 39;
    static final int OP_FORPREP = 40;
    static final int OP_TFORCALL = 41;
    static final int OP_TFORLOOP = 42;
    static final int OP_SETLIST = 43;
    static final int OP_CLOSURE = 44;
    static final int OP_VARARG = 45;
    static final int OP_EXTRAARG = 46;
}
