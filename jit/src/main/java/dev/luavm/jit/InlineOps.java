package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.vm.tier.FunctionCompiler;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The interpreter's fast paths written as bytecode into a compiled function's {@code run}, so
 * the common instructions cost no helper call: register moves, constants, truth tests, integer
 * and float arithmetic and compares, the integer for loop, and the plain-table reads and writes
 * (through tiny {@code TierSupport} helpers that call the same {@code LuaTable} methods as the
 * interpreter, so probes charge the same gas).
 *
 * <p>Registers stay in {@code co.stack}, which a local ({@link #L_STACK}) caches: it is loaded
 * on entry and reloaded after every out-of-line helper call (a builtin run in place may grow the
 * stack). Anything a fast path does not cover (another type, a metamethod, a string to coerce)
 * goes, as in the interpreter, to the slow path with the operands already read: a short stub
 * per instruction stores the operand word and jumps to one shared block per kind, which calls
 * the helper, leaves on a frame change and otherwise re-enters through the entry switch at the
 * next pc (kept compact for HotSpot's 8,000-byte compile limit). Operands that are constants
 * are specialised at generation time (a known integer or float skips its type test).
 *
 * <p>Semantics are exactly the interpreter's cases: the same operand-type tests in the same
 * order, the same wraparound, the same float division and NaN behaviour (compares through
 * {@code DCMPG}: false on NaN), the same integer-loop rule (never steps past its limit).
 */
final class InlineOps implements Opcodes {
    private static final String RT = FunctionCompiler.RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";
    private static final String CO = "Ldev/luavm/vm/Coroutine;";
    private static final String FR = "Ldev/luavm/vm/CallFrame;";
    private static final String OP = "(" + ST + CO + FR + "III)I";
    private static final String OBJ = "Ljava/lang/Object;";
    private static final String LONG = "java/lang/Long";
    private static final String DOUBLE = "java/lang/Double";
    private static final String BOOL = "java/lang/Boolean";

    // locals 14-29 belong to the inline paths (see AsmFunctionCompiler)
    static final int L_STACK = 14, L_K = 15, L_X = 16, L_Y = 17, L_I = 18, L_U = 19, L_W = 21, L_S = 23,
            L_T = 25, L_R = 26;

    private static final int ST_L = AsmFunctionCompiler.L_ST, CO_L = AsmFunctionCompiler.L_CO,
            F_L = AsmFunctionCompiler.L_F, BASE_L = AsmFunctionCompiler.L_BASE, PC_L = AsmFunctionCompiler.L_PC;

    /** what generation knows of an RK operand */
    private enum Kind { ANY, INT, FLT, NIL, OTHER }

    private final MethodVisitor mv;
    private final java.util.function.IntFunction<Label> at;
    private final int codeLength;
    private final Label bad;
    private final Label exit0;
    private final Label dispatch;
    private final Object[] k;
    /** per-instruction stubs, emitted out of line */
    private final List<Runnable> stubs = new ArrayList<>();
    /** one shared slow block per kind, emitted once if used */
    private final Map<String, Label> shared = new LinkedHashMap<>();

    /** false: moves, constants, tests, loops and tables only (a compact run for a large prototype) */
    private final boolean full;
    /** the instruction being emitted */
    private int cur;

    InlineOps(MethodVisitor mv, java.util.function.IntFunction<Label> at, int codeLength, Label bad, Label exit0, Label dispatch, Object[] constants, boolean full) {
        this.full = full;
        this.mv = mv;
        this.at = at;
        this.codeLength = codeLength;
        this.bad = bad;
        this.exit0 = exit0;
        this.dispatch = dispatch;
        this.k = constants;
    }

    private Label label(int pc) {
        return pc >= 0 && pc < codeLength ? at.apply(pc) : bad;
    }

    // ---- entry and slow paths

    /** Loads the stack and constants caches (before the entry switch). */
    void prologue() {
        mv.visitVarInsn(ALOAD, F_L);
        mv.visitMethodInsn(INVOKESTATIC, RT, "constants", "(" + FR + ")[" + OBJ, false);
        mv.visitVarInsn(ASTORE, L_K);
        reloadStack();
    }

    void reloadStack() {
        mv.visitVarInsn(ALOAD, CO_L);
        mv.visitMethodInsn(INVOKESTATIC, RT, "stack", "(" + CO + ")[" + OBJ, false);
        mv.visitVarInsn(ASTORE, L_STACK);
    }

    /** The stubs and shared slow blocks; emitted inside the method's try range. */
    void slowBlocks() {
        for (int n = 0; n < stubs.size(); n++) stubs.get(n).run(); // stubs may add shared blocks
        for (Map.Entry<String, Label> e : shared.entrySet()) {
            mv.visitLabel(e.getValue());
            String name = e.getKey();
            switch (name) {
                case "indexMiss", "indexPast" -> { // indexPast: SELF's receiver missed within its free probes
                    loadStCoFBase();
                    mv.visitVarInsn(ILOAD, L_I);
                    mv.visitVarInsn(ILOAD, PC_L);
                    mv.visitVarInsn(ALOAD, L_T);
                    mv.visitVarInsn(ALOAD, L_X);
                    mv.visitMethodInsn(INVOKESTATIC, RT, name, "(" + ST + CO + FR + "III" + OBJ + OBJ + ")I", false);
                    mv.visitJumpInsn(IFLT, exit0);
                }
                case "setIndexMiss" -> {
                    mv.visitVarInsn(ALOAD, ST_L);
                    mv.visitVarInsn(ALOAD, F_L);
                    mv.visitVarInsn(ILOAD, PC_L);
                    mv.visitVarInsn(ALOAD, L_T);
                    mv.visitVarInsn(ALOAD, L_X);
                    mv.visitVarInsn(ALOAD, L_Y);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "setIndexMiss", "(" + ST + FR + "I" + OBJ + OBJ + OBJ + ")I", false);
                    mv.visitJumpInsn(IFLT, exit0);
                }
                case "compare" -> {
                    // 1 skips the next instruction: re-enter at pc + 1 + r
                    helperWithI("compare");
                    mv.visitVarInsn(ISTORE, L_R);
                    mv.visitVarInsn(ILOAD, L_R);
                    mv.visitJumpInsn(IFLT, exit0);
                    mv.visitVarInsn(ILOAD, PC_L);
                    mv.visitVarInsn(ILOAD, L_R);
                    mv.visitInsn(IADD);
                    mv.visitVarInsn(ISTORE, PC_L);
                }
                default -> { // arith, unm, bnot, len: the helper redoes the (failed) fast tests, then the metamethod
                    helperWithI(name);
                    mv.visitJumpInsn(IFLT, exit0);
                }
            }
            reloadStack();
            mv.visitJumpInsn(GOTO, dispatch);
        }
    }

    private void loadStCoFBase() {
        mv.visitVarInsn(ALOAD, ST_L);
        mv.visitVarInsn(ALOAD, CO_L);
        mv.visitVarInsn(ALOAD, F_L);
        mv.visitVarInsn(ILOAD, BASE_L);
    }

    private void helperWithI(String name) {
        loadStCoFBase();
        mv.visitVarInsn(ILOAD, L_I);
        mv.visitVarInsn(ILOAD, PC_L);
        mv.visitMethodInsn(INVOKESTATIC, RT, name, OP, false);
    }

    /** A stub that stores the operand word and jumps to the shared block {@code kind}; returns its label. */
    private Label slow(String kind, int i, int pc) {
        return slow(kind, i, pc, null);
    }

    /** the stub also notes the pc (fast paths that cannot raise a Lua error leave it to the stub) */
    private Label slow(String kind, int i, int pc, Runnable before) {
        Label l = new Label();
        stubs.add(() -> {
            mv.visitLabel(l);
            if (before != null) before.run();
            storePc(pc);
            push(i);
            mv.visitVarInsn(ISTORE, L_I);
            mv.visitJumpInsn(GOTO, shared.computeIfAbsent(kind, x -> new Label()));
        });
        return l;
    }

    // ---- emission helpers

    /** L_PC = pc + 1: the pc an error reports and where a slow path re-enters */
    private void storePc(int pc) {
        push(pc + 1);
        mv.visitVarInsn(ISTORE, PC_L);
    }

    private void push(int v) {
        Emit.pushInt(mv, v);
    }

    private void pushLong(long v) {
        if (v == 0 || v == 1) mv.visitInsn(LCONST_0 + (int) v);
        else mv.visitLdcInsn(v);
    }

    private void pushDouble(double v) {
        if (Double.doubleToRawLongBits(v) == 0L) mv.visitInsn(DCONST_0);
        else if (v == 1.0) mv.visitInsn(DCONST_1);
        else mv.visitLdcInsn(v);
    }

    /** stack array and absolute index of register r: [Object[], int] */
    private void slot(int r) {
        mv.visitVarInsn(ALOAD, L_STACK);
        mv.visitVarInsn(ILOAD, BASE_L);
        if (r != 0) {
            push(r);
            mv.visitInsn(IADD);
        }
    }

    /** pushes R(r) */
    private void reg(int r) {
        slot(r);
        mv.visitInsn(AALOAD);
    }

    /** pushes RK(x) */
    private void rk(int x) {
        if (x > 0xFF) {
            mv.visitVarInsn(ALOAD, L_K);
            push(x & 0xFF);
            mv.visitInsn(AALOAD);
        } else {
            reg(x);
        }
    }

    private Kind kind(int x) {
        if (x <= 0xFF) return Kind.ANY;
        Object c = k[x & 0xFF];
        if (c instanceof Long) return Kind.INT;
        if (c instanceof Double) return Kind.FLT;
        if (c == null) return Kind.NIL;
        return Kind.OTHER;
    }

    private Object constant(int x) {
        return k[x & 0xFF];
    }

    private void unboxLong() {
        mv.visitTypeInsn(CHECKCAST, LONG);
        mv.visitMethodInsn(INVOKEVIRTUAL, LONG, "longValue", "()J", false);
    }

    private void unboxDouble() {
        mv.visitTypeInsn(CHECKCAST, DOUBLE);
        mv.visitMethodInsn(INVOKEVIRTUAL, DOUBLE, "doubleValue", "()D", false);
    }

    private void boxLong() {
        mv.visitMethodInsn(INVOKESTATIC, LONG, "valueOf", "(J)Ljava/lang/Long;", false);
    }

    private void boxDouble() {
        mv.visitMethodInsn(INVOKESTATIC, DOUBLE, "valueOf", "(D)Ljava/lang/Double;", false);
    }

    /** the long value of operand x held in local {@code local} (a constant is pushed directly) */
    private void longOf(int x, Kind kx, int local) {
        if (kx == Kind.INT) {
            pushLong((Long) constant(x));
        } else {
            mv.visitVarInsn(ALOAD, local);
            unboxLong();
        }
    }

    /** jumps to {@code no} unless the object in {@code local} is an instance of {@code type} */
    private void requireType(int local, String type, Label no) {
        mv.visitVarInsn(ALOAD, local);
        mv.visitTypeInsn(INSTANCEOF, type);
        mv.visitJumpInsn(IFEQ, no);
    }

    /** the double value of operand x (a Double, or a Long converted); jumps to {@code no} otherwise */
    private void doubleOf(int x, Kind kx, int local, Label no) {
        if (kx == Kind.FLT) {
            pushDouble((Double) constant(x));
            return;
        }
        if (kx == Kind.INT) {
            pushDouble((double) (Long) constant(x));
            return;
        }
        // a float register; an integer one (mixed operands at run time) takes the helper, which
        // converts it as the interpreter does (kept out of line: code size)
        requireType(local, DOUBLE, no);
        mv.visitVarInsn(ALOAD, local);
        unboxDouble();
    }

    /** jumps to {@code falsy} when the object on the stack is nil or false, else falls through */
    private void ifFalsy(Label falsy) {
        Label truthy = new Label();
        mv.visitInsn(DUP);
        mv.visitJumpInsn(IFNULL, falsyPop(falsy));
        mv.visitInsn(DUP);
        mv.visitTypeInsn(INSTANCEOF, BOOL);
        Label isBool = new Label();
        mv.visitJumpInsn(IFNE, isBool);
        mv.visitInsn(POP);
        mv.visitJumpInsn(GOTO, truthy);
        mv.visitLabel(isBool);
        mv.visitTypeInsn(CHECKCAST, BOOL);
        mv.visitMethodInsn(INVOKEVIRTUAL, BOOL, "booleanValue", "()Z", false);
        mv.visitJumpInsn(IFEQ, falsy);
        mv.visitLabel(truthy);
    }

    private Label falsyPop(Label falsy) {
        Label l = new Label();
        stubs.add(() -> {
            mv.visitLabel(l);
            mv.visitInsn(POP);
            mv.visitJumpInsn(GOTO, falsy);
        });
        return l;
    }

    // ---- instructions: true when emitted here; false leaves the instruction to the helper call

    /**
     * Emits instruction {@code pc} after its gas, or returns false having emitted nothing (the
     * caller notes the pc and calls the helper). Instructions that cannot raise a Lua error here
     * (moves, constants, truth tests; arithmetic and compares on their fast paths) skip the pc
     * store: their stubs note it before a slow path.
     */
    boolean emit(OpCode op, int i, int pc) {
        cur = pc;
        int a = (i >>> 6) & 0xFF;
        int b = i >>> 23;
        int c = (i >>> 14) & 0x1FF;
        switch (op) {
            case GETTABLE, GETTABUP, SELF, SETTABLE, SETTABUP -> storePc(pc); // probes may raise "not enough memory"
            default -> { }
        }
        if (!full) {
            switch (op) {
                case ADD, SUB, MUL, DIV, MOD, IDIV, BAND, BOR, BXOR, SHL, SHR, UNM, BNOT, EQ, LT, LE, LEN -> {
                    return false;
                }
                default -> { }
            }
        }
        switch (op) {
            case MOVE -> {
                slot(a);
                reg(b);
                mv.visitInsn(AASTORE);
            }
            case LOADK -> {
                slot(a);
                mv.visitVarInsn(ALOAD, L_K);
                push(i >>> 14);
                mv.visitInsn(AALOAD);
                mv.visitInsn(AASTORE);
            }
            case LOADBOOL -> {
                slot(a);
                mv.visitFieldInsn(GETSTATIC, BOOL, b != 0 ? "TRUE" : "FALSE", "Ljava/lang/Boolean;");
                mv.visitInsn(AASTORE);
                if (c != 0) mv.visitJumpInsn(GOTO, label(pc + 2));
            }
            case LOADNIL -> {
                for (int j = 0; j <= b; j++) {
                    slot(a + j);
                    mv.visitInsn(ACONST_NULL);
                    mv.visitInsn(AASTORE);
                }
            }
            case GETUPVAL -> {
                slot(a);
                mv.visitVarInsn(ALOAD, F_L);
                push(b);
                mv.visitMethodInsn(INVOKESTATIC, RT, "upval", "(" + FR + "I)" + OBJ, false);
                mv.visitInsn(AASTORE);
            }
            case SETUPVAL -> {
                mv.visitVarInsn(ALOAD, F_L);
                push(b);
                reg(a);
                mv.visitMethodInsn(INVOKESTATIC, RT, "setUpval", "(" + FR + "I" + OBJ + ")V", false);
            }
            case NOT -> {
                Label falsy = new Label();
                Label done = new Label();
                slot(a);
                reg(b);
                ifFalsy(falsy);
                mv.visitFieldInsn(GETSTATIC, BOOL, "FALSE", "Ljava/lang/Boolean;");
                mv.visitJumpInsn(GOTO, done);
                mv.visitLabel(falsy);
                mv.visitFieldInsn(GETSTATIC, BOOL, "TRUE", "Ljava/lang/Boolean;");
                mv.visitLabel(done);
                mv.visitInsn(AASTORE);
            }
            case TEST -> {
                // skip the next instruction when falsy == (C != 0)
                reg(a);
                Label falsy = new Label();
                ifFalsy(falsy);
                mv.visitJumpInsn(GOTO, label(c != 0 ? pc + 1 : pc + 2));
                mv.visitLabel(falsy);
                mv.visitJumpInsn(GOTO, label(c != 0 ? pc + 2 : pc + 1));
            }
            case TESTSET -> {
                reg(b);
                mv.visitVarInsn(ASTORE, L_X);
                mv.visitVarInsn(ALOAD, L_X);
                Label falsy = new Label();
                Label assign = new Label();
                ifFalsy(falsy);
                // truthy: skip when C == 0
                mv.visitJumpInsn(GOTO, c != 0 ? assign : label(pc + 2));
                mv.visitLabel(falsy);
                if (c != 0) mv.visitJumpInsn(GOTO, label(pc + 2));
                mv.visitLabel(assign);
                slot(a);
                mv.visitVarInsn(ALOAD, L_X);
                mv.visitInsn(AASTORE);
            }
            case ADD, SUB, MUL, DIV, MOD, IDIV, BAND, BOR, BXOR, SHL, SHR -> {
                return arith(op, i, a, b, c);
            }
            case UNM, BNOT -> unary(op, i, a, b);
            case EQ, LT, LE -> {
                return compare(op, i, pc, a, b, c);
            }
            case GETTABLE -> tableRead(i, a, c, () -> reg(b), kind(c) == Kind.INT ? "rawGetInt" : "rawGet");
            case GETTABUP -> tableRead(i, a, c, () -> upval(b), "rawGetUp");
            case SELF -> {
                rk(c); // the key before R(A+1) is written, as the interpreter reads it
                mv.visitVarInsn(ASTORE, L_X);
                reg(b);
                mv.visitVarInsn(ASTORE, L_T);
                slot(a + 1);
                mv.visitVarInsn(ALOAD, L_T);
                mv.visitInsn(AASTORE);
                slot(a);
                mv.visitVarInsn(ALOAD, L_T);
                mv.visitVarInsn(ALOAD, L_X);
                mv.visitMethodInsn(INVOKESTATIC, RT, "selfGet", "(" + OBJ + OBJ + ")" + OBJ, false);
                mv.visitInsn(DUP);
                mv.visitFieldInsn(GETSTATIC, RT, "FREE_MISS", OBJ);
                mv.visitJumpInsn(IF_ACMPEQ, slow("indexPast", i, pc, () -> popValueAndSlot()));
                missOrStore(slow("indexMiss", i, pc, () -> popValueAndSlot()));
            }
            case SETTABLE -> tableWrite(i, b, c, () -> reg(a), "rawSet");
            case SETTABUP -> tableWrite(i, b, c, () -> upval(a), "rawSetStr");
            case LEN -> {
                slot(a);
                reg(b);
                mv.visitMethodInsn(INVOKESTATIC, RT, "rawLen", "(" + OBJ + ")" + OBJ, false);
                missOrStore(slow("len", i, pc, () -> popValueAndSlot()));
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** GETTABLE/GETTABUP: table in L_T, key RK(c); an integer constant key goes through rawGetInt */
    private void upval(int idx) {
        mv.visitVarInsn(ALOAD, F_L);
        push(idx);
        mv.visitMethodInsn(INVOKESTATIC, RT, "upval", "(" + FR + "I)" + OBJ, false);
    }

    /** [stack, index, value]: a value other than MISS is stored, MISS jumps to {@code miss} */
    private void missOrStore(Label miss) {
        mv.visitInsn(DUP);
        mv.visitFieldInsn(GETSTATIC, RT, "MISS", OBJ);
        mv.visitJumpInsn(IF_ACMPEQ, miss);
        mv.visitInsn(AASTORE);
    }

    private void popValueAndSlot() {
        mv.visitInsn(POP);
        mv.visitInsn(POP2);
    }

    /**
     * GETTABLE/GETTABUP: R(a) = raw read of the table {@code tab} pushes (kept in L_T) at key
     * RK(c) (kept in L_X), or on a MISS Meta.index with those operands.
     */
    private void tableRead(int i, int a, int c, Runnable tab, String helper) {
        tab.run();
        mv.visitVarInsn(ASTORE, L_T);
        boolean intKey = helper.equals("rawGetInt");
        if (!intKey) {
            rk(c);
            mv.visitVarInsn(ASTORE, L_X);
        }
        slot(a);
        mv.visitVarInsn(ALOAD, L_T);
        if (intKey) {
            pushLong((Long) constant(c));
            mv.visitMethodInsn(INVOKESTATIC, RT, helper, "(" + OBJ + "J)" + OBJ, false);
        } else {
            mv.visitVarInsn(ALOAD, L_X);
            mv.visitMethodInsn(INVOKESTATIC, RT, helper, "(" + OBJ + OBJ + ")" + OBJ, false);
        }
        missOrStore(slow("indexMiss", i, cur, () -> {
            popValueAndSlot();
            if (intKey) {
                rk(c);
                mv.visitVarInsn(ASTORE, L_X);
            }
        }));
    }

    /** SETTABLE/SETTABUP: raw write of RK(c) at RK(b), else Meta.setIndex with the operands kept in locals */
    private void tableWrite(int i, int b, int c, Runnable tab, String helper) {
        tab.run();
        mv.visitVarInsn(ASTORE, L_T);
        rk(b);
        mv.visitVarInsn(ASTORE, L_X);
        rk(c);
        mv.visitVarInsn(ASTORE, L_Y);
        mv.visitVarInsn(ALOAD, L_T);
        mv.visitVarInsn(ALOAD, L_X);
        mv.visitVarInsn(ALOAD, L_Y);
        mv.visitMethodInsn(INVOKESTATIC, RT, helper, "(" + OBJ + OBJ + OBJ + ")Z", false);
        mv.visitJumpInsn(IFEQ, slow("setIndexMiss", i, cur));
    }

    /** ADD .. SHR: the interpreter's integer case, then its float case (ADD, SUB, MUL, DIV), else Meta.arith */
    private boolean arith(OpCode op, int i, int a, int b, int c) {
        Kind kx = kind(b);
        Kind ky = kind(c);
        boolean numeric = (kx == Kind.ANY || kx == Kind.INT || kx == Kind.FLT) && (ky == Kind.ANY || ky == Kind.INT || ky == Kind.FLT);
        if (!numeric) return false; // a string or other constant: the helper (coercion, metamethods)
        boolean intCase = kx != Kind.FLT && ky != Kind.FLT;
        boolean fltCase = (op == OpCode.ADD || op == OpCode.SUB || op == OpCode.MUL || op == OpCode.DIV)
                && !(kx == Kind.INT && ky == Kind.INT);
        if (kx == Kind.ANY && ky == Kind.ANY) {
            // two registers: one small helper call (both type cases inside) keeps run compact
            slot(a);
            rk(b);
            rk(c);
            mv.visitMethodInsn(INVOKESTATIC, RT, op.name().toLowerCase(java.util.Locale.ROOT) + "2",
                    "(" + OBJ + OBJ + ")" + OBJ, false);
            missOrStore(slow("arith", i, cur, this::popValueAndSlot));
            return true;
        }
        Label slow = slow("arith", i, cur);
        if (kx == Kind.ANY) {
            rk(b);
            mv.visitVarInsn(ASTORE, L_X);
        }
        if (ky == Kind.ANY) {
            rk(c);
            mv.visitVarInsn(ASTORE, L_Y);
        }
        if (intCase) {
            Label notInts = fltCase ? new Label() : slow;
            if (kx == Kind.ANY) requireType(L_X, LONG, notInts);
            if (ky == Kind.ANY) requireType(L_Y, LONG, notInts);
            // w, checked where the operation needs it
            longOf(c, ky, L_Y);
            mv.visitVarInsn(LSTORE, L_W);
            switch (op) {
                case MOD, IDIV -> {
                    mv.visitVarInsn(LLOAD, L_W);
                    mv.visitInsn(LCONST_0);
                    mv.visitInsn(LCMP);
                    mv.visitJumpInsn(IFLE, slow);
                }
                case SHL, SHR -> {
                    mv.visitVarInsn(LLOAD, L_W);
                    pushLong(~63L);
                    mv.visitInsn(LAND);
                    mv.visitInsn(LCONST_0);
                    mv.visitInsn(LCMP);
                    mv.visitJumpInsn(IFNE, slow);
                }
                default -> { }
            }
            slot(a);
            longOf(b, kx, L_X);
            mv.visitVarInsn(LLOAD, L_W);
            switch (op) {
                case ADD -> mv.visitInsn(LADD);
                case SUB -> mv.visitInsn(LSUB);
                case MUL -> mv.visitInsn(LMUL);
                case BAND -> mv.visitInsn(LAND);
                case BOR -> mv.visitInsn(LOR);
                case BXOR -> mv.visitInsn(LXOR);
                case SHL -> {
                    mv.visitInsn(L2I);
                    mv.visitInsn(LSHL);
                }
                case SHR -> {
                    mv.visitInsn(L2I);
                    mv.visitInsn(LUSHR);
                }
                case MOD -> mv.visitMethodInsn(INVOKESTATIC, RT, "imod", "(JJ)J", false);
                case IDIV -> mv.visitMethodInsn(INVOKESTATIC, RT, "idiv", "(JJ)J", false);
                case DIV -> {
                    // (double) u / (double) w: w is on top
                    mv.visitInsn(L2D);
                    mv.visitVarInsn(DSTORE, L_U);
                    mv.visitInsn(L2D);
                    mv.visitVarInsn(DLOAD, L_U);
                    mv.visitInsn(DDIV);
                }
                default -> throw new IllegalStateException(op.toString());
            }
            if (op == OpCode.DIV) boxDouble();
            else boxLong();
            mv.visitInsn(AASTORE);
            if (fltCase) {
                Label done = new Label();
                mv.visitJumpInsn(GOTO, done);
                mv.visitLabel(notInts);
                floatCase(op, a, b, c, kx, ky, slow);
                mv.visitLabel(done);
            }
        } else if (fltCase) {
            floatCase(op, a, b, c, kx, ky, slow);
        } else {
            mv.visitJumpInsn(GOTO, slow); // e.g. 2.0 % x: only Meta.arith computes it
        }
        return true;
    }

    private void floatCase(OpCode op, int a, int b, int c, Kind kx, Kind ky, Label slow) {
        doubleOf(c, ky, L_Y, slow);
        mv.visitVarInsn(DSTORE, L_W);
        doubleOf(b, kx, L_X, slow);
        mv.visitVarInsn(DSTORE, L_U);
        slot(a);
        mv.visitVarInsn(DLOAD, L_U);
        mv.visitVarInsn(DLOAD, L_W);
        switch (op) {
            case ADD -> mv.visitInsn(DADD);
            case SUB -> mv.visitInsn(DSUB);
            case MUL -> mv.visitInsn(DMUL);
            case DIV -> mv.visitInsn(DDIV);
            default -> throw new IllegalStateException(op.toString());
        }
        boxDouble();
        mv.visitInsn(AASTORE);
    }

    private void unary(OpCode op, int i, int a, int b) {
        Label slow = slow(op == OpCode.UNM ? "unm" : "bnot", i, cur);
        reg(b);
        mv.visitVarInsn(ASTORE, L_X);
        Label notLong = op == OpCode.UNM ? new Label() : slow;
        Label done = new Label();
        requireType(L_X, LONG, notLong);
        slot(a);
        mv.visitVarInsn(ALOAD, L_X);
        unboxLong();
        if (op == OpCode.UNM) {
            mv.visitInsn(LNEG);
        } else {
            pushLong(-1L);
            mv.visitInsn(LXOR);
        }
        boxLong();
        mv.visitInsn(AASTORE);
        if (op == OpCode.UNM) {
            mv.visitJumpInsn(GOTO, done);
            mv.visitLabel(notLong);
            requireType(L_X, DOUBLE, slow);
            slot(a);
            mv.visitVarInsn(ALOAD, L_X);
            unboxDouble();
            mv.visitInsn(DNEG);
            boxDouble();
            mv.visitInsn(AASTORE);
            mv.visitLabel(done);
        }
    }

    /**
     * EQ, LT, LE: two integers, then two floats, branch straight to the targets (the interpreter
     * skips the next instruction when the result differs from A); {@code x == nil} is a reference
     * test; everything else goes to the compare helper.
     */
    private boolean compare(OpCode op, int i, int pc, int a, int b, int c) {
        Kind kx = kind(b);
        Kind ky = kind(c);
        Label yes = label(a != 0 ? pc + 1 : pc + 2); // where a true result goes
        Label no = label(a != 0 ? pc + 2 : pc + 1);
        if (op == OpCode.EQ && (kx == Kind.NIL || ky == Kind.NIL)) {
            // no number pair possible; the interpreter's nil case: x == y
            if (kx == Kind.NIL && ky == Kind.NIL) {
                mv.visitJumpInsn(GOTO, yes);
                return true;
            }
            rk(kx == Kind.NIL ? c : b);
            mv.visitJumpInsn(IFNULL, yes);
            mv.visitJumpInsn(GOTO, no);
            return true;
        }
        boolean ints = (kx == Kind.ANY || kx == Kind.INT) && (ky == Kind.ANY || ky == Kind.INT);
        boolean flts = (kx == Kind.ANY || kx == Kind.FLT) && (ky == Kind.ANY || ky == Kind.FLT);
        if (!ints && !flts) return false;
        if (kx == Kind.ANY && ky == Kind.ANY) {
            rk(b);
            rk(c);
            mv.visitMethodInsn(INVOKESTATIC, RT, op.name().toLowerCase(java.util.Locale.ROOT) + "2",
                    "(" + OBJ + OBJ + ")I", false);
            mv.visitInsn(DUP);
            mv.visitJumpInsn(IFLT, slow("compare", i, pc, () -> mv.visitInsn(POP)));
            mv.visitJumpInsn(IFNE, yes);
            mv.visitJumpInsn(GOTO, no);
            return true;
        }
        Label slow = slow("compare", i, pc);
        if (kx == Kind.ANY) {
            rk(b);
            mv.visitVarInsn(ASTORE, L_X);
        }
        if (ky == Kind.ANY) {
            rk(c);
            mv.visitVarInsn(ASTORE, L_Y);
        }
        if (ints) {
            Label notInts = flts ? new Label() : slow;
            if (kx == Kind.ANY) requireType(L_X, LONG, notInts);
            if (ky == Kind.ANY) requireType(L_Y, LONG, notInts);
            longOf(b, kx, L_X);
            longOf(c, ky, L_Y);
            mv.visitInsn(LCMP);
            branch(op, yes, no);
            if (flts) mv.visitLabel(notInts);
        }
        if (flts) {
            if (kx == Kind.ANY) requireType(L_X, DOUBLE, slow);
            if (ky == Kind.ANY) requireType(L_Y, DOUBLE, slow);
            if (kx == Kind.FLT) {
                pushDouble((Double) constant(b));
            } else {
                mv.visitVarInsn(ALOAD, L_X);
                unboxDouble();
            }
            if (ky == Kind.FLT) {
                pushDouble((Double) constant(c));
            } else {
                mv.visitVarInsn(ALOAD, L_Y);
                unboxDouble();
            }
            mv.visitInsn(DCMPG); // NaN gives 1: false for ==, <, <=
            branch(op, yes, no);
        }
        return true;
    }

    private void branch(OpCode op, Label yes, Label no) {
        mv.visitJumpInsn(op == OpCode.EQ ? IFEQ : op == OpCode.LT ? IFLT : IFLE, yes);
        mv.visitJumpInsn(GOTO, no);
    }

    /**
     * FORLOOP's step, leaving 1 (jump back) or 0 on the operand stack, as the helper does: the
     * integer loop inline (never past the limit: unsigned distance compared with the step), the
     * float loop through the helper.
     */
    void forloop(int i, int pc) {
        int a = (i >>> 6) & 0xFF;
        Label done = new Label();
        Label floatLoop = new Label();
        stubs.add(() -> {
            mv.visitLabel(floatLoop);
            mv.visitVarInsn(ALOAD, ST_L);
            mv.visitVarInsn(ALOAD, CO_L);
            mv.visitVarInsn(ALOAD, F_L);
            mv.visitVarInsn(ILOAD, BASE_L);
            push(i);
            push(pc + 1);
            mv.visitMethodInsn(INVOKESTATIC, RT, "forloop", OP, false);
            mv.visitJumpInsn(GOTO, done);
        });
        reg(a);
        mv.visitVarInsn(ASTORE, L_X);
        requireType(L_X, LONG, floatLoop);
        mv.visitVarInsn(ALOAD, L_X);
        unboxLong();
        mv.visitVarInsn(LSTORE, L_U); // idx
        reg(a + 1);
        unboxLong();
        mv.visitVarInsn(LSTORE, L_W); // limit
        reg(a + 2);
        unboxLong();
        mv.visitVarInsn(LSTORE, L_S); // step
        Label pos = new Label();
        Label go = new Label();
        Label stop = new Label();
        mv.visitVarInsn(LLOAD, L_S);
        mv.visitInsn(LCONST_0);
        mv.visitInsn(LCMP);
        mv.visitInsn(DUP);
        mv.visitJumpInsn(IFGT, pos);
        mv.visitJumpInsn(IFEQ, go); // step 0 goes on, as the interpreter's
        // step < 0: unsigned (idx - limit) >= -step
        mv.visitVarInsn(LLOAD, L_U);
        mv.visitVarInsn(LLOAD, L_W);
        mv.visitInsn(LSUB);
        pushLong(Long.MIN_VALUE);
        mv.visitInsn(LXOR);
        mv.visitVarInsn(LLOAD, L_S);
        mv.visitInsn(LNEG);
        pushLong(Long.MIN_VALUE);
        mv.visitInsn(LXOR);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFGE, go);
        mv.visitJumpInsn(GOTO, stop);
        mv.visitLabel(pos);
        mv.visitInsn(POP);
        // step > 0: unsigned (limit - idx) >= step
        mv.visitVarInsn(LLOAD, L_W);
        mv.visitVarInsn(LLOAD, L_U);
        mv.visitInsn(LSUB);
        pushLong(Long.MIN_VALUE);
        mv.visitInsn(LXOR);
        mv.visitVarInsn(LLOAD, L_S);
        pushLong(Long.MIN_VALUE);
        mv.visitInsn(LXOR);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFLT, stop);
        mv.visitLabel(go);
        mv.visitVarInsn(LLOAD, L_U);
        mv.visitVarInsn(LLOAD, L_S);
        mv.visitInsn(LADD);
        boxLong();
        mv.visitVarInsn(ASTORE, L_Y);
        slot(a);
        mv.visitVarInsn(ALOAD, L_Y);
        mv.visitInsn(AASTORE);
        slot(a + 3);
        mv.visitVarInsn(ALOAD, L_Y);
        mv.visitInsn(AASTORE);
        mv.visitInsn(ICONST_1);
        mv.visitJumpInsn(GOTO, done);
        mv.visitLabel(stop);
        mv.visitInsn(ICONST_0);
        mv.visitLabel(done);
    }
}
