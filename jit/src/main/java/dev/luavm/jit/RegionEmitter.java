package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.luavm.jit.TypedRegions.ANY;
import static dev.luavm.jit.TypedRegions.BAD;
import static dev.luavm.jit.TypedRegions.FLT;
import static dev.luavm.jit.TypedRegions.INT;
import static dev.luavm.jit.TypedRegions.a;
import static dev.luavm.jit.TypedRegions.b;
import static dev.luavm.jit.TypedRegions.c;
import static dev.luavm.jit.TypedRegions.sbx;

/**
 * Emits the typed copy of one {@link TypedRegions.Region} into its own method of the
 * prototype's class ({@code loopN}, see {@code AsmFunctionCompiler}), so that neither it nor
 * {@code run} outgrows HotSpot's size limit for compiling a method.
 *
 * <p>Shape: an entry block ({@link #enter}), reached when run's generic code gets to the
 * loop's head (FORPREP falling into the body, FORLOOP and backward JMP going back) and calls
 * the loop method, tests the type of every register the region keeps unboxed ({@code
 * isI}/{@code isF}) and either loads them into JVM locals (long at {@code 40 + 4r}, double at
 * {@code 42 + 4r}) and runs the typed copy, or goes back to run's generic code at the head.
 * The typed copy mirrors the generic code instruction for instruction: the same {@code
 * OpCode.gas} added, the same safepoints (FORLOOP and backward jumps, {@code gas >= room}) and
 * the same results, with Lua 5.3's integer and float rules (wrap-around, exact int/float
 * comparisons, floor division and modulo from {@code Arith}).
 *
 * <p>Leaving: wherever the interpreter's own path is needed (a boxed operand of another type
 * than assumed, integer division by zero, a table read that might call {@code __index}, a
 * store that might call {@code __newindex} or allocate, a mixed for loop) and at every exit of
 * the loop, the typed copy <em>spills</em> (boxes the registers whose local is newer than
 * {@code co.stack}: see {@link #dirty}) and goes on at the generic code of that pc in run (the
 * {@code at} label: a stub that returns the pc), before adding that instruction's gas: the
 * generic code then does the whole instruction, errors and metamethods included. A safepoint
 * spills before it charges (the charge may end the run).
 *
 * <p>Generic instructions inside the loop (a call, SETTABUP, SELF, ...: {@link
 * TypedRegions#generic}) spill the same way, then run a copy of the generic code of that
 * instruction (gas, safepoint, direct call included) whose fall-through re-enters the typed
 * copy after it, through guards on the registers it may have written or a callee may have
 * changed through an open upvalue. A call is the one exception to spilling first: numbers in
 * registers below the call's, not captured by a closure and whose slot already holds a number
 * stay in their locals across it, boxed only on the paths where the call leaves this method
 * ({@link #boxedOnLeave}). No callee can read them (no upvalue, not an argument), the memory
 * walk counts every number alike, and an error ends the frame. So a call, an allocation, a
 * metamethod, the memory walk, an error or a yield always finds {@code co.stack} as the
 * interpreter has it, or differing only in numbers nothing can read. A call that does not come
 * back here (a frame pushed for the dispatcher, a yield, the direct-call depth bound) is
 * resumed later through the entry switch, in the generic code at the next pc.
 */
final class RegionEmitter implements Opcodes {
    private static final String RT = dev.luavm.vm.tier.FunctionCompiler.RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";
    private static final String CO = "Ldev/luavm/vm/Coroutine;";
    private static final String FR = "Ldev/luavm/vm/CallFrame;";
    private static final String OP = "(" + ST + CO + FR + "III)I";
    private static final int L_ST = 1, L_CO = 2, L_F = 3, L_GAS = 4, L_ROOM = 6, L_BASE = 8, L_PC = 9, L_R = 10;
    /** first local of this emitter (0-39 belong to the generic code) */
    static final int L_FIRST = 40;

    private final MethodVisitor mv;
    private final Prototype p;
    private final int[] code;
    /** the generic code's label of a pc */
    private final java.util.function.IntFunction<Label> at;
    private final TypedRegions.Region r;
    private final Label[] typed;
    private final Map<String, Label> stubs = new HashMap<>();
    private final List<Runnable> stubCode = new ArrayList<>();
    final Label enter = new Label();

    /** Emits the generic code of one instruction, its fall-through going to the given label instead of the next pc's. */
    interface GenericCode {
        /**
         * {@code beforeLeave}, when not null, is emitted on every path by which the instruction
         * leaves this run (to the dispatch loop) other than by an exception; only for an
         * instruction {@link #spillsOnLeave} accepts.
         */
        void emit(int pc, Label next, Runnable beforeLeave);

