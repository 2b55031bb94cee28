package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.vm.tier.FunctionCompiler;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The frameless entry of a small function ({@code call0} .. {@code call3} of its class, contract
 * in {@code TierSupport}'s "Frameless calls"): the whole function with its registers in JVM
 * locals, run without the heap frame a call pushes. Called by compiled callers (a {@code run}'s
 * CALL, another frameless run's CALL or TAILCALL, a library's call into Lua) when the call could
 * push that frame without allocating or failing.
 *
 * <p>Every instruction either has a frameless form (moves, constants, upvalues, arithmetic and
 * compares on numbers, string equality and order, tests, numeric for loops, table reads that
 * can run no metamethod and probe only free slots, writes over existing fields and array slots,
 * calls and tail calls of callees that run frameless in turn) or <em>bails</em>: the run builds
 * its frame exactly as the call would have pushed it (at index {@code n}, the pc of that
 * instruction, every register as the interpreter has it), hands the gas counter back as it was
 * before that instruction, and answers {@code BAILED}; a frameless caller then builds its own
 * frame below (at its CALL, resuming after it), and the compiled {@code run} at the bottom leaves
 * to the dispatch loop, which runs the frames from there. Nothing a frameless form does can
 * raise an error, yield, allocate a Lua-visible object or call a metamethod: so no error
 * position, traceback, coroutine switch or memory walk ever needs the missing frames. Each
 * helper either completes the instruction exactly as the interpreter does (charging the same
 * gas) or answers MISS having charged nothing, so bailing before the instruction is exact.
 *
 * <p>Gas: each instruction adds its {@code OpCode.gas} to the local counter, and the counter is
 * charged at the interpreter's safepoints (CALL, RETURN, TAILCALL, FORLOOP, backward JMP) under
 * the same condition; a safepoint's charge may end the run (gas, time, cancellation), which
 * needs no frame either. The counter travels with each call and comes back through the
 * LuaState; an exception leaving a run deposits its counter there for the compiled caller's
 * handler.
 *
 * <p>The stack stays exact: the live-heap walk (memory figures, weak tables, finalizers) counts
 * a frame's registers whether or not the code still reads them, so after a frameless run every
 * slot of its registers must hold what the interpreter would have left there. Registers start
 * as the slots' contents (arguments, or whatever earlier frames left), every write makes the
 * register <em>dirty</em> (newer than its slot), a return or a bail writes the dirty ones back,
 * and after a call the registers above the call's are reloaded (the callee wrote them back).
 * A tail call writes back first and moves the function down, as the interpreter does.
 */
final class FramelessEmitter implements Opcodes {
    private static final String RT = FunctionCompiler.RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";
    private static final String CO = "Ldev/luavm/vm/Coroutine;";
    private static final String CL_TYPE = "dev/luavm/value/LuaClosure";
    private static final String CL = "L" + CL_TYPE + ";";
    private static final String OBJ = "Ljava/lang/Object;";
    private static final String TS = "L" + RT + ";";
    private static final String THROWABLE = "Ljava/lang/Throwable;";

    /** functions longer than this get no frameless entry */
    static final int MAX_INSTRUCTIONS = 200;
    /** arguments a frameless entry takes at most ({@code call0} .. {@code call3}) */
    static final int MAX_ARITY = 3;

    private static final int L_ST = 1, L_CO = 2, L_CL = 3, L_N = 4, L_FUNC = 5, L_CTL = 6, L_GAS = 7, L_ROOM = 9,
            L_ARGS = 11;

    /** The descriptor of the frameless entry taking {@code arity} arguments. */
    static String descriptor(int arity) {
        return "(" + ST + CO + CL + "IIIJJ" + OBJ.repeat(arity) + ")" + OBJ;
    }

    static String name(int arity) {
        return "call" + arity;
    }

    /**
     * The arity of {@code p}'s frameless entry, or -1 when it gets none: vararg functions,
     * functions of more than {@value #MAX_ARITY} parameters or {@value #MAX_INSTRUCTIONS}
     * instructions, and code with words the generator declines.
     */
    static int arity(Prototype p) {
        if (p.isVararg || p.numParams > MAX_ARITY || p.code.length > MAX_INSTRUCTIONS) return -1;
        for (int i : p.code) {
            OpCode op = OpCode.of(i & 0x3F);
            if (op == OpCode.LOADKX || op == OpCode.EXTRAARG) return -1;
            if (op == OpCode.SETLIST && ((i >>> 14) & 0x1FF) == 0) return -1;
        }
        return p.numParams;
    }

    private final MethodVisitor mv;
    private final Prototype p;
    private final int[] code;
    private final int arity;
    private final int m;
    private final Label[] at;
    private final int lStack, lK, lBase, lV, lFt, lPcb, lCnt, lArr, lR0;
    /** registers possibly newer than their slots, before each pc (null: unreachable) */
    private final boolean[][] dirty;
    /** registers dirty before some writeback (their locals are kept equal to the slots otherwise) */
    private final boolean[] everDirty;
    private final Map<String, Label> bailBlocks = new LinkedHashMap<>();
    private final Map<String, Label> callerBailBlocks = new LinkedHashMap<>();
    private final List<Runnable> outOfLine = new ArrayList<>();
    /** bytes of code of the method, once emitted */
    int size;

    private FramelessEmitter(MethodVisitor mv, Prototype p, int arity) {
        this.mv = mv;
        this.p = p;
        this.code = p.code;
        this.arity = arity;
        this.m = Math.max(p.maxStackSize, 1);
        this.at = new Label[code.length + 1];
        for (int i = 0; i < at.length; i++) at[i] = new Label();
        int l = L_ARGS + arity;
        lStack = l++;
        lK = l++;
        lBase = l++;
        lV = l++;
        lFt = l++;
        lPcb = l++;
        lCnt = l++;
        lArr = l++;
        lR0 = l;
        this.dirty = dirtySets();
        this.everDirty = new boolean[m];
        for (boolean[] d : dirty) {
            if (d == null) continue;
            for (int x = 0; x < m; x++) everDirty[x] |= d[x];
        }
    }

    /**
     * Emits {@code p}'s frameless entry into {@code cw}; answers its size in bytes, or -1 when
     * it is over {@code limit} (the class then goes without it: a caller never tries it).
     */
    static int emit(ClassWriter cw, Prototype p, int arity, int limit) {
        MethodVisitor mv = cw.visitMethod(0, name(arity), descriptor(arity), null, null);
        FramelessEmitter e = new FramelessEmitter(mv, p, arity);
        e.emit();
        return e.size > limit ? -1 : e.size;
    }

    // ---- analysis

    private static int a(int i) {
        return (i >>> 6) & 0xFF;
    }

    private static int b(int i) {
        return i >>> 23;
    }

    private static int c(int i) {
        return (i >>> 14) & 0x1FF;
    }

    private static int sbx(int i) {
        return (i >>> 14) - 131071;
    }

    private static OpCode op(int i) {
        return OpCode.of(i & 0x3F);
    }

    /** CALL shapes with a frameless form: fixed arguments (up to the entries' arity), one result or none. */
    private static boolean callShape(int i) {
        return b(i) >= 1 && b(i) <= MAX_ARITY + 1 && c(i) >= 1 && c(i) <= 2;
    }

    /** Whether instruction {@code pc} has a frameless form (else it always bails). */
    private boolean framelessForm(int pc) {
        int i = code[pc];
        return switch (op(i)) {
            case MOVE, LOADK, LOADBOOL, LOADNIL, GETUPVAL, GETTABUP, GETTABLE, SETTABUP, SETUPVAL, SETTABLE, ADD, SUB, MUL,
                    MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR, UNM, BNOT, NOT, LEN, JMP, EQ, LT, LE, TEST, TESTSET,
                    FORLOOP, FORPREP -> true;
            case SELF -> c(i) > 0xFF && p.constants[c(i) & 0xFF] instanceof dev.luavm.value.LuaString;
            case CALL -> callShape(i);
            case TAILCALL -> b(i) >= 1 && b(i) <= MAX_ARITY + 1;
            case RETURN -> b(i) == 1 || b(i) == 2;
            default -> false;
        };
    }

    /** Successors of a pc with a frameless form (a bail ends the run). */
    private int successors(int pc, int[] out) {
        int i = code[pc];
        if (!framelessForm(pc)) return 0;
        return switch (op(i)) {
            case LOADBOOL -> {
                out[0] = c(i) != 0 ? pc + 2 : pc + 1;
                yield 1;
            }
            case JMP -> {
                out[0] = pc + 1 + sbx(i);
                yield 1;
            }
            case EQ, LT, LE, TEST, TESTSET -> {
                out[0] = pc + 1;
                out[1] = pc + 2;
                yield 2;
            }
            case FORLOOP -> {
                out[0] = pc + 1;
                out[1] = pc + 1 + sbx(i);
                yield 2;
            }
            case FORPREP -> {
                out[0] = pc + 1;
                out[1] = pc + 1 + sbx(i) + 1;
                yield 2;
            }
            case TAILCALL, RETURN -> 0;
            default -> {
                out[0] = pc + 1;
                yield 1;
            }
        };
    }

    /** The dirty registers after instruction {@code pc}, from those before. */
    private boolean[] dirtyAfter(int pc, boolean[] in) {
        boolean[] o = in.clone();
        int i = code[pc];
        int a = a(i);
        switch (op(i)) {
            case SETTABUP, SETUPVAL, SETTABLE, JMP, EQ, LT, LE, TEST, FORLOOP -> {
                if (op(i) == OpCode.FORLOOP) {
                    o[a] = true;
                    o[a + 3] = true;
                }
            }
            case LOADNIL -> {
                for (int x = a; x <= a + b(i) && x < m; x++) o[x] = true;
            }
            case SELF -> {
                o[a] = true;
                o[a + 1] = true;
            }
            case FORPREP -> {
                for (int x = a; x <= a + 3 && x < m; x++) o[x] = true;
            }
            case CALL -> {
                for (int x = a + 1; x < m; x++) o[x] = false; // reloaded: the callee wrote them back
                if (c(i) == 2) o[a] = true;
            }
            default -> o[a] = true;
        }
        return o;
    }

    private boolean[][] dirtySets() {
        boolean[][] d = new boolean[code.length][];
        boolean[] entry = new boolean[m];
        for (int x = 0; x < p.numParams; x++) entry[x] = true;
        d[0] = entry;
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        work.add(0);
        int[] succ = new int[2];
        while (!work.isEmpty()) {
            int pc = work.poll();
            boolean[] o = dirtyAfter(pc, d[pc]);
            int k = successors(pc, succ);
            for (int j = 0; j < k; j++) {
                int t = succ[j];
                if (t < 0 || t >= code.length) continue;
                if (d[t] == null) {
                    d[t] = o.clone();
                    work.add(t);
                    continue;
                }
                boolean changed = false;
                for (int x = 0; x < m; x++) {
                    if (o[x] && !d[t][x]) {
                        d[t][x] = true;
                        changed = true;
                    }
                }
                if (changed) work.add(t);
            }
        }
        return d;
    }

    // ---- emission

    private void emit() {
        mv.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        mv.visitTryCatchBlock(start, end, handler, null);
        prologue();
        mv.visitLabel(start);
        for (int pc = 0; pc < code.length; pc++) {
            mv.visitLabel(at[pc]);
            if (dirty[pc] == null) continue; // unreachable frameless: never jumped to
            instruction(pc);
        }
        mv.visitLabel(at[code.length]);
        // falling off the code (never: every function ends in RETURN): bail at the last pc
        bailHere(code.length - 1);
        for (int k = 0; k < outOfLine.size(); k++) outOfLine.get(k).run();
        mv.visitLabel(end);
        // an exception leaves: the counter goes to the compiled caller's handler
        mv.visitLabel(handler);
        mv.visitVarInsn(ASTORE, lV);
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitVarInsn(ALOAD, lV);
        rt("deposit", "(" + ST + "J" + THROWABLE + ")" + THROWABLE);
        mv.visitInsn(ATHROW);
        Label last = new Label();
        mv.visitLabel(last);
        size = last.getOffset();
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private void prologue() {
        mv.visitVarInsn(ALOAD, L_CO);
        rt("stack", "(" + CO + ")[" + OBJ);
        mv.visitVarInsn(ASTORE, lStack);
        mv.visitVarInsn(ALOAD, L_CL);
        rt("constantsOf", "(" + CL + ")[" + OBJ);
        mv.visitVarInsn(ASTORE, lK);
        mv.visitVarInsn(ILOAD, L_FUNC);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ISTORE, lBase);
        mv.visitInsn(ICONST_0);
        mv.visitVarInsn(ISTORE, lPcb);
        mv.visitInsn(ICONST_1);
        mv.visitVarInsn(ISTORE, lCnt);
        mv.visitInsn(ACONST_NULL);
        mv.visitVarInsn(ASTORE, lV);
        mv.visitInsn(ACONST_NULL);
        mv.visitVarInsn(ASTORE, lFt);
        mv.visitInsn(ACONST_NULL);
        mv.visitVarInsn(ASTORE, lArr);
        for (int x = 0; x < m; x++) {
            if (x < p.numParams) {
                mv.visitVarInsn(ALOAD, L_ARGS + x);
            } else if (everDirty[x]) {
                slot(x);
                mv.visitInsn(AALOAD);
            } else {
                mv.visitInsn(ACONST_NULL);
            }
            mv.visitVarInsn(ASTORE, lR0 + x);
        }
    }

    // ---- small emitters

    private void rt(String name, String desc) {
        mv.visitMethodInsn(INVOKESTATIC, RT, name, desc, false);
    }

    private void push(int v) {
        Emit.pushInt(mv, v);
    }

    /** stack, base + x on the operand stack */
    private void slot(int x) {
        mv.visitVarInsn(ALOAD, lStack);
        mv.visitVarInsn(ILOAD, lBase);
        if (x != 0) {
            push(x);
            mv.visitInsn(IADD);
        }
    }

    private void load(int x) {
        mv.visitVarInsn(ALOAD, lR0 + x);
    }

    private void store(int x) {
        mv.visitVarInsn(ASTORE, lR0 + x);
    }

    /** RK(x): a constant or a register. */
    private void rk(int x) {
        if (x > 0xFF) {
            mv.visitVarInsn(ALOAD, lK);
            push(x & 0xFF);
            mv.visitInsn(AALOAD);
        } else {
            load(x);
        }
    }

    private void addGas(OpCode op) {
        if (op.gas == 0) return;
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitLdcInsn((long) op.gas);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, L_GAS);
    }

    /** The interpreter's safepoint: {@code if (gas >= room) { room = flush(gas); gas = 0; }} */
    private void safepoint() {
        Label skip = new Label();
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitVarInsn(LLOAD, L_ROOM);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFLT, skip);
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(LLOAD, L_GAS);
        // zeroed before the charge: a charge that ends the run has counted it already
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, L_GAS);
        rt("fFlush", "(" + ST + "J)J");
        mv.visitVarInsn(LSTORE, L_ROOM);
        mv.visitLabel(skip);
    }

    private static String key(boolean[] d, int upTo) {
        StringBuilder sb = new StringBuilder();
        for (int x = 0; x < d.length && x <= upTo; x++) sb.append(d[x] ? '1' : '0');
        return sb.toString();
    }

    /** Writes back the registers of {@code d} up to {@code upTo}. */
    private void writeBack(boolean[] d, int upTo) {
        for (int x = 0; x < m && x <= upTo; x++) {
            if (!d[x]) continue;
            slot(x);
            load(x);
            mv.visitInsn(AASTORE);
        }
    }

    /** Jumps to the innermost bail at {@code pc} (counted, unless the code stored lCnt itself). */
    private void bailHere(int pc) {
        mv.visitJumpInsn(GOTO, bailStub(pc, true));
    }

    private final Map<Integer, Label> bailStubs = new java.util.HashMap<>();
    private final Map<Integer, Label> uncountedStubs = new java.util.HashMap<>();

    /** A stub setting the bail pc (and the count flag) and going to the shared block for pc's dirty set. */
    private Label bailStub(int pc, boolean setCount) {
        Map<Integer, Label> stubs = setCount ? bailStubs : uncountedStubs;
        Label l = stubs.get(pc);
        if (l != null) return l;
        Label nl = new Label();
        stubs.put(pc, nl);
        Label block = bailBlock(dirty[pc] != null ? dirty[pc] : new boolean[m]);
        outOfLine.add(() -> {
            mv.visitLabel(nl);
            push(pc);
            mv.visitVarInsn(ISTORE, lPcb);
            if (setCount) {
                mv.visitInsn(ICONST_1);
                mv.visitVarInsn(ISTORE, lCnt);
            }
            mv.visitJumpInsn(GOTO, block);
        });
        return nl;
    }

    private Label bailBlock(boolean[] d) {
        String k = key(d, m);
        Label l = bailBlocks.get(k);
        if (l != null) return l;
        Label nl = new Label();
        bailBlocks.put(k, nl);
        boolean[] dc = d.clone();
        outOfLine.add(() -> {
            mv.visitLabel(nl);
            writeBack(dc, m);
            mv.visitVarInsn(ALOAD, L_ST);
            mv.visitVarInsn(ALOAD, L_CO);
            mv.visitVarInsn(ALOAD, L_CL);
            mv.visitVarInsn(ILOAD, L_N);
            mv.visitVarInsn(ILOAD, L_FUNC);
            mv.visitVarInsn(ILOAD, L_CTL);
            mv.visitVarInsn(ILOAD, lPcb);
            mv.visitVarInsn(LLOAD, L_GAS);
            mv.visitVarInsn(LLOAD, L_ROOM);
            mv.visitVarInsn(ILOAD, lCnt);
            rt("bail", "(" + ST + CO + CL + "IIIIJJZ)" + OBJ);
            mv.visitInsn(ARETURN);
        });
        return nl;
    }

    /** After a callee bailed at the CALL of {@code pc} with function register {@code a}: this frame below it. */
    private Label callerBail(int pc, int a) {
        Label nl = new Label();
        boolean[] d = dirty[pc].clone();
        String k = key(d, a);
        Label block = callerBailBlocks.get(k);
        if (block == null) {
            Label bl = new Label();
            callerBailBlocks.put(k, bl);
            outOfLine.add(() -> {
                mv.visitLabel(bl);
                writeBack(d, a);
                mv.visitVarInsn(ALOAD, L_CO);
                mv.visitVarInsn(ALOAD, L_CL);
                mv.visitVarInsn(ILOAD, L_N);
                mv.visitVarInsn(ILOAD, L_FUNC);
                mv.visitVarInsn(ILOAD, L_CTL);
                mv.visitVarInsn(ILOAD, lPcb);
                rt("bailCaller", "(" + CO + CL + "IIII)" + OBJ);
                mv.visitInsn(ARETURN);
            });
            block = bl;
        }
        Label target = block;
        outOfLine.add(() -> {
            mv.visitLabel(nl);
            push(pc + 1);
            mv.visitVarInsn(ISTORE, lPcb);
            mv.visitJumpInsn(GOTO, target);
        });
        return nl;
    }

    /** If the value on the operand stack is MISS, bail at pc (it stays in lV otherwise). */
    private void missBails(int pc) {
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, lV);
        mv.visitFieldInsn(GETSTATIC, RT, "MISS", OBJ);
        mv.visitJumpInsn(IF_ACMPEQ, bailStub(pc, true));
    }

    private void go(int target) {
        mv.visitJumpInsn(GOTO, target >= 0 && target < code.length ? at[target] : at[code.length]);
    }

    // ---- instructions

    private void instruction(int pc) {
        int i = code[pc];
        OpCode op = op(i);
        int a = a(i);
        if (!framelessForm(pc)) {
            bailHere(pc);
            return;
        }
        switch (op) {
            case MOVE -> {
                addGas(op);
                load(b(i));
                store(a);
            }
            case LOADK -> {
                addGas(op);
                mv.visitVarInsn(ALOAD, lK);
                push(i >>> 14);
                mv.visitInsn(AALOAD);
                store(a);
            }
            case LOADBOOL -> {
                addGas(op);
                mv.visitFieldInsn(GETSTATIC, "java/lang/Boolean", b(i) != 0 ? "TRUE" : "FALSE", "Ljava/lang/Boolean;");
                store(a);
                if (c(i) != 0) go(pc + 2);
            }
            case LOADNIL -> {
                addGas(op);
                for (int x = a; x <= a + b(i); x++) {
                    mv.visitInsn(ACONST_NULL);
                    store(x);
                }
            }
            case GETUPVAL -> {
                addGas(op);
                upvalue(b(i));
                store(a);
            }
            case SETUPVAL -> {
                addGas(op);
                mv.visitVarInsn(ALOAD, L_CL);
                push(b(i));
                load(a);
                rt("upSet", "(" + CL + "I" + OBJ + ")V");
            }
            case GETTABUP, GETTABLE -> {
                if (op == OpCode.GETTABUP) upvalue(b(i));
                else load(b(i));
                rk(c(i));
                rt("fGet", "(" + OBJ + OBJ + ")" + OBJ);
                missBails(pc);
                addGas(op);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
            }
            case SETTABUP, SETTABLE -> {
                if (op == OpCode.SETTABUP) upvalue(a);
                else load(a);
                rk(b(i));
                rk(c(i));
                rt("fSet", "(" + OBJ + OBJ + OBJ + ")Z");
                mv.visitJumpInsn(IFEQ, bailStub(pc, true));
                addGas(op);
            }
            case SELF -> {
                load(b(i));
                rk(c(i));
                rt("fGet", "(" + OBJ + OBJ + ")" + OBJ);
                missBails(pc);
                addGas(op);
                load(b(i));
                store(a + 1);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
            }
            case ADD, SUB, MUL -> {
                rk(b(i));
                rk(c(i));
                rt(op == OpCode.ADD ? "add2" : op == OpCode.SUB ? "sub2" : "mul2", "(" + OBJ + OBJ + ")" + OBJ);
                missBails(pc);
                addGas(op);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
            }
            case MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR -> {
                push(op.ordinal());
                rk(b(i));
                rk(c(i));
                rt("fArith", "(I" + OBJ + OBJ + ")" + OBJ);
                missBails(pc);
                addGas(op);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
            }
            case UNM, BNOT, LEN -> {
                load(b(i));
                rt(op == OpCode.UNM ? "fUnm" : op == OpCode.BNOT ? "fBnot" : "rawLen", "(" + OBJ + ")" + OBJ);
                missBails(pc);
                addGas(op);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
            }
            case NOT -> {
                addGas(op);
                load(b(i));
                rt("not", "(" + OBJ + ")" + OBJ);
                store(a);
            }
            case JMP -> {
                addGas(op);
                if (sbx(i) < 0) safepoint();
                go(pc + 1 + sbx(i));
            }
            case EQ, LT, LE -> {
                mv.visitVarInsn(ALOAD, L_ST);
                rk(b(i));
                rk(c(i));
                rt(op == OpCode.EQ ? "fEq" : op == OpCode.LT ? "fLt" : "fLe", "(" + ST + OBJ + OBJ + ")I");
                mv.visitInsn(DUP);
                mv.visitVarInsn(ISTORE, lCnt); // as a scratch int: the result
                mv.visitJumpInsn(IFLT, bailStub(pc, true));
                addGas(op);
                // the result must equal A to go on; otherwise the next instruction (a JMP) is skipped
                mv.visitVarInsn(ILOAD, lCnt);
                mv.visitJumpInsn(a != 0 ? IFEQ : IFNE, at[pc + 2]);
                go(pc + 1);
            }
            case TEST -> {
                addGas(op);
                load(a);
                rt("falsy", "(" + OBJ + ")Z");
                // skip the next instruction when falsy == (C != 0)
                mv.visitJumpInsn(c(i) != 0 ? IFNE : IFEQ, at[pc + 2]);
                go(pc + 1);
            }
            case TESTSET -> {
                addGas(op);
                load(b(i));
                rt("falsy", "(" + OBJ + ")Z");
                mv.visitJumpInsn(c(i) != 0 ? IFNE : IFEQ, at[pc + 2]);
                load(b(i));
                store(a);
                go(pc + 1);
            }
            case FORPREP -> {
                mv.visitVarInsn(ALOAD, L_ST);
                load(a);
                load(a + 1);
                load(a + 2);
                rt("fForPrep", "(" + ST + OBJ + OBJ + OBJ + ")[" + OBJ);
                mv.visitInsn(DUP);
                mv.visitVarInsn(ASTORE, lArr);
                mv.visitJumpInsn(IFNULL, bailStub(pc, true));
                addGas(op);
                for (int x = 0; x < 3; x++) {
                    arrayElement(x);
                    store(a + x);
                }
                arrayElement(4);
                mv.visitFieldInsn(GETSTATIC, "java/lang/Boolean", "TRUE", "Ljava/lang/Boolean;");
                mv.visitJumpInsn(IF_ACMPNE, at[pc + 1 + sbx(i) + 1]);
                arrayElement(3);
                store(a + 3);
                go(pc + 1);
            }
            case FORLOOP -> {
                addGas(op);
                load(a);
                load(a + 1);
                load(a + 2);
                rt("fForLoop", "(" + OBJ + OBJ + OBJ + ")" + OBJ);
                mv.visitInsn(DUP);
                mv.visitVarInsn(ASTORE, lV);
                Label done = new Label();
                mv.visitJumpInsn(IFNULL, done);
                mv.visitVarInsn(ALOAD, lV);
                store(a);
                mv.visitVarInsn(ALOAD, lV);
                store(a + 3);
                safepoint();
                go(pc + 1 + sbx(i));
                mv.visitLabel(done);
                safepoint();
                go(pc + 1);
            }
            case CALL -> call(pc, i);
            case TAILCALL -> tailcall(pc, i);
            case RETURN -> ret(pc, i);
            default -> throw new IllegalStateException("no frameless form: " + op);
        }
    }

    private void arrayElement(int x) {
        mv.visitVarInsn(ALOAD, lArr);
        push(x);
        mv.visitInsn(AALOAD);
    }

    private void upvalue(int idx) {
        mv.visitVarInsn(ALOAD, L_CL);
        push(idx);
        rt("upGet", "(" + CL + "I)" + OBJ);
    }

    /**
     * CALL: the callee's frameless entry when it can run so (else this run bails at the CALL),
     * with the counter handed over; a bail below builds this frame at the next pc.
     */
    private void call(int pc, int i) {
        int a = a(i);
        int nargs = b(i) - 1;
        // can the callee run frameless as frame n + 1?
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(ALOAD, L_CO);
        load(a);
        mv.visitVarInsn(ILOAD, L_N);
        mv.visitInsn(ICONST_1);
        mv.visitInsn(IADD);
        mv.visitVarInsn(ILOAD, lBase);
        push(a);
        mv.visitInsn(IADD);
        push(nargs);
        depth();
        mv.visitInsn(ICONST_0);
        rt("framelessAt", "(" + ST + CO + OBJ + "IIIII)" + TS);
        enterOrBail(pc, i, OpCode.CALL);
        invoke(a, nargs, () -> {
            mv.visitVarInsn(ILOAD, L_N);
            mv.visitInsn(ICONST_1);
            mv.visitInsn(IADD);
            mv.visitVarInsn(ILOAD, lBase);
            push(a);
            mv.visitInsn(IADD);
            // depth + 1, a plain frame, C - 1 results
            mv.visitVarInsn(ILOAD, L_CTL);
            mv.visitLdcInsn(0xFFFF0000);
            mv.visitInsn(IAND);
            mv.visitLdcInsn(0x10000 + c(i));
            mv.visitInsn(IADD);
        });
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, lV);
        mv.visitFieldInsn(GETSTATIC, RT, "BAILED", OBJ);
        mv.visitJumpInsn(IF_ACMPEQ, callerBail(pc, a));
        Emit.takeCounter(mv, L_ST, L_GAS, L_ROOM);
        for (int x = a + 1; x < m; x++) {
            if (!everDirty[x]) continue;
            slot(x);
            mv.visitInsn(AALOAD);
            store(x);
        }
        if (c(i) == 2) {
            mv.visitVarInsn(ALOAD, lV);
            store(a);
        }
    }

    /**
     * After {@code framelessAt} (its callee's frameless entry, or null, on the operand stack):
     * a null bails to the interpreter at {@code pc}, counting the bail against the callee; an
     * entry pays the call's gas, polls the safepoint and sets the coroutine's top to the arguments' end.
     */
    private void enterOrBail(int pc, int i, OpCode op) {
        int a = a(i);
        int nargs = b(i) - 1;
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, lFt);
        Label ok = new Label();
        mv.visitJumpInsn(IFNONNULL, ok);
        load(a);
        push(nargs);
        depth();
        rt("countsAsBail", "(" + OBJ + "II)Z");
        mv.visitVarInsn(ISTORE, lCnt);
        mv.visitJumpInsn(GOTO, bailStub(pc, false));
        mv.visitLabel(ok);
        addGas(op);
        safepoint();
        mv.visitVarInsn(ALOAD, L_CO);
        mv.visitVarInsn(ILOAD, lBase);
        push(a + b(i));
        mv.visitInsn(IADD);
        rt("setTop", "(" + CO + "I)V");
    }

    /** TAILCALL: written back, the function moved down, the callee run frameless as this frame (flags + TAIL). */
    private void tailcall(int pc, int i) {
        int a = a(i);
        int nargs = b(i) - 1;
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(ALOAD, L_CO);
        load(a);
        mv.visitVarInsn(ILOAD, L_N);
        mv.visitVarInsn(ILOAD, L_FUNC);
        push(nargs);
        depth();
        push(nargs); // the interpreter's tail call makes room for the arguments on top of the frame
        rt("framelessAt", "(" + ST + CO + OBJ + "IIIII)" + TS);
        enterOrBail(pc, i, OpCode.TAILCALL);
        writeBack(dirty[pc], m);
        // stack[func] = the callee (the interpreter moves the function and arguments down)
        mv.visitVarInsn(ALOAD, lStack);
        mv.visitVarInsn(ILOAD, L_FUNC);
        load(a);
        mv.visitInsn(AASTORE);
        invoke(a, nargs, () -> {
            mv.visitVarInsn(ILOAD, L_N);
            mv.visitVarInsn(ILOAD, L_FUNC);
            // depth + 1, this frame's flags plus TAIL, this frame's results
            mv.visitVarInsn(ILOAD, L_CTL);
            mv.visitLdcInsn(0x10000);
            mv.visitInsn(IADD);
            mv.visitLdcInsn(16 << 8); // CallFrame.TAIL
            mv.visitInsn(IOR);
        });
        mv.visitInsn(ARETURN); // its result, NO_VALUES or BAILED: the counter is where it left it
    }

    /** lFt.callN(st, co, (LuaClosure) R(a), [where], gas, room, args), the local counter zeroed (handed over). */
    private void invoke(int a, int nargs, Runnable where) {
        mv.visitVarInsn(ALOAD, lFt);
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(ALOAD, L_CO);
        load(a);
        mv.visitTypeInsn(CHECKCAST, CL_TYPE);
        where.run();
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitVarInsn(LLOAD, L_ROOM);
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, L_GAS);
        for (int j = 1; j <= nargs; j++) load(a + j);
        mv.visitMethodInsn(INVOKEVIRTUAL, RT, name(nargs), descriptor(nargs), false);
    }

    /** This run's Java nesting depth (from its control word). */
    private void depth() {
        mv.visitVarInsn(ILOAD, L_CTL);
        push(16);
        mv.visitInsn(IUSHR);
    }

    /** RETURN of no value or one: written back, the counter handed back, the value answered. */
    private void ret(int pc, int i) {
        int a = a(i);
        addGas(OpCode.RETURN); // RETURN of B = 1 or 2 copies no values beyond the free ones
        safepoint();
        writeBack(dirty[pc], m);
        Emit.exit(mv, L_ST, L_GAS, L_ROOM, () -> mv.visitInsn(ICONST_0));
        mv.visitInsn(POP);
        if (b(i) == 2) {
            load(a);
            mv.visitInsn(ARETURN);
            return;
        }
        // no value: nil to a caller taking one or none, NO_VALUES to one taking all (from Java)
        Label nil = new Label();
        mv.visitVarInsn(ILOAD, L_CTL);
        push(0xFF);
        mv.visitInsn(IAND);
        mv.visitJumpInsn(IFNE, nil);
        mv.visitFieldInsn(GETSTATIC, RT, "NO_VALUES", OBJ);
        mv.visitInsn(ARETURN);
        mv.visitLabel(nil);
        mv.visitInsn(ACONST_NULL);
        mv.visitInsn(ARETURN);
    }
}
