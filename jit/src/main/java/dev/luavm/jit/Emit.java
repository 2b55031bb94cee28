package dev.luavm.jit;

import org.objectweb.asm.MethodVisitor;

import static org.objectweb.asm.Opcodes.ALOAD;
import static org.objectweb.asm.Opcodes.BIPUSH;
import static org.objectweb.asm.Opcodes.INVOKESTATIC;
import static org.objectweb.asm.Opcodes.LLOAD;
import static org.objectweb.asm.Opcodes.LSTORE;
import static org.objectweb.asm.Opcodes.ICONST_0;
import static org.objectweb.asm.Opcodes.SIPUSH;

/** Small bytecode idioms shared by the emitters of the generated {@code run} method. */
final class Emit {
    private static final String RT = dev.luavm.vm.tier.FunctionCompiler.RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";

    private Emit() {
    }

    /** Pushes the int {@code v} with the shortest instruction that holds it. */
    static void pushInt(MethodVisitor mv, int v) {
        if (v >= -1 && v <= 5) mv.visitInsn(ICONST_0 + v);
        else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) mv.visitIntInsn(BIPUSH, v);
        else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) mv.visitIntInsn(SIPUSH, v);
        else mv.visitLdcInsn(v);
    }

    /**
     * {@code TierSupport.exit(st, gas, room, status)}: the counter and room handed back through
     * the LuaState, the status ({@code status} pushes it) left on the operand stack.
     */
    static void exit(MethodVisitor mv, int lSt, int lGas, int lRoom, Runnable status) {
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitVarInsn(LLOAD, lGas);
        mv.visitVarInsn(LLOAD, lRoom);
        status.run();
        mv.visitMethodInsn(INVOKESTATIC, RT, "exit", "(" + ST + "JJI)I", false);
    }

    /**
     * The other half of {@link #exit}: the gas counter and room as whoever ran before (a caller,
     * a callee, a loop method) left them in the LuaState, into locals {@code lGas} and {@code lRoom}.
     */
    static void takeCounter(MethodVisitor mv, int lSt, int lGas, int lRoom) {
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitMethodInsn(INVOKESTATIC, RT, "gasIn", "(" + ST + ")J", false);
        mv.visitVarInsn(LSTORE, lGas);
        mv.visitVarInsn(ALOAD, lSt);
        mv.visitMethodInsn(INVOKESTATIC, RT, "roomIn", "(" + ST + ")J", false);
        mv.visitVarInsn(LSTORE, lRoom);
    }
}