        /** Whether {@link #emit} can run a {@code beforeLeave} for instruction {@code pc}. */
        boolean spillsOnLeave(int pc);
    }

    private final GenericCode generic;
    /**
     * Registers whose {@code co.stack} slot holds a number throughout the copy (guarded on entry,
     * never given a boxed value of unknown type in it): a call need not box them first.
     */
    private boolean[] numericSlot;
    /** registers a typed copy's JVM local may hold newer than co.stack, before each pc (see {@link #dirty}) */
    private boolean[][] dirty;
    private final boolean[] captured;
    /** the dirty set after the instruction being emitted (what its exits and safepoint box) */
    private boolean[] dOut;

    RegionEmitter(MethodVisitor mv, Prototype p, java.util.function.IntFunction<Label> at, TypedRegions.Region r, GenericCode generic) {
        this.generic = generic;
        this.captured = TypedRegions.captured(p);
        this.mv = mv;
        this.p = p;
        this.code = p.code;
        this.at = at;
        this.r = r;
        this.typed = new Label[r.end - r.head + 1];
        for (int k = 0; k < typed.length; k++) typed[k] = new Label();
    }

    static int slotI(int reg) {
        return L_FIRST + 4 * reg;
    }

    static int slotF(int reg) {
        return L_FIRST + 4 * reg + 2;
    }

    private byte[] in(int pc) {
        return r.in[pc - r.head];
    }

    void emit() {
        byte[] h = r.entry;
        mv.visitLabel(enter);
        for (int x = 0; x < h.length; x++) {
            if (h[x] != INT && h[x] != FLT) continue;
            reg(x);
            mv.visitMethodInsn(INVOKESTATIC, RT, h[x] == INT ? "isI" : "isF", "(" + CO + "I)Z", false);
            mv.visitJumpInsn(IFEQ, at.apply(r.head));
        }
        for (int x = 0; x < h.length; x++) {
            if (h[x] == INT) {
                reg(x);
                mv.visitMethodInsn(INVOKESTATIC, RT, "geti", "(" + CO + "I)J", false);
                mv.visitVarInsn(LSTORE, slotI(x));
            } else if (h[x] == FLT) {
                reg(x);
                mv.visitMethodInsn(INVOKESTATIC, RT, "getf", "(" + CO + "I)D", false);
                mv.visitVarInsn(DSTORE, slotF(x));
            }
        }
        mv.visitJumpInsn(GOTO, typed[0]);
        numericSlot = numericSlots();
        dirty = dirty();
        for (int pc = r.head; pc <= r.end; pc++) {
            mv.visitLabel(typed[pc - r.head]);
            if (in(pc) == null) continue; // unreachable from the head: never jumped to
            if (TypedRegions.mathCall(p, pc, in(pc))) {
                mathCall(pc, in(pc));
                continue;
            }
            if (TypedRegions.generic(p, pc)) {
                genericInstruction(pc, in(pc));
                continue;
            }
            instruction(pc, in(pc));
            // every instruction ends in a jump; nothing falls through
        }
        for (int k = 0; k < stubCode.size(); k++) stubCode.get(k).run();
    }

