package dev.luavm.bytecode;

/**
 * The single source of truth for every luavm instruction.
 *
 * <p>The instruction set is PUC-Rio Lua 5.3's ({@code lopcodes.h}), with the same operand
 * layout, so that {@code luavm -l} listings read like {@code luac -l}. Each constant carries:
 * <ul>
 *   <li>its {@link Format} (how the 32-bit word splits into operands),</li>
 *   <li>the {@link Mode} of operands B and C (unused, plain register/count, register-or-constant,
 *       jump offset),</li>
 *   <li>whether it writes register A, whether it is a test (the next instruction is a jump),</li>
 *   <li>whether it is a <em>safepoint</em>: a place where the VM checks gas, the clock and
 *       cancellation (backward jumps, calls, returns, loop steps),</li>
 *   <li>its gas cost, charged when the instruction executes,</li>
 *   <li>its one-line semantics in lopcodes notation ({@code R(A)} register, {@code K(x)}
 *       constant, {@code RK(x)} register or constant, {@code U[x]} upvalue).</li>
 * </ul>
 * The disassembler ({@link Disassembler}) takes names and formats only from here.
 */
public enum OpCode {
    //      format       B mode       C mode     setsA  test  safept gas   semantics
    MOVE(Format.ABC, Mode.REG, Mode.UNUSED, true, false, false, 1, "R(A) := R(B)"),
    LOADK(Format.ABx, Mode.CONST, Mode.UNUSED, true, false, false, 1, "R(A) := K(Bx)"),
    LOADKX(Format.ABx, Mode.UNUSED, Mode.UNUSED, true, false, false, 1, "R(A) := K(extra arg)"),
    LOADBOOL(Format.ABC, Mode.COUNT, Mode.COUNT, true, false, false, 1, "R(A) := (Bool)B; if (C) pc++"),
    LOADNIL(Format.ABC, Mode.COUNT, Mode.UNUSED, true, false, false, 1, "R(A), R(A+1), ..., R(A+B) := nil"),
    GETUPVAL(Format.ABC, Mode.COUNT, Mode.UNUSED, true, false, false, 1, "R(A) := U[B]"),
    GETTABUP(Format.ABC, Mode.COUNT, Mode.RK, true, false, false, 2, "R(A) := U[B][RK(C)]"),
    GETTABLE(Format.ABC, Mode.REG, Mode.RK, true, false, false, 2, "R(A) := R(B)[RK(C)]"),
    SETTABUP(Format.ABC, Mode.RK, Mode.RK, false, false, false, 2, "U[A][RK(B)] := RK(C)"),
    SETUPVAL(Format.ABC, Mode.COUNT, Mode.UNUSED, false, false, false, 1, "U[B] := R(A)"),
    SETTABLE(Format.ABC, Mode.RK, Mode.RK, false, false, false, 2, "R(A)[RK(B)] := RK(C)"),
    NEWTABLE(Format.ABC, Mode.COUNT, Mode.COUNT, true, false, false, 4, "R(A) := {} (array size B, hash size C, as floating-point bytes)"),
    SELF(Format.ABC, Mode.REG, Mode.RK, true, false, false, 2, "R(A+1) := R(B); R(A) := R(B)[RK(C)]"),
    ADD(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) + RK(C)"),
    SUB(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) - RK(C)"),
    MUL(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) * RK(C)"),
    MOD(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) % RK(C)"),
    POW(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) ^ RK(C)"),
    DIV(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) / RK(C)"),
    IDIV(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) // RK(C)"),
    BAND(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) & RK(C)"),
    BOR(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) | RK(C)"),
    BXOR(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) ~ RK(C)"),
    SHL(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) << RK(C)"),
    SHR(Format.ABC, Mode.RK, Mode.RK, true, false, false, 1, "R(A) := RK(B) >> RK(C)"),
    UNM(Format.ABC, Mode.REG, Mode.UNUSED, true, false, false, 1, "R(A) := -R(B)"),
    BNOT(Format.ABC, Mode.REG, Mode.UNUSED, true, false, false, 1, "R(A) := ~R(B)"),
    NOT(Format.ABC, Mode.REG, Mode.UNUSED, true, false, false, 1, "R(A) := not R(B)"),
    LEN(Format.ABC, Mode.REG, Mode.UNUSED, true, false, false, 1, "R(A) := length of R(B)"),
    CONCAT(Format.ABC, Mode.REG, Mode.REG, true, false, false, 2, "R(A) := R(B).. ... ..R(C)"),
    JMP(Format.AsBx, Mode.JUMP, Mode.UNUSED, false, false, true, 1, "pc += sBx; if (A) close all upvalues >= R(A - 1)"),
    EQ(Format.ABC, Mode.RK, Mode.RK, false, true, false, 1, "if ((RK(B) == RK(C)) ~= A) then pc++"),
    LT(Format.ABC, Mode.RK, Mode.RK, false, true, false, 1, "if ((RK(B) <  RK(C)) ~= A) then pc++"),
    LE(Format.ABC, Mode.RK, Mode.RK, false, true, false, 1, "if ((RK(B) <= RK(C)) ~= A) then pc++"),
    TEST(Format.ABC, Mode.UNUSED, Mode.COUNT, false, true, false, 1, "if not (R(A) <=> C) then pc++"),
    TESTSET(Format.ABC, Mode.REG, Mode.COUNT, true, true, false, 1, "if (R(B) <=> C) then R(A) := R(B) else pc++"),
    CALL(Format.ABC, Mode.COUNT, Mode.COUNT, true, false, true, 5, "R(A), ... ,R(A+C-2) := R(A)(R(A+1), ... ,R(A+B-1))"),
    TAILCALL(Format.ABC, Mode.COUNT, Mode.COUNT, true, false, true, 5, "return R(A)(R(A+1), ... ,R(A+B-1))"),
    RETURN(Format.ABC, Mode.COUNT, Mode.UNUSED, false, false, true, 2, "return R(A), ... ,R(A+B-2)"),
    FORLOOP(Format.AsBx, Mode.JUMP, Mode.UNUSED, true, false, true, 1, "R(A) += R(A+2); if R(A) <?= R(A+1) then { pc += sBx; R(A+3) := R(A) }"),
    FORPREP(Format.AsBx, Mode.JUMP, Mode.UNUSED, true, false, false, 2, "R(A) -= R(A+2); pc += sBx"),
    TFORCALL(Format.ABC, Mode.UNUSED, Mode.COUNT, false, false, true, 5, "R(A+3), ... ,R(A+2+C) := R(A)(R(A+1), R(A+2))"),
    TFORLOOP(Format.AsBx, Mode.JUMP, Mode.UNUSED, true, false, true, 1, "if R(A+1) ~= nil then { R(A) := R(A+1); pc += sBx }"),
    SETLIST(Format.ABC, Mode.COUNT, Mode.COUNT, false, false, false, 2, "R(A)[(C-1)*FPF+i] := R(A+i), 1 <= i <= B"),
    CLOSURE(Format.ABx, Mode.COUNT, Mode.UNUSED, true, false, false, 4, "R(A) := closure(KPROTO[Bx])"),
    VARARG(Format.ABC, Mode.COUNT, Mode.UNUSED, true, false, false, 2, "R(A), R(A+1), ..., R(A+B-2) = vararg"),
    EXTRAARG(Format.Ax, Mode.COUNT, Mode.UNUSED, false, false, false, 0, "extra (larger) argument for previous opcode");

