package dev.luavm.tier;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Every class a generated class's code uses: its superclass and interfaces, owners of the
 * methods and fields it reaches, types it creates, casts to or tests; method handles and
 * dynamic constants are reported as "indy".
 */
final class OwnerScan {
    private OwnerScan() {}

    static Set<String> owners(byte[] bytes) {
        Set<String> out = new LinkedHashSet<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                out.add(superName);
                if (interfaces != null) out.addAll(Set.of(interfaces));
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                        out.add(owner);
                    }

                    @Override
                    public void visitFieldInsn(int op, String owner, String n, String d) {
                        out.add(owner);
                    }

                    @Override
                    public void visitTypeInsn(int op, String type) {
                        out.add(type);
                    }

                    @Override
                    public void visitMultiANewArrayInsn(String d, int dims) {
                        out.add(Type.getType(d).getElementType().getInternalName());
                    }

                    @Override
                    public void visitTryCatchBlock(org.objectweb.asm.Label s, org.objectweb.asm.Label e,
                                                   org.objectweb.asm.Label h, String type) {
                        if (type != null) out.add(type);
                    }

                    @Override
                    public void visitLdcInsn(Object v) {
                        if (v instanceof Type t) out.add(t.getSort() == Type.OBJECT ? t.getInternalName() : "ldc " + t);
                        if (v instanceof Handle || v instanceof ConstantDynamic) out.add("indy");
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle bsm, Object... args) {
                        out.add("indy");
                    }
                };
            }
        }, 0);
        return out;
    }
}