    /**
     * Which typed registers may hold, in their JVM local, a value not yet boxed into
     * {@code co.stack}, before each pc of the region: a typed write makes a register dirty, a
     * generic instruction (which boxes the dirty ones first and reloads what it may change)
     * makes all clean; merges are unions, and the head also gets what the back-edges carry.
     * Boxing only dirty registers before a generic instruction keeps {@code co.stack} exactly
     * the interpreter's there (each number is boxed once per definition, as the generic code
     * does) without re-boxing unchanged ones.
     */
    private boolean[][] dirty() {
        int n = r.end - r.head + 1;
        int m = r.entry.length;
        boolean[][] d = new boolean[n][];
        d[0] = new boolean[m];
        int[] succ = new int[2];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int pc = r.head; pc <= r.end; pc++) {
                boolean[] di = d[pc - r.head];
                if (di == null || in(pc) == null) continue;
                boolean[] o = dirtyAfter(pc, di);
                int k = TypedRegions.transfer(p, pc, in(pc).clone(), null, null, succ, r.floats);
                for (int j = 0; j < k; j++) {
                    int t = succ[j];
                    if (!r.contains(t)) continue;
                    boolean[] dt = d[t - r.head];
                    if (dt == null) {
                        d[t - r.head] = o.clone();
                        changed = true;
                        continue;
                    }
                    for (int x = 0; x < m; x++) {
                        if (o[x] && !dt[x]) {
                            dt[x] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        return d;
    }

    private boolean[] numericSlots() {
        boolean[] out = new boolean[r.entry.length];
        for (int x = 0; x < out.length; x++) out[x] = r.entry[x] == INT || r.entry[x] == FLT;
        for (int pc = r.head; pc <= r.end; pc++) {
            byte[] s = in(pc);
            if (s == null) continue;
            for (int x = 0; x < out.length; x++) if (s[x] == ANY) out[x] = false;
        }
        return out;
    }

    /**
     * Whether dirty register {@code x} may stay unboxed across generic instruction {@code pc},
     * boxed only if the instruction leaves this run: a CALL whose generic code can do that,
     * {@code x} below the call's registers (the callee cannot see it), not captured by a closure
     * (no upvalue reads it), its slot holding a number already (so the memory walk counts the
     * same), and the copy going on after the call with {@code x} in the same local. An error
     * ends the frame, whose registers nothing reads again.
     */
    private boolean boxedOnLeave(int pc, int x) {
        int i = code[pc];
        if (TypedRegions.op(i) != OpCode.CALL || !generic.spillsOnLeave(pc)) return false;
        byte[] s = in(pc);
        int next = pc + 1;
        byte[] t = r.contains(next) ? in(next) : null;
        return t != null && s != null && x < a(i) && numericSlot[x] && !captured[x]
                && (s[x] == INT || s[x] == FLT) && t[x] == s[x];
    }

    /** The dirty set after instruction {@code pc} (generic: all boxed; others: what they write). */
    private boolean[] dirtyAfter(int pc, boolean[] before) {
        boolean[] o = before.clone();
        int i = code[pc];
        if (TypedRegions.mathCall(p, pc, in(pc))) {
            o[a(i)] = true;
            return o;
        }
        if (TypedRegions.generic(p, pc)) {
            for (int x = 0; x < o.length; x++) o[x] = before[x] && boxedOnLeave(pc, x);
            return o;
        }
        int a = a(i);
        switch (TypedRegions.op(i)) {
            case LOADNIL -> {
                for (int x = a; x <= a + b(i) && x < o.length; x++) o[x] = true;
            }
            case FORLOOP -> {
                o[a] = true;
                o[a + 3] = true;
            }
            case EQ, LT, LE, TEST, JMP -> { }
            default -> o[a] = true;
        }
        return o;
    }

    /**
     * An instruction without a typed form: box the registers whose local is newer than
     * {@code co.stack} (all of the interpreter's registers are then in place for the callee,
     * metamethods, errors, the memory walk and a yield), run the generic code of that
     * instruction (gas, safepoint, direct call included), and if it comes back here rather
     * than leaving for the dispatcher, re-enter the copy after it: registers the instruction
     * may have written, or a callee may have changed through an open upvalue, are type-checked
     * and reloaded (a failed check goes on in the generic code, everything being boxed); the
     * others still hold in their locals what {@code co.stack} holds, or a newer number the
     * call did not need boxed ({@link #boxedOnLeave}). A caller resumed later
     * (after a yield, a frame pushed, a deep call) comes back through the entry switch into
     * the generic code at the next pc.
     */
    private void genericInstruction(int pc, byte[] s) {
        boolean[] d = dirty[pc - r.head];
        boolean[] now = d.clone();
        boolean[] later = new boolean[d.length];
        for (int x = 0; x < d.length; x++) {
            if (d[x] && boxedOnLeave(pc, x)) {
                now[x] = false;
                later[x] = true;
            }
        }
        spill(s, now);
        Label back = new Label();
        int lazy = 0;
        for (boolean b : later) lazy += b ? 1 : 0;
        final boolean anyLater = lazy > 0;
        generic.emit(pc, back, anyLater ? () -> spill(s, later) : null);
        mv.visitLabel(back);
        int next = pc + 1;
        byte[] t = r.contains(next) ? in(next) : null;
        if (t == null) {
            mv.visitJumpInsn(GOTO, at.apply(next));
            return;
        }
        byte[] o = s.clone();
        TypedRegions.transfer(p, pc, o, null, null, new int[2], r.floats);
        boolean[] reload = new boolean[t.length];
        // a failed check goes on in the generic code, which needs what the call left unboxed boxed
        Label failed = anyLater ? new Label() : at.apply(next);
        if (anyLater) {
            stubCode.add(() -> {
                mv.visitLabel(failed);
                spill(s, later);
                mv.visitJumpInsn(GOTO, at.apply(next));
            });
        }
        for (int x = 0; x < t.length; x++) {
            if (t[x] != INT && t[x] != FLT) continue;
            reload[x] = o[x] != t[x] || s[x] != t[x] || captured[x] || TypedRegions.writes(p, pc, x);
            if (!reload[x]) continue;
            reg(x);
            mv.visitMethodInsn(INVOKESTATIC, RT, t[x] == INT ? "isI" : "isF", "(" + CO + "I)Z", false);
            mv.visitJumpInsn(IFEQ, failed);
        }
        for (int x = 0; x < t.length; x++) {
            if (!reload[x]) continue;
            reg(x);
            if (t[x] == INT) {
                mv.visitMethodInsn(INVOKESTATIC, RT, "geti", "(" + CO + "I)J", false);
                mv.visitVarInsn(LSTORE, slotI(x));
            } else {
                mv.visitMethodInsn(INVOKESTATIC, RT, "getf", "(" + CO + "I)D", false);
                mv.visitVarInsn(DSTORE, slotF(x));
            }
        }
        mv.visitJumpInsn(GOTO, typed[next - r.head]);
    }

    /**
     * A pure math builtin called on a number (TypedRegions.mathCall): when the function is one
     * ({@code isMathF}: its float function applies to this argument, no finalizer waits to run
     * at the call), the CALL's gas and safepoint, then its float function on the argument into
     * R(A)'s double local; otherwise the generic code does the CALL, everything boxed. Nothing
     * else changes: a builtin call writes only its result (and co.top, which mathF sets).
     */
    private void mathCall(int pc, byte[] s) {
        int i = code[pc];
        int a = a(i);
        boolean[] dIn = dirty[pc - r.head];
        mv.visitVarInsn(ALOAD, L_ST);
        reg(a);
        mv.visitInsn(s[a + 1] == INT ? ICONST_1 : ICONST_0);
        mv.visitMethodInsn(INVOKESTATIC, RT, "isMathF", "(" + ST + CO + "IZ)Z", false);
        mv.visitJumpInsn(IFEQ, exit(pc, s, dIn));
        addGas(OpCode.CALL);
        dOut = dIn; // the safepoint comes before the call's result, as in the generic code
        safepoint(s, pc);
        dOut = dirtyAfter(pc, dIn);
        reg(a);
        load(s, a + 1, FLT);
        mv.visitMethodInsn(INVOKESTATIC, RT, "mathF", "(" + CO + "ID)D", false);
        store(a, FLT);
        byte[] o = s.clone();
        o[a] = FLT;
        go(pc + 1, o);
    }

    // ---- small emitters

    private void push(int v) {
        Emit.pushInt(mv, v);
    }

    /** co, f, base + reg on the operand stack (a region helper's destination register) */
    private void coFrameSlot(int x) {
        mv.visitVarInsn(ALOAD, L_CO);
        mv.visitVarInsn(ALOAD, L_F);
        mv.visitVarInsn(ILOAD, L_BASE);
        if (x != 0) {
            push(x);
            mv.visitInsn(IADD);
        }
    }

    /** co, base + reg on the operand stack */
    private void reg(int x) {
        mv.visitVarInsn(ALOAD, L_CO);
        mv.visitVarInsn(ILOAD, L_BASE);
        if (x != 0) {
            push(x);
            mv.visitInsn(IADD);
        }
    }

    private void addGas(OpCode op) {
        if (op.gas == 0) return;
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitLdcInsn((long) op.gas);
        mv.visitInsn(LADD);
        mv.visitVarInsn(LSTORE, L_GAS);
    }

    /** The generic helper of an instruction that only reads and writes registers (its int result dropped). */
    private void plain(String name, int i, int pc) {
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(ALOAD, L_CO);
        mv.visitVarInsn(ALOAD, L_F);
        mv.visitVarInsn(ILOAD, L_BASE);
        push(i);
        push(pc + 1);
        mv.visitMethodInsn(INVOKESTATIC, RT, name, OP, false);
    }

    private void box(int x, byte t) {
        reg(x);
        if (t == INT) {
            mv.visitVarInsn(LLOAD, slotI(x));
            mv.visitMethodInsn(INVOKESTATIC, RT, "seti", "(" + CO + "IJ)V", false);
        } else {
            mv.visitVarInsn(DLOAD, slotF(x));
            mv.visitMethodInsn(INVOKESTATIC, RT, "setf", "(" + CO + "ID)V", false);
        }
    }

    /** Boxes the typed registers of {@code s} that {@code d} marks dirty (the others are already in co.stack). */
    private void spill(byte[] s, boolean[] d) {
        for (int x = 0; x < s.length; x++) if ((s[x] == INT || s[x] == FLT) && d[x]) box(x, s[x]);
    }

    /** Box what the successor keeps boxed. */
    private void transition(byte[] from, byte[] to) {
        for (int x = 0; x < from.length; x++) {
            if ((from[x] == INT || from[x] == FLT) && to[x] != from[x]) box(x, from[x]);
        }
    }

    /** A label that spills {@code s}'s dirty registers {@code d} and continues with the generic code at {@code pc}. */
    private Label exit(int pc, byte[] s, boolean[] d) {
        String key = pc + Arrays.toString(s) + Arrays.toString(d);
        Label l = stubs.get(key);
        if (l != null) return l;
        Label nl = new Label();
        stubs.put(key, nl);
        byte[] copy = s.clone();
        boolean[] dc = d.clone();
        stubCode.add(() -> {
            mv.visitLabel(nl);
            spill(copy, dc);
            mv.visitJumpInsn(GOTO, pc >= 0 && pc < code.length ? at.apply(pc) : at.apply(r.head));
        });
        return nl;
    }

    /** Continue at {@code target} with state {@code s} (a forward pc inside, the head, or out). */
    private void go(int target, byte[] s) {
        if (target == r.head) {
            transition(s, r.entry);
            mv.visitJumpInsn(GOTO, typed[0]);
        } else if (r.contains(target) && in(target) != null) {
            transition(s, in(target));
            mv.visitJumpInsn(GOTO, typed[target - r.head]);
        } else {
            mv.visitJumpInsn(GOTO, exit(target, s, dOut));
        }
    }

    /** The interpreter's safepoint, spilling first on its slow path. */
    private void safepoint(byte[] s, int pc) {
        Label skip = new Label();
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitVarInsn(LLOAD, L_ROOM);
        mv.visitInsn(LCMP);
        mv.visitJumpInsn(IFLT, skip);
        spill(s, dOut);
        push(pc + 1);
        mv.visitVarInsn(ISTORE, L_PC);
        mv.visitVarInsn(ALOAD, L_ST);
        mv.visitVarInsn(LLOAD, L_GAS);
        mv.visitMethodInsn(INVOKESTATIC, RT, "flush", "(" + ST + "J)J", false);
        mv.visitVarInsn(LSTORE, L_ROOM);
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, L_GAS);
        mv.visitLabel(skip);
    }

    // ---- operands

    private byte type(byte[] s, int rk) {
        return TypedRegions.rkType(p, s, rk);
    }

    /**
     * Guards a boxed register operand read as {@code as}: INT needs a Long, FLT a Double;
     * NUM (any number, converted to float) either.
     */
    private void guard(byte[] s, int rk, byte as, boolean anyNumber, java.util.function.Supplier<Label> fail) {
        if (rk > 0xFF || s[rk] == INT || s[rk] == FLT) return;
        reg(rk);
        String name = as == INT ? "isI" : anyNumber ? "isN" : "isF";
        mv.visitMethodInsn(INVOKESTATIC, RT, name, "(" + CO + "I)Z", false);
        mv.visitJumpInsn(IFEQ, fail.get());
    }

    /** Pushes operand rk as a long (as == INT) or double. */
    private void load(byte[] s, int rk, byte as) {
        if (rk > 0xFF) {
            Object k = p.constants[rk & 0xFF];
            if (as == INT) mv.visitLdcInsn((Long) k);
            else mv.visitLdcInsn(k instanceof Long l ? (double) l : (Double) k);
            return;
        }
        byte t = s[rk];
        if (t == INT) {
            mv.visitVarInsn(LLOAD, slotI(rk));
            if (as == FLT) mv.visitInsn(L2D);
        } else if (t == FLT) {
            mv.visitVarInsn(DLOAD, slotF(rk));
        } else {
            reg(rk);
            if (as == INT) mv.visitMethodInsn(INVOKESTATIC, RT, "geti", "(" + CO + "I)J", false);
            else mv.visitMethodInsn(INVOKESTATIC, RT, "getn", "(" + CO + "I)D", false);
        }
    }

    private void store(int x, byte t) {
        mv.visitVarInsn(t == INT ? LSTORE : DSTORE, t == INT ? slotI(x) : slotF(x));
    }

    // ---- instructions

    private void instruction(int pc, byte[] s) {
        int i = code[pc];
        OpCode op = TypedRegions.op(i);
        int a = a(i);
        boolean[] dIn = dirty[pc - r.head];
        dOut = dirtyAfter(pc, dIn);
        java.util.function.Supplier<Label> leave = () -> exit(pc, s, dIn);
        byte[] o = s.clone();
        switch (op) {
            case MOVE -> {
                int src = b(i);
                byte t = s[src];
                addGas(op);
                if (t == INT || t == FLT) {
                    load(s, src, t);
                    store(a, t);
                    o[a] = t;
                } else {
                    if (s[a] == INT || s[a] == FLT) o[a] = ANY;
                    plain("move", i, pc);
                    mv.visitInsn(POP);
                    o[a] = ANY;
                }
                go(pc + 1, o);
            }
            case LOADK -> {
                Object k = p.constants[i >>> 14];
                addGas(op);
                if (k instanceof Long || k instanceof Double) {
                    byte t = k instanceof Long ? INT : FLT;
                    mv.visitLdcInsn(k);
                    store(a, t);
                    o[a] = t;
                } else {
                    plain("loadk", i, pc);
                    mv.visitInsn(POP);
                    o[a] = ANY;
                }
                go(pc + 1, o);
            }
            case LOADBOOL, GETUPVAL -> {
                addGas(op);
                plain(op == OpCode.LOADBOOL ? "loadbool" : "getupval", i, pc);
                mv.visitInsn(POP);
                o[a] = ANY;
                go(op == OpCode.LOADBOOL && c(i) != 0 ? pc + 2 : pc + 1, o);
            }
            case LOADNIL -> {
                addGas(op);
                plain("loadnil", i, pc);
                mv.visitInsn(POP);
                for (int x = a; x <= a + b(i); x++) o[x] = ANY;
                go(pc + 1, o);
            }
            case GETTABLE -> {
                int key = c(i);
                if (TypedRegions.stringKey(p, key)) {
                    if (s[b(i)] == INT || s[b(i)] == FLT) {
                        mv.visitJumpInsn(GOTO, leave.get());
                        return;
                    }
                    // a field read: R(a) := R(b).k without __index (as the generic fast path)
                    coFrameSlot(a);
                    mv.visitVarInsn(ILOAD, L_BASE);
                    push(b(i));
                    mv.visitInsn(IADD);
                    push(key & 0xFF);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "getS", "(" + CO + FR + "III)Z", false);
                    mv.visitJumpInsn(IFEQ, leave.get());
                    addGas(op);
                    o[a] = ANY;
                    go(pc + 1, o);
                    return;
                }
                if (s[b(i)] == INT || s[b(i)] == FLT || type(s, key) == FLT) {
                    mv.visitJumpInsn(GOTO, leave.get());
                    return;
                }
                guard(s, key, INT, false, leave);
                reg(a);
                mv.visitVarInsn(ILOAD, L_BASE);
                push(b(i));
                mv.visitInsn(IADD);
                load(s, key, INT);
                mv.visitMethodInsn(INVOKESTATIC, RT, "getI", "(" + CO + "IIJ)Z", false);
                mv.visitJumpInsn(IFEQ, leave.get());
                addGas(op);
                o[a] = ANY;
                go(pc + 1, o);
            }
            case GETTABUP -> {
                // R(a) := Upvalue[b][RK(c)] by integer or constant string key, without __index
                int key = c(i);
                boolean str = TypedRegions.stringKey(p, key);
                if (!str && type(s, key) == FLT) {
                    mv.visitJumpInsn(GOTO, leave.get());
                    return;
                }
                if (!str) guard(s, key, INT, false, leave);
                coFrameSlot(a);
                push(b(i));
                if (str) {
                    push(key & 0xFF);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "getUpS", "(" + CO + FR + "III)Z", false);
                } else {
                    load(s, key, INT);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "getUpI", "(" + CO + FR + "IIJ)Z", false);
                }
                mv.visitJumpInsn(IFEQ, leave.get());
                addGas(op);
                o[a] = ANY;
                go(pc + 1, o);
            }
            case SETTABLE -> {
                int key = b(i);
                int val = c(i);
                if (TypedRegions.stringKey(p, key)) {
                    if (s[a] == INT || s[a] == FLT) {
                        mv.visitJumpInsn(GOTO, leave.get());
                        return;
                    }
                    // a field write over an existing field: R(a).k := RK(c) (no __newindex, no allocation)
                    reg(a);
                    mv.visitVarInsn(ALOAD, L_F);
                    push(key & 0xFF);
                    boxedValue(s, val);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "setS", "(" + CO + "I" + FR + "ILjava/lang/Object;)Z", false);
                    mv.visitJumpInsn(IFEQ, leave.get());
                    addGas(op);
                    go(pc + 1, o);
                    return;
                }
                if (s[a] == INT || s[a] == FLT || type(s, key) == FLT) {
                    mv.visitJumpInsn(GOTO, leave.get());
                    return;
                }
                guard(s, key, INT, false, leave);
                reg(a);
                load(s, key, INT);
                boxedValue(s, val);
                mv.visitMethodInsn(INVOKESTATIC, RT, "setI", "(" + CO + "IJLjava/lang/Object;)Z", false);
                mv.visitJumpInsn(IFEQ, leave.get());
                addGas(op);
                go(pc + 1, o);
            }
            case ADD, SUB, MUL, MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR -> arith(pc, i, op, s, o, leave);
            case UNM, BNOT -> {
                int src = b(i);
                byte d = op == OpCode.BNOT ? TypedRegions.domain(op, s[src], INT, false) : TypedRegions.unmDomain(s[src], r.floats);
                if (d == BAD) {
                    mv.visitJumpInsn(GOTO, leave.get());
                    return;
                }
                guard(s, src, d, false, leave);
                addGas(op);
                load(s, src, d);
                if (op == OpCode.BNOT) {
                    mv.visitLdcInsn(-1L);
                    mv.visitInsn(LXOR);
                } else {
                    mv.visitInsn(d == INT ? LNEG : DNEG);
                }
                store(a, d);
                o[a] = d;
                go(pc + 1, o);
            }
            case EQ, LT, LE -> compare(pc, i, op, s, leave);
            case TEST -> {
                addGas(op);
                if (s[a] == INT || s[a] == FLT) {
                    // a number is true: skips the next instruction when C is 0
                    go(c(i) == 0 ? pc + 2 : pc + 1, o);
                } else {
                    plain("test", i, pc);
                    Label skip = new Label();
                    mv.visitJumpInsn(IFNE, skip);
                    go(pc + 1, o);
                    mv.visitLabel(skip);
                    go(pc + 2, o);
                }
            }
            case JMP -> {
                addGas(op);
                int t = pc + 1 + sbx(i);
                if (sbx(i) < 0) safepoint(o, pc);
                go(t, o);
            }
            case FORLOOP -> forloop(pc, i, s, o, leave);
            default -> throw new IllegalStateException("unsupported in a region: " + op);
        }
    }

    /** Pushes RK(val) boxed: a number from its JVM local, else the constant or the register. */
    private void boxedValue(byte[] s, int val) {
        if (val <= 0xFF && (s[val] == INT || s[val] == FLT)) {
            load(s, val, s[val]);
            if (s[val] == INT) mv.visitMethodInsn(INVOKESTATIC, "java/lang/Long", "valueOf", "(J)Ljava/lang/Long;", false);
            else mv.visitMethodInsn(INVOKESTATIC, "java/lang/Double", "valueOf", "(D)Ljava/lang/Double;", false);
        } else {
            if (val > 0xFF) mv.visitVarInsn(ALOAD, L_F);
            else mv.visitVarInsn(ALOAD, L_CO);
            mv.visitMethodInsn(INVOKESTATIC, RT, val > 0xFF ? "constants" : "stack", "(" + (val > 0xFF ? FR : CO) + ")[Ljava/lang/Object;", false);
            if (val > 0xFF) {
                push(val & 0xFF);
            } else {
                mv.visitVarInsn(ILOAD, L_BASE);
                push(val);
                mv.visitInsn(IADD);
            }
            mv.visitInsn(AALOAD);
        }
    }

    private void arith(int pc, int i, OpCode op, byte[] s, byte[] o, java.util.function.Supplier<Label> leave) {
        int a = a(i);
        int rb = b(i);
        int rc = c(i);
        byte d = TypedRegions.domain(op, type(s, rb), type(s, rc), r.floats);
        if (d == BAD) {
            mv.visitJumpInsn(GOTO, leave.get());
            return;
        }
        // a guessed domain takes only boxed operands of its own type (no integer to float conversion)
        boolean converts = !TypedRegions.guessed(op, type(s, rb), type(s, rc));
        guard(s, rb, d, converts, leave);
        guard(s, rc, d, converts, leave);
        boolean intDiv = d == INT && (op == OpCode.MOD || op == OpCode.IDIV);
        if (intDiv) {
            // n//0 and n%0: the interpreter raises the error
            if (rc > 0xFF) {
                if ((Long) p.constants[rc & 0xFF] == 0) {
                    mv.visitJumpInsn(GOTO, leave.get());
                    return;
                }
            } else {
                load(s, rc, INT);
                mv.visitInsn(LCONST_0);
                mv.visitInsn(LCMP);
                mv.visitJumpInsn(IFEQ, leave.get());
            }
        }
        addGas(op);
        load(s, rb, d);
        load(s, rc, d);
        if (d == INT) {
            switch (op) {
                case ADD -> mv.visitInsn(LADD);
                case SUB -> mv.visitInsn(LSUB);
                case MUL -> mv.visitInsn(LMUL);
                case BAND -> mv.visitInsn(LAND);
                case BOR -> mv.visitInsn(LOR);
                case BXOR -> mv.visitInsn(LXOR);
                case MOD -> rt("imod", "(JJ)J");
                case IDIV -> rt("idiv", "(JJ)J");
                case SHL -> rt("shl", "(JJ)J");
                case SHR -> rt("shr", "(JJ)J");
                default -> throw new IllegalStateException(op.toString());
            }
        } else {
            switch (op) {
                case ADD -> mv.visitInsn(DADD);
                case SUB -> mv.visitInsn(DSUB);
                case MUL -> mv.visitInsn(DMUL);
                case DIV -> mv.visitInsn(DDIV);
                case MOD -> rt("fmod", "(DD)D");
                case IDIV -> rt("fidiv", "(DD)D");
                case POW -> rt("pow", "(DD)D");
                default -> throw new IllegalStateException(op.toString());
            }
        }
        store(a, d);
        o[a] = d;
        go(pc + 1, o);
    }

    private void rt(String name, String desc) {
        mv.visitMethodInsn(INVOKESTATIC, RT, name, desc, false);
    }

    private void compare(int pc, int i, OpCode op, byte[] s, java.util.function.Supplier<Label> leave) {
        int rb = b(i);
        int rc = c(i);
        byte tb = TypedRegions.cmpType(type(s, rb), type(s, rc));
        byte tc = TypedRegions.cmpType(type(s, rc), type(s, rb));
        guard(s, rb, tb, false, leave);
        guard(s, rc, tc, false, leave);
        addGas(op);
        load(s, rb, tb);
        load(s, rc, tc);
        Label yes = new Label();
        if (tb == INT && tc == INT) {
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(op == OpCode.EQ ? IFEQ : op == OpCode.LT ? IFLT : IFLE, yes);
        } else if (tb == FLT && tc == FLT) {
            mv.visitInsn(op == OpCode.EQ ? DCMPL : DCMPG); // NaN: never equal, never less
            mv.visitJumpInsn(op == OpCode.EQ ? IFEQ : op == OpCode.LT ? IFLT : IFLE, yes);
        } else if (tb == INT) {
            rt(op == OpCode.EQ ? "eqIF" : op == OpCode.LT ? "ltIF" : "leIF", "(JD)Z");
            mv.visitJumpInsn(IFNE, yes);
        } else if (op == OpCode.EQ) {
            rt("eqFI", "(DJ)Z");
            mv.visitJumpInsn(IFNE, yes);
        } else {
            rt(op == OpCode.LT ? "ltFI" : "leFI", "(DJ)Z");
            mv.visitJumpInsn(IFNE, yes);
        }
        // result false: skip the next instruction when A is 1 (the result must equal A to go on)
        boolean k = a(i) != 0;
        go(k ? pc + 2 : pc + 1, s);
        mv.visitLabel(yes);
        go(k ? pc + 1 : pc + 2, s);
    }

    private void forloop(int pc, int i, byte[] s, byte[] o, java.util.function.Supplier<Label> leave) {
        int a = a(i);
        byte t = s[a];
        if ((t != INT && t != FLT) || s[a + 1] != t || s[a + 2] != t) {
            mv.visitJumpInsn(GOTO, leave.get());
            return;
        }
        addGas(OpCode.FORLOOP);
        Label stop = new Label();
        if (t == INT) {
            mv.visitVarInsn(LLOAD, slotI(a));
            mv.visitVarInsn(LLOAD, slotI(a + 1));
            mv.visitVarInsn(LLOAD, slotI(a + 2));
            rt("forI", "(JJJ)Z");
            mv.visitInsn(DUP);
            mv.visitVarInsn(ISTORE, L_R);
            mv.visitJumpInsn(IFEQ, stop);
            mv.visitVarInsn(LLOAD, slotI(a));
            mv.visitVarInsn(LLOAD, slotI(a + 2));
            mv.visitInsn(LADD);
            mv.visitInsn(DUP2);
            mv.visitVarInsn(LSTORE, slotI(a));
            mv.visitVarInsn(LSTORE, slotI(a + 3));
        } else {
            mv.visitVarInsn(DLOAD, slotF(a));
            mv.visitVarInsn(DLOAD, slotF(a + 1));
            mv.visitVarInsn(DLOAD, slotF(a + 2));
            rt("forF", "(DDD)Z");
            mv.visitInsn(DUP);
            mv.visitVarInsn(ISTORE, L_R);
            mv.visitJumpInsn(IFEQ, stop);
            mv.visitVarInsn(DLOAD, slotF(a));
            mv.visitVarInsn(DLOAD, slotF(a + 2));
            mv.visitInsn(DADD);
            mv.visitInsn(DUP2);
            mv.visitVarInsn(DSTORE, slotF(a));
            mv.visitVarInsn(DSTORE, slotF(a + 3));
        }
        mv.visitLabel(stop);
        o[a] = t;
        o[a + 3] = t;
        safepoint(o, pc);
        mv.visitVarInsn(ILOAD, L_R);
        Label out = new Label();
        mv.visitJumpInsn(IFEQ, out);
        go(r.head, o);
        mv.visitLabel(out);
        go(pc + 1, o);
    }
}
