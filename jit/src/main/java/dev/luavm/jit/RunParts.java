package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.vm.tier.FunctionCompiler;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@code run} method too large for HotSpot, split into parts it can compile.
 *
 * <p>HotSpot never compiles a method over 8,000 bytes of bytecode (DontCompileHugeMethods): such
 * a method runs in the JVM's bytecode interpreter for ever, several times slower than the Lua
 * dispatch loop it replaces. Main chunks are where that happens: a script's whole top level,
 * class definitions and its hot loop together, is one prototype (oop_methods' 228 instructions
 * make 8,668 bytes with a helper call per instruction, the smallest form).
 *
 * <p>So a prototype whose every form is over the limit gets its code cut into ranges of pcs,
 * each emitted as a method of its own ({@code part0}, {@code part1}, ...: same descriptor and
 * locals as {@code run}, the same instruction code, its own exception handler, gas counter and
 * direct-call state). A part is entered like a typed loop method: the pc in the frame, the gas
 * counter in the LuaState. It runs from that pc while control stays in its range and returns a
 * status for run to return, or {@code -1 - pc} where control leaves its range. {@code run}
 * itself holds no instruction: a switch on the pc to the part that holds it, and the loop that
 * calls parts until one returns a status ({@link #emitRun}). It never takes the counter, so the
 * parts hand it to each other through the LuaState, and gas, errors and frames are exactly those
 * of one method.
 *
 * <p>Cuts ({@link #split}) go where no loop crosses them when such a place exists, nearest the
 * middle of a range that is over the limit, until every range fits: a loop that fits in a part
 * runs inside one compiled method, and only control flow between top-level statements crosses
 * parts.
 */
final class RunParts implements Opcodes {
    private static final String RT = FunctionCompiler.RUNTIME;
    private static final String RUN = "(Ldev/luavm/vm/LuaState;Ldev/luavm/vm/Coroutine;Ldev/luavm/vm/CallFrame;)I";
    private static final String FR = "Ldev/luavm/vm/CallFrame;";
    private static final int L_ST = AsmFunctionCompiler.L_ST, L_CO = AsmFunctionCompiler.L_CO, L_F = AsmFunctionCompiler.L_F,
            L_PC = AsmFunctionCompiler.L_PC, L_R = AsmFunctionCompiler.L_R;

    private RunParts() {}

    /** The bytecode size of a part holding pcs {@code lo..hi}. */
    interface Sizer {
        int size(int lo, int hi);
    }

    /**
     * The ranges {@code {lo, hi}} covering {@code code} in order, each of at most {@code limit}
     * bytes by {@code sizer}; null when a single instruction is over it.
     */
    static List<int[]> split(int[] code, Sizer sizer, int limit) {
        boolean[] inLoop = loopInteriors(code);
        List<int[]> out = new ArrayList<>();
        return split(code, inLoop, sizer, limit, 0, code.length - 1, out) ? out : null;
    }

    private static boolean split(int[] code, boolean[] inLoop, Sizer sizer, int limit, int lo, int hi, List<int[]> out) {
        if (sizer.size(lo, hi) <= limit) {
            out.add(new int[] {lo, hi});
            return true;
        }
        if (lo == hi) return false;
        int cut = cut(inLoop, lo, hi);
        return split(code, inLoop, sizer, limit, lo, cut - 1, out) && split(code, inLoop, sizer, limit, cut, hi, out);
    }

    /** A cut in {@code lo+1..hi} (the first pc of the second range): outside loops if possible, nearest the middle. */
    private static int cut(boolean[] inLoop, int lo, int hi) {
        int mid = lo + (hi - lo + 1) / 2;
        for (int d = 0; d <= hi - lo; d++) {
            if (mid - d > lo && !inLoop[mid - d]) return mid - d;
            if (mid + d <= hi && !inLoop[mid + d]) return mid + d;
        }
        return mid;
    }

    /**
     * {@code inLoop[c]}: a cut before pc {@code c} would split a loop, one closed by a backward
     * jump (JMP, FORLOOP, TFORLOOP) at {@code end} to {@code head}: {@code c} is in
     * {@code head .. end}. The instruction before the head (a FORPREP, or the JMP into a
     * generic for) stays with the loop.
     */
    static boolean[] loopInteriors(int[] code) {
        boolean[] in = new boolean[code.length + 1];
        for (int pc = 0; pc < code.length; pc++) {
            int i = code[pc];
            OpCode op = OpCode.of(i & 0x3F);
            int sbx = (i >>> 14) - 131071;
            boolean back = (op == OpCode.JMP || op == OpCode.FORLOOP || op == OpCode.TFORLOOP) && sbx < 0;
            if (!back) continue;
            int head = Math.max(0, pc + 1 + sbx - 1);
            for (int c = head + 1; c <= pc; c++) in[c] = true;
        }
        return in;
    }

    /**
     * {@code run} of a split class: the pc from the frame, a switch to the part holding it, the
     * part called with the pc in the frame; a status (0 and up) is returned, {@code -1 - pc} goes
     * round again. The counter stays in the LuaState throughout (parts take and hand it back).
     */
    static void emitRun(MethodVisitor mv, String owner, int length, List<int[]> parts) {
        mv.visitCode();
        Label[] calls = new Label[parts.size()];
        Label[] at = new Label[length];
        for (int j = 0; j < parts.size(); j++) {
            calls[j] = new Label();
            for (int pc = parts.get(j)[0]; pc <= parts.get(j)[1]; pc++) at[pc] = calls[j];
        }
        Label bad = new Label();
        Label dispatch = new Label();
        mv.visitVarInsn(ALOAD, L_F);
        mv.visitMethodInsn(INVOKESTATIC, RT, "pc", "(" + FR + ")I", false);
        mv.visitVarInsn(ISTORE, L_PC);
        mv.visitLabel(dispatch);
        mv.visitVarInsn(ILOAD, L_PC);
        mv.visitTableSwitchInsn(0, length - 1, bad, at);
        for (int j = 0; j < parts.size(); j++) {
            mv.visitLabel(calls[j]);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitMethodInsn(INVOKESTATIC, RT, "pcOut", "(" + FR + "I)V", false);
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, L_ST);
            mv.visitVarInsn(ALOAD, L_CO);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitMethodInsn(INVOKEVIRTUAL, owner, "part" + j, RUN, false);
            mv.visitVarInsn(ISTORE, L_R);
            Label resume = new Label();
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitJumpInsn(IFLT, resume);
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitInsn(IRETURN);
            mv.visitLabel(resume);
            mv.visitInsn(ICONST_M1);
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitInsn(ISUB);
            mv.visitVarInsn(ISTORE, L_PC);
            mv.visitJumpInsn(GOTO, dispatch);
        }
        mv.visitLabel(bad);
        mv.visitVarInsn(ILOAD, L_PC);
        mv.visitMethodInsn(INVOKESTATIC, RT, "badPc", "(I)V", false);
        mv.visitInsn(ICONST_0);
        mv.visitInsn(IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }
}
