package dev.luavm.jit;

import dev.luavm.vm.tier.FunctionCompiler;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The call and return emission of one {@code run} method: compiled-to-compiled calls without
 * the dispatch loop (contract in {@code TierSupport}'s "Direct calls").
 *
 * <p>At a CALL or TFORCALL that pushed a frame, the code after the helper asks
 * {@code TierSupport.direct} whether this code may run the callee itself; if so it hands the
 * gas counter over ({@code enter}), zeroes its own, and invokes the callee's {@code run} from
 * this class's bytecode (so the call site's type profile is this call site's: fib-like
 * recursion sees one receiver class, which C2 can inline). {@code RETURNED} goes on at the next
 * instruction, {@code TAILCALLED} runs the replacing frame the same way, anything else leaves
 * with that status. RETURN and TAILCALL answer those statuses when their frame is the direct
 * one. JVM locals 30-39 are this class's. A CALL
 * does the call, the check and the handover in one helper ({@code TierSupport.callDirect}).
 */
final class DirectCalls implements Opcodes {
    private static final String RT = FunctionCompiler.RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";
    private static final String CO = "Ldev/luavm/vm/Coroutine;";
    private static final String FR = "Ldev/luavm/vm/CallFrame;";
    private static final String TS = "L" + RT + ";";

    // shared with AsmFunctionCompiler.Body
    private final int lSt, lCo, lF, lGas, lRoom, lR;
    /** the direct frame and nesting depth as this run found them (put back after each callee and on exceptions) */
    static final int L_DIRECT = 30, L_DEPTH = 31, L_T = 32;

    private static final int RETURNED = 2, TAILCALLED = 3;

    private final MethodVisitor mv;
    private final Label exit0;
    private final Label exit2 = new Label();
    private final Label exit3 = new Label();

    /**
     * Non-null: one shared copy of the direct-call code for the whole method (a large function,
     * where a copy after every call would push run over HotSpot's size limit); a callee that
     * returned goes on through the entry switch at L_PC, which the call stored as its next pc.
     */
    private final Label dispatch;
    private final Label shared = new Label();
    /** in the shared copy: past the direct check (a CALL's {@code callDirect} did it) */
    private final Label sharedGo = new Label();
    private boolean sharedUsed;

    /** emitted when a callee returned here: reloads what the caller's code caches of the coroutine */
    private final Runnable afterCallee;
    /** emitted before a CALL leaves this run (see {@link #beforeLeave}), or null */
    private Runnable beforeLeave;

    /** each CALL first tries its callee's frameless entry ({@link FramelessEmitter}) */
    private final boolean frameless;
    /** the frameless callee's result */
    static final int L_V = 33;

    DirectCalls(MethodVisitor mv, Label exit0, int lSt, int lCo, int lF, int lGas, int lRoom, int lR,
            Runnable afterCallee, Label dispatch, boolean frameless) {
        this.frameless = frameless;
        this.mv = mv;
        this.afterCallee = afterCallee;
        this.dispatch = dispatch;
        this.exit0 = exit0;
        this.lSt = lSt;
        this.lCo = lCo;
        this.lF = lF;
        this.lGas = lGas;
        this.lRoom = lRoom;
        this.lR = lR;
    }

    /**
     * Code to run before the next CALLs leave this run for the dispatch loop (a frame pushed,
     * a callee that did not return): a typed loop copy boxes there what it kept unboxed across
     * the call. Such a CALL gets its own copy of the direct-call code even where the others
     * share one. Null stops it.
     */
    void beforeLeave(Runnable code) {
        beforeLeave = code;
    }

    /** A jump to exit0, through {@link #beforeLeave} when set. */
    private void leave(int opcode) {
        if (beforeLeave == null) {
            mv.visitJumpInsn(opcode, exit0);
            return;
        }
        Label stay = new Label();
        mv.visitJumpInsn(invert(opcode), stay);
        beforeLeave.run();
        mv.visitJumpInsn(GOTO, exit0);
        mv.visitLabel(stay);
    }

    private static int invert(int opcode) {
        return switch (opcode) {
            case IF_ACMPEQ -> IF_ACMPNE;
            case IFNULL -> IFNONNULL;
            default -> throw new IllegalArgumentException("opcode " + opcode);
        };
    }

    /** In the prologue (outside the try range): the nesting state at entry. */
    void prologue() {
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitMethodInsn(INVOKESTATIC, RT, "directIn", "(" + ST + ")" + FR, false);
        mv.visitVarInsn(ASTORE, L_DIRECT);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitMethodInsn(INVOKESTATIC, RT, "depthIn", "(" + ST + ")I", false);
        mv.visitVarInsn(ISTORE, L_DEPTH);
    }

    /** At the head of the exception handler: the nesting state put back. */
    void handler() {
        unnest();
    }

