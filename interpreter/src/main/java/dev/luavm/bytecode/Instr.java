package dev.luavm.bytecode;

/**
 * Encodes and decodes instruction words. Nobody else shifts bits.
 *
 * <p>Layout (PUC-Rio Lua 5.3): {@code [B:9][C:9][A:8][OP:6]} from the high bit down, i.e.
 * OP in bits 0-5, A in bits 6-13, C in bits 14-22, B in bits 23-31. {@code Bx} is B and C
 * together (18 bits, unsigned); {@code sBx} is Bx minus {@link #MAXARG_sBx} (excess-K);
 * {@code Ax} is everything above OP (26 bits). In RK operands, {@link #BITRK} marks a
 * constant index: {@code RK(x) = x & BITRK ? K(x & ~BITRK) : R(x)}.
 */
public final class Instr {
    private Instr() {}

    public static final int SIZE_OP = 6;
    public static final int SIZE_A = 8;
    public static final int SIZE_B = 9;
    public static final int SIZE_C = 9;
    public static final int SIZE_Bx = SIZE_B + SIZE_C;
    public static final int SIZE_Ax = SIZE_Bx + SIZE_A;

    public static final int POS_OP = 0;
    public static final int POS_A = POS_OP + SIZE_OP;
    public static final int POS_C = POS_A + SIZE_A;
    public static final int POS_B = POS_C + SIZE_C;
    public static final int POS_Bx = POS_C;
    public static final int POS_Ax = POS_A;

    public static final int MAXARG_A = (1 << SIZE_A) - 1;
    public static final int MAXARG_B = (1 << SIZE_B) - 1;
    public static final int MAXARG_C = (1 << SIZE_C) - 1;
    public static final int MAXARG_Bx = (1 << SIZE_Bx) - 1;
    public static final int MAXARG_sBx = MAXARG_Bx >> 1;
    public static final int MAXARG_Ax = (1 << SIZE_Ax) - 1;

    /** Marks an RK operand as a constant index. */
    public static final int BITRK = 1 << (SIZE_B - 1);
    /** Largest constant index an RK operand can hold. */
    public static final int MAXINDEXRK = BITRK - 1;
    /** "no register" marker used by the compiler for jump lists and such. */
    public static final int NO_REG = MAXARG_A;

    private static final int MASK_OP = (1 << SIZE_OP) - 1;

    public static int opcode(int i) { return i & MASK_OP; }
    public static OpCode op(int i) { return OpCode.of(i & MASK_OP); }
    public static int a(int i) { return (i >>> POS_A) & MAXARG_A; }
    public static int b(int i) { return (i >>> POS_B) & MAXARG_B; }
    public static int c(int i) { return (i >>> POS_C) & MAXARG_C; }
    public static int bx(int i) { return (i >>> POS_Bx) & MAXARG_Bx; }
    public static int sbx(int i) { return ((i >>> POS_Bx) & MAXARG_Bx) - MAXARG_sBx; }
    public static int ax(int i) { return i >>> POS_Ax; }

    public static boolean isK(int rk) { return (rk & BITRK) != 0; }
    public static int indexK(int rk) { return rk & ~BITRK; }
    public static int rkAsK(int k) { return k | BITRK; }

    public static int abc(OpCode op, int a, int b, int c) {
        check(a, MAXARG_A, "A");
        check(b, MAXARG_B, "B");
        check(c, MAXARG_C, "C");
        return (b << POS_B) | (c << POS_C) | (a << POS_A) | op.ordinal();
    }

    public static int abx(OpCode op, int a, int bx) {
        check(a, MAXARG_A, "A");
        check(bx, MAXARG_Bx, "Bx");
        return (bx << POS_Bx) | (a << POS_A) | op.ordinal();
    }

    public static int asbx(OpCode op, int a, int sbx) {
        check(a, MAXARG_A, "A");
        check(sbx + MAXARG_sBx, MAXARG_Bx, "sBx");
        return ((sbx + MAXARG_sBx) << POS_Bx) | (a << POS_A) | op.ordinal();
    }

    public static int ax(OpCode op, int ax) {
        check(ax, MAXARG_Ax, "Ax");
        return (ax << POS_Ax) | op.ordinal();
    }

    /** Returns {@code i} with operand A replaced. */
    public static int setA(int i, int a) {
        check(a, MAXARG_A, "A");
        return (i & ~(MAXARG_A << POS_A)) | (a << POS_A);
    }

    public static int setB(int i, int b) {
        check(b, MAXARG_B, "B");
        return (i & ~(MAXARG_B << POS_B)) | (b << POS_B);
    }

    public static int setC(int i, int c) {
        check(c, MAXARG_C, "C");
        return (i & ~(MAXARG_C << POS_C)) | (c << POS_C);
    }

    public static int setSbx(int i, int sbx) {
        check(sbx + MAXARG_sBx, MAXARG_Bx, "sBx");
        return (i & ~(MAXARG_Bx << POS_Bx)) | ((sbx + MAXARG_sBx) << POS_Bx);
    }

    private static void check(int value, int max, String operand) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException("operand " + operand + " out of range: " + value);
        }
    }
}