    /** How the 32-bit instruction word splits into operands (see {@link Instr}). */
    public enum Format { ABC, ABx, AsBx, Ax }

    /** What an operand means. */
    public enum Mode {
        /** not used by the instruction */
        UNUSED,
        /** a plain number (count, upvalue index, boolean flag) */
        COUNT,
        /** a register */
        REG,
        /** a register, or a constant when the top bit ({@link Instr#BITRK}) is set */
        RK,
        /** a constant index */
        CONST,
        /** a signed jump offset */
        JUMP
    }

    /** Number of elements flushed by each SETLIST ("fields per flush"), as in PUC. */
    public static final int FIELDS_PER_FLUSH = 50;

    private static final OpCode[] VALUES = values();

    public final Format format;
    public final Mode bMode;
    public final Mode cMode;
    /** writes register A */
    public final boolean setsA;
    /** a test: the next instruction is always a JMP */
    public final boolean isTest;
    /** gas, clock and cancellation are checked here */
    public final boolean isSafepoint;
    /** gas charged each time the instruction executes */
    public final int gas;
    /** one-line semantics in lopcodes notation */
    public final String semantics;

    OpCode(Format format, Mode bMode, Mode cMode, boolean setsA, boolean isTest, boolean isSafepoint,
           int gas, String semantics) {
        this.format = format;
        this.bMode = bMode;
        this.cMode = cMode;
        this.setsA = setsA;
        this.isTest = isTest;
        this.isSafepoint = isSafepoint;
        this.gas = gas;
        this.semantics = semantics;
    }

    /** The opcode with the given ordinal, as stored in an instruction word. */
    public static OpCode of(int ordinal) {
        return VALUES[ordinal];
    }
}