    private void unnest() {
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, L_DIRECT);
        mv.visitVarInsn(ILOAD, L_DEPTH);
        mv.visitMethodInsn(INVOKESTATIC, RT, "unnest", "(" + ST + FR + "I)V", false);
    }

    /**
     * After a call helper (int result: -1 frame pushed, else done in place), placed right before
     * {@code next}'s code: jumps there, or runs the callee directly, or leaves. Inline, so every
     * jump to {@code next} is forward (a backward one would count as a loop back-edge for the JVM's
     * profile and OSR).
     */
    void afterCall(Label next) {
        mv.visitJumpInsn(IFGE, next);
        if (dispatch == null) {
            stub(new Label(), new Label(), next);
        } else {
            sharedUsed = true;
            mv.visitJumpInsn(GOTO, shared);
        }
    }

    /** After the TAILCALL helper: -1 leaves with {@code tailStatus}, else falls through. */
    void afterTailcall() {
        Label go = new Label();
        mv.visitJumpInsn(IFGE, go);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lF);
        mv.visitMethodInsn(INVOKESTATIC, RT, "tailStatus", "(" + ST + FR + ")I", false);
        mv.visitJumpInsn(IFNE, exit3);
        mv.visitJumpInsn(GOTO, exit0);
        mv.visitLabel(go);
    }

    /** After the RETURN helper (0 continue, 1 done, 2 returned): leaves with that status. */
    void afterReturn(Label exit1) {
        mv.visitVarInsn(ISTORE, lR);
        mv.visitVarInsn(ILOAD, lR);
        mv.visitJumpInsn(IFEQ, exit0);
        mv.visitVarInsn(ILOAD, lR);
        mv.visitInsn(ICONST_1);
        mv.visitJumpInsn(IF_ICMPEQ, exit1);
        mv.visitJumpInsn(GOTO, exit2);
    }

    /** The two extra exits; after all instructions. */
    void emitStubs() {
        exit(exit2, RETURNED);
        exit(exit3, TAILCALLED);
        if (sharedUsed) stub(shared, sharedGo, dispatch);
    }

    /**
     * A CALL instruction with direct calls ({@code L_PC} already holds its next pc): the call,
     * the direct check and the handover in one helper ({@code callDirect}), then the callee's
     * run. Null: a builtin completed in place; PUSHED: the dispatch loop runs the new frame.
     */
    void call(int lBase, int i, int pc, Label next) {
        int b = i >>> 23;
        int c = (i >>> 14) & 0x1FF;
        if (frameless && b >= 1 && b <= FramelessEmitter.MAX_ARITY + 1 && c >= 1 && c <= 2) framelessCall(lBase, i, pc, next);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitVarInsn(ALOAD, lF);
        mv.visitVarInsn(ILOAD, lBase);
        push(i);
        push(pc + 1);
        mv.visitVarInsn(LLOAD, lGas);
        mv.visitVarInsn(LLOAD, lRoom);
        mv.visitMethodInsn(INVOKESTATIC, RT, "callDirect", "(" + ST + CO + FR + "IIIJJ)" + TS, false);
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, L_T);
        Label callee = new Label();
        mv.visitJumpInsn(IFNONNULL, callee);
        afterCallee.run(); // a builtin run in place may have grown co.stack
        mv.visitJumpInsn(GOTO, next);
        mv.visitLabel(callee);
        mv.visitVarInsn(ALOAD, L_T);
        mv.visitFieldInsn(GETSTATIC, RT, "PUSHED", TS);
        leave(IF_ACMPEQ);
        mv.visitInsn(LCONST_0); // handed over
        mv.visitVarInsn(LSTORE, lGas);
        if (dispatch == null || beforeLeave != null) {
            Label go = new Label();
            mv.visitJumpInsn(GOTO, go); // past the direct check (forward): the handover is done
            stub(new Label(), go, next);
        } else {
            sharedUsed = true;
            mv.visitJumpInsn(GOTO, sharedGo);
        }
    }

    /**
     * A CALL of B - 1 fixed arguments wanting C - 1 results (one or none) tries the callee's
     * frameless entry first ({@code TierSupport.frameless}): the callee runs without a frame
     * (counter handed over, result stored in R(A) as RETURN would), or bails, having built the
     * frames from its own up, and this run leaves for the dispatch loop with its pc after the
     * call. When the entry cannot be used, the code falls through to the ordinary call.
     */
    private void framelessCall(int lBase, int i, int pc, Label next) {
        int a = (i >>> 6) & 0xFF;
        int nargs = (i >>> 23) - 1;
        int c = (i >>> 14) & 0x1FF;
        Label ordinary = new Label();
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        reg(lBase, a);
        push(nargs);
        mv.visitMethodInsn(INVOKESTATIC, RT, "frameless", "(" + ST + CO + "II)" + TS, false);
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, L_T);
        mv.visitJumpInsn(IFNULL, ordinary);
        // the frame's pc as the call leaves it (a bail resumes it there)
        mv.visitVarInsn(ALOAD, lF);
        push(pc + 1);
        mv.visitMethodInsn(INVOKESTATIC, RT, "pcOut", "(" + FR + "I)V", false);
        mv.visitVarInsn(ALOAD, L_T);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        stackSlot(lBase, a);
        mv.visitTypeInsn(CHECKCAST, "dev/luavm/value/LuaClosure");
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitMethodInsn(INVOKESTATIC, RT, "nframes", "(" + CO + ")I", false);
        reg(lBase, a);
        mv.visitVarInsn(ALOAD, lSt);
        push(c - 1);
        mv.visitMethodInsn(INVOKESTATIC, RT, "ctlFor", "(" + ST + "I)I", false);
        mv.visitVarInsn(LLOAD, lGas);
        mv.visitVarInsn(LLOAD, lRoom);
        mv.visitInsn(LCONST_0); // handed over
        mv.visitVarInsn(LSTORE, lGas);
        for (int j = 1; j <= nargs; j++) stackSlot(lBase, a + j);
        mv.visitMethodInsn(INVOKEVIRTUAL, RT, FramelessEmitter.name(nargs), FramelessEmitter.descriptor(nargs), false);
        mv.visitVarInsn(ASTORE, L_V);
        Emit.takeCounter(mv, lSt, lGas, lRoom);
        mv.visitVarInsn(ALOAD, L_V);
        mv.visitFieldInsn(GETSTATIC, RT, "BAILED", "Ljava/lang/Object;");
        Label bailed = new Label();
        mv.visitJumpInsn(IF_ACMPEQ, bailed);
        if (c == 2) {
            mv.visitVarInsn(ALOAD, lCo);
            mv.visitMethodInsn(INVOKESTATIC, RT, "stack", "(" + CO + ")[Ljava/lang/Object;", false);
            reg(lBase, a);
            mv.visitVarInsn(ALOAD, L_V);
            mv.visitInsn(AASTORE);
        }
        afterCallee.run();
        mv.visitJumpInsn(GOTO, next);
        mv.visitLabel(bailed);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitMethodInsn(INVOKESTATIC, RT, "landBail", "(" + ST + CO + ")V", false);
        if (beforeLeave != null) beforeLeave.run();
        mv.visitJumpInsn(GOTO, exit0);
        mv.visitLabel(ordinary);
    }

    /** base + x */
    private void reg(int lBase, int x) {
        mv.visitVarInsn(ILOAD, lBase);
        if (x != 0) {
            push(x);
            mv.visitInsn(IADD);
        }
    }

    /** co.stack[base + x] */
    private void stackSlot(int lBase, int x) {
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitMethodInsn(INVOKESTATIC, RT, "stack", "(" + CO + ")[Ljava/lang/Object;", false);
        reg(lBase, x);
        mv.visitInsn(AALOAD);
    }

    /**
     * The direct-call code: at {@code stub} the direct check and handover (after a call helper
     * or a tail call), at {@code go} the callee's run with the handover done; then the statuses.
     */
    private void stub(Label stub, Label go, Label next) {
        mv.visitLabel(stub);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitVarInsn(ALOAD, lF);
        mv.visitMethodInsn(INVOKESTATIC, RT, "direct", "(" + ST + CO + FR + ")" + TS, false);
        mv.visitInsn(DUP);
        mv.visitVarInsn(ASTORE, L_T);
        leave(IFNULL);
        // enter(st, co, gas, room), the local counter zeroed before the callee runs
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitVarInsn(LLOAD, lGas);
        mv.visitVarInsn(LLOAD, lRoom);
        mv.visitMethodInsn(INVOKESTATIC, RT, "enter", "(" + ST + CO + "JJ)" + FR, false);
        mv.visitInsn(POP);
        mv.visitInsn(LCONST_0);
        mv.visitVarInsn(LSTORE, lGas);
        mv.visitLabel(go);
        // t.run(st, co, the direct frame)
        mv.visitVarInsn(ALOAD, L_T);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(ALOAD, lCo);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitMethodInsn(INVOKESTATIC, RT, "directIn", "(" + ST + ")" + FR, false);
        mv.visitMethodInsn(INVOKEVIRTUAL, RT, "run", "(" + ST + CO + FR + ")I", false);
        mv.visitVarInsn(ISTORE, lR);
        unnest();
        Emit.takeCounter(mv, lSt, lGas, lRoom);
        mv.visitVarInsn(ILOAD, lR);
        push(RETURNED);
        Label notReturned = new Label();
        mv.visitJumpInsn(IF_ICMPNE, notReturned);
        afterCallee.run(); // the callee may have grown co.stack: cached copies are stale
        mv.visitJumpInsn(GOTO, next);
        mv.visitLabel(notReturned);
        mv.visitVarInsn(ILOAD, lR);
        push(TAILCALLED);
        mv.visitJumpInsn(IF_ICMPEQ, stub);
        // CONTINUE or DONE: leave with it
        if (beforeLeave != null) beforeLeave.run();
        Emit.exit(mv, lSt, lGas, lRoom, () -> mv.visitVarInsn(ILOAD, lR));
        mv.visitInsn(IRETURN);
    }

    private void exit(Label l, int status) {
        mv.visitLabel(l);
        Emit.exit(mv, lSt, lGas, lRoom, () -> push(status));
        mv.visitInsn(IRETURN);
    }

    private void push(int v) {
        Emit.pushInt(mv, v);
    }
}
