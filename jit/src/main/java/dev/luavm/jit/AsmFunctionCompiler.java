package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.vm.tier.FunctionCompiler;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Generates one class per Lua prototype: a method {@code run} that is the dispatch loop
 * specialised to that prototype's code (contract on {@code dev.luavm.vm.TierSupport}).
 *
 * <p>Shape of {@code run}: load the gas counter, room, base and pc; a {@code tableswitch} on
 * the pc to the instruction's label (any pc can be a resume point: after a call returns, a
 * metamethod completes, a coroutine resumes); then per instruction: add its gas, note the pc an
 * error would report, and either call the instruction's helper with the operand word as a
 * constant or, for jumps and tests, branch directly. Safepoints (calls, returns, loop steps,
 * backward jumps) test {@code gas >= room} exactly where the interpreter does. A frame change
 * leaves through {@code TierSupport.exit}; any throwable goes through {@code TierSupport.fail}
 * (pc and gas recorded, as the interpreter's catch does) and is rethrown. Calls of compiled
 * callees may run them directly ({@link DirectCalls}).
 *
 * <p>Typed loops: innermost loops of numeric code also get a second, typed copy with numbers
 * unboxed in JVM locals (40 and up), each in a method of its own ({@code loop0}, {@code
 * loop1}, ...: same descriptor and locals as {@code run}). Where run's generic code gets to such
 * a loop's head, it hands the counter over (as to a callee) and calls the loop method, which
 * enters the typed copy once type guards pass and returns either a status for run to return or
 * the pc at which run's generic code goes on (registers boxed back): where a guard fails, the
 * loop ends, or the generic code is needed ({@link TypedRegions}, {@link RegionEmitter}).
 * Separate methods keep run and each loop under HotSpot's size limit (a typed copy in run made
 * it drop its inline fast paths, or the copy). A function whose typed copies would make a loop
 * method too large is compiled without them.
 *
 * <p>A function too large for one method in every form (a long main chunk) has its run split
 * into part methods, each under the limit ({@link RunParts}), rather than left to a run HotSpot
 * would never compile.
 *
 * <p>Declined (left interpreted): LOADKX and SETLIST with an EXTRAARG word (over 2^17
 * constants or 25,550 list items), and methods over the JVM's 64 KiB.
 */
public final class AsmFunctionCompiler implements FunctionCompiler, Opcodes {
    private static final String RT = RUNTIME;
    private static final String ST = "Ldev/luavm/vm/LuaState;";
    private static final String CO = "Ldev/luavm/vm/Coroutine;";
    private static final String FR = "Ldev/luavm/vm/CallFrame;";
    private static final String RUN = "(" + ST + CO + FR + ")I";
    private static final String OP = "(" + ST + CO + FR + "III)I";

    static final int L_ST = 1, L_CO = 2, L_F = 3, L_GAS = 4, L_ROOM = 6, L_BASE = 8, L_PC = 9, L_R = 10,
            L_EXC = 11, L_EXTRA = 12;

    /**
     * HotSpot compiles no method over 8,000 bytes of bytecode (DontCompileHugeMethods): a run
     * method with the inline fast paths that would exceed it is generated again without them.
     */
    public static final int INLINE_LIMIT = 7_900;

    /** How many loops of {@code p} get a typed copy (numbers unboxed; see {@link TypedRegions}). */
    public static int typedLoops(Prototype p) {
        return TypedRegions.find(p).size();
    }

    /** Whether {@link #compile(Prototype, String)} keeps the typed loop copies of {@code p} (some form with them fits). */
    public boolean keepsTypedLoops(Prototype p) {
        java.util.List<TypedRegions.Region> all = TypedRegions.find(p);
        if (all.isEmpty()) return false;
        for (int l = 2; l >= 0; l--) {
            for (int shared = 0; shared <= 1; shared++) {
                if (generate(p, "dev/luavm/gen/Probe", l, all, false, shared == 1, -1, false) != null) return true;
            }
        }
        return false;
    }

    @Override
    public byte[] compile(Prototype p, String internalName) {
        return compile(p, internalName, 2);
    }

    /**
     * Class bytes at an inlining level: 2 every fast path of {@link InlineOps}, 1 its compact
     * subset (no arithmetic or compares), 0 a helper call per instruction, each first with the
     * typed loop copies ({@link TypedRegions}) and then without. The first form under
     * {@link #INLINE_LIMIT} wins; when none fits, the same forms with run split into parts
     * ({@link RunParts}), and last level 0 without copies at any size. Public for tests and
     * diagnostics; {@link #compile(Prototype, String)} starts at level 2.
     */
    public byte[] compile(Prototype p, String internalName, int level) {
        int[] code = p.code;
        for (int pc = 0; pc < code.length; pc++) {
            OpCode op = OpCode.of(code[pc] & 0x3F);
            if (op == OpCode.LOADKX || op == OpCode.EXTRAARG) return null;
            if (op == OpCode.SETLIST && ((code[pc] >>> 14) & 0x1FF) == 0) return null;
        }
        // typed loop copies are worth more than inline paths where they apply, but only in a
        // method HotSpot compiles; at each inline level all copies are tried, then only those of
        // loops without generic instructions (calls and the like, which make a copy larger and
        // gain less), then the levels are tried again without copies, the last at any size.
        // At each level, direct calls first with their code after each call, then with one shared copy.
        int frameless = framelessArity(p);
        java.util.List<TypedRegions.Region> all = TypedRegions.find(p);
        java.util.List<TypedRegions.Region> pure = new java.util.ArrayList<>();
        for (TypedRegions.Region r : all) if (!r.generic) pure.add(r);
        java.util.List<java.util.List<TypedRegions.Region>> sets = new java.util.ArrayList<>();
        if (!all.isEmpty()) sets.add(all);
        if (!pure.isEmpty() && pure.size() < all.size()) sets.add(pure);
        // frameless call sites (each CALL first tries the callee's frameless entry) at the top
        // level only, then every form without them: each try generates the whole class, so a
        // function that fits nowhere (a large main chunk) must not pay for a second full search
        int flFirst = framelessCallSites(p) ? 1 : 0;
        for (int fl = flFirst; fl >= 0; fl--) {
            for (int l = level; l >= (fl == 1 ? level : 0); l--) {
                for (java.util.List<TypedRegions.Region> set : sets) {
                    for (int shared = 0; shared <= 1; shared++) {
                        byte[] b = generate(p, internalName, l, set, false, shared == 1, frameless, fl == 1);
                        if (b != null) return b;
                    }
                }
            }
        }
        for (int fl = flFirst; fl >= 0; fl--) {
            for (int l = level; l >= (fl == 1 ? level : 0); l--) {
                for (int shared = 0; shared <= 1; shared++) {
                    byte[] b = generate(p, internalName, l, java.util.List.of(), false, shared == 1, frameless, fl == 1);
                    if (b != null) return b;
                }
            }
        }
        // too large for one method in any form: run split into parts of its own size each
        // (RunParts), tried with the same forms in the same order; the last form at any size
        sets.add(java.util.List.of());
        for (int fl = flFirst; fl >= 0; fl--) {
            for (int l = level; l >= (fl == 1 ? level : 0); l--) {
                for (java.util.List<TypedRegions.Region> set : sets) {
                    for (int shared = 0; shared <= 1; shared++) {
                        byte[] b = generateSplit(p, internalName, l, set, shared == 1, frameless, fl == 1);
                        if (b != null) return b;
                    }
                }
            }
        }
        return generate(p, internalName, 0, java.util.List.of(), true, true, frameless, false);
    }

    /** Whether {@code p} has a CALL whose callee may run frameless (fixed arguments, one result or none). */
    private static boolean framelessCallSites(Prototype p) {
        for (int i : p.code) {
            int b = i >>> 23;
            int c = (i >>> 14) & 0x1FF;
            if (OpCode.of(i & 0x3F) == OpCode.CALL && b >= 1 && b <= FramelessEmitter.MAX_ARITY + 1 && c >= 1 && c <= 2) return true;
        }
        return false;
    }

    /**
     * The arity of {@code p}'s frameless entry ({@link FramelessEmitter}) when its method fits
     * HotSpot's size limit, else -1 (measured on a throwaway class).
     */
    public static int framelessArity(Prototype p) {
        int arity = FramelessEmitter.arity(p);
        if (arity < 0) return -1;
        ClassWriter probe = writer();
        probe.visit(V17, ACC_FINAL | ACC_SUPER, "dev/luavm/gen/Probe", null, RT, null);
        return FramelessEmitter.emit(probe, p, arity, INLINE_LIMIT) < 0 ? -1 : arity;
    }

    private static ClassWriter writer() {
        return new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object"; // never load classes while generating
            }
        };
    }

    /** The class, or null when its run method is over the JVM's 64 KiB or, unless {@code anySize}, {@link #INLINE_LIMIT}. */
    private byte[] generate(Prototype p, String internalName, int level, java.util.List<TypedRegions.Region> typed, boolean anySize,
            boolean sharedCalls, int frameless, boolean framelessCalls) {
        int[] code = p.code;
        ClassWriter cw = writer();
        cw.visit(V17, ACC_FINAL | ACC_SUPER, internalName, null, RT, null);
        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        Emit.pushInt(init, frameless);
        init.visitMethodInsn(INVOKESPECIAL, RT, "<init>", "(I)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        // each typed loop copy is a method of its own (loop0, loop1, ...), so that it and run
        // each stay under HotSpot's size limit
        java.util.Map<Integer, Label> loopCalls = new java.util.TreeMap<>();
        int k = 0;
        for (TypedRegions.Region r : typed) {
            Body loop = new Body(cw.visitMethod(ACC_PRIVATE, "loop" + k, RUN, null, null), code, level > 0 ? p.constants : null,
                    level > 1, r, p, framelessCalls);
            loop.emitLoop();
            if (!anySize && loop.size > INLINE_LIMIT) return null;
            loopCalls.put(r.head, new Label());
            k++;
        }
        Body body = new Body(cw.visitMethod(0, "run", RUN, null, null), code, level > 0 ? p.constants : null,
                level > 1, loopCalls, internalName, sharedCalls, framelessCalls);
        body.emit();
        if (!anySize && body.size > INLINE_LIMIT) return null;
        // the frameless entry (its size checked once, by framelessArity) only in the class kept
        if (frameless >= 0) FramelessEmitter.emit(cw, p, frameless, Integer.MAX_VALUE);
        cw.visitEnd();
        try {
            return cw.toByteArray();
        } catch (MethodTooLargeException e) {
            return null;
        }
    }

    /**
     * The class with {@code run} split into part methods ({@link RunParts}), each under
     * {@link #INLINE_LIMIT}; null when some typed loop method or some single instruction is over it.
     */
    private byte[] generateSplit(Prototype p, String internalName, int level, java.util.List<TypedRegions.Region> typed,
            boolean sharedCalls, int frameless, boolean framelessCalls) {
        int[] code = p.code;
        java.util.Map<Integer, Integer> loopIndex = new java.util.TreeMap<>();
        for (int k = 0; k < typed.size(); k++) loopIndex.put(typed.get(k).head, k);
        java.util.List<int[]> parts = RunParts.split(code, (lo, hi) -> {
            ClassWriter probe = writer();
            probe.visit(V17, ACC_FINAL | ACC_SUPER, internalName, null, RT, null);
            Body part = new Body(probe.visitMethod(ACC_PRIVATE, "part", RUN, null, null), code, level > 0 ? p.constants : null,
                    level > 1, loopIndex, internalName, sharedCalls, framelessCalls, lo, hi);
            part.emitPart();
            return part.size;
        }, INLINE_LIMIT);
        if (parts == null) return null;
        ClassWriter cw = writer();
        cw.visit(V17, ACC_FINAL | ACC_SUPER, internalName, null, RT, null);
        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        Emit.pushInt(init, frameless);
        init.visitMethodInsn(INVOKESPECIAL, RT, "<init>", "(I)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        int k = 0;
        for (TypedRegions.Region r : typed) {
            Body loop = new Body(cw.visitMethod(ACC_PRIVATE, "loop" + k, RUN, null, null), code, level > 0 ? p.constants : null,
                    level > 1, r, p, framelessCalls);
            loop.emitLoop();
            if (loop.size > INLINE_LIMIT) return null;
            k++;
        }
        for (int j = 0; j < parts.size(); j++) {
            int[] range = parts.get(j);
            Body part = new Body(cw.visitMethod(ACC_PRIVATE, "part" + j, RUN, null, null), code, level > 0 ? p.constants : null,
                    level > 1, loopIndex, internalName, sharedCalls, framelessCalls, range[0], range[1]);
            part.emitPart();
        }
        RunParts.emitRun(cw.visitMethod(0, "run", RUN, null, null), internalName, code.length, parts);
        if (frameless >= 0) FramelessEmitter.emit(cw, p, frameless, Integer.MAX_VALUE);
        cw.visitEnd();
        try {
            return cw.toByteArray();
        } catch (MethodTooLargeException e) {
            return null;
        }
    }

    /**
     * One method of a prototype's class: {@code run} (the whole function, generic code, its
     * typed loops called as methods of their own) or {@code loopN} (one loop's typed copy, see
     * {@link #emitLoop}). Both have the same descriptor and the same locals, so every emitter
     * writes the same code in either.
     */
    private static final class Body {
        private final MethodVisitor mv;
        private final int[] code;
        /** run: the label of every pc; a part: of every pc in its range; null in a loop method */
        private final Label[] at;
        /** the pcs this method's code holds (run: all; a part of a split run: its range) */
        private final int lo, hi;
        /** a part: the typed loop method of each loop head, by index (run numbers its loop calls in order) */
        private final java.util.Map<Integer, Integer> loopIndex;
        /** loop method: the pcs its code goes on at in run, each a small stub setting L_PC */
        private final java.util.Map<Integer, Label> resumeAt = new java.util.TreeMap<>();
        private final Label bad = new Label();
        private final Label exit0 = new Label();
        private final Label exit1 = new Label();
        /** the entry switch, where slow paths of inline code re-enter at L_PC (a loop method: back to run at L_PC) */
        private final Label dispatch = new Label();
        /** the fast paths written inline, or null (every instruction through its helper) */
        private final InlineOps inline;
        /** bytes of code of this method, once emitted */
        int size;
        private final DirectCalls calls;

        /** run: the call of each typed loop method, by its loop's head pc */
        private final java.util.Map<Integer, Label> loopCalls;
        private final String owner;
        /** a loop method: its typed copy */
        private final RegionEmitter loop;

        /** The {@code run} method. */
        Body(MethodVisitor mv, int[] code, Object[] constants, boolean full, java.util.Map<Integer, Label> loopCalls,
                String owner, boolean sharedCalls, boolean framelessCalls) {
            this.mv = mv;
            this.code = code;
            this.at = new Label[code.length];
            for (int i = 0; i < at.length; i++) at[i] = new Label();
            this.lo = 0;
            this.hi = code.length - 1;
            this.loopIndex = null;
            this.loopCalls = loopCalls;
            this.owner = owner;
            this.loop = null;
            this.inline = constants == null ? null : new InlineOps(mv, pc -> at[pc], code.length, bad, exit0, dispatch, constants, full);
            this.calls = newCalls(sharedCalls, framelessCalls);
        }

        /** A part of a split run: the pcs {@code lo..hi}; {@code loopIndex} numbers the typed loop methods by head. */
        Body(MethodVisitor mv, int[] code, Object[] constants, boolean full, java.util.Map<Integer, Integer> loopIndex,
                String owner, boolean sharedCalls, boolean framelessCalls, int lo, int hi) {
            this.mv = mv;
            this.code = code;
            this.at = new Label[code.length];
            for (int i = lo; i <= hi; i++) at[i] = new Label();
            this.lo = lo;
            this.hi = hi;
            this.loopIndex = loopIndex;
            this.loopCalls = new java.util.TreeMap<>();
            for (int head : loopIndex.keySet()) if (head >= lo && head <= hi) loopCalls.put(head, new Label());
            this.owner = owner;
            this.loop = null;
            this.inline = constants == null ? null : new InlineOps(mv, this::label, code.length, bad, exit0, dispatch, constants, full);
            this.calls = newCalls(sharedCalls, framelessCalls);
        }

        /** A loop method: the typed copy of {@code r}. */
        Body(MethodVisitor mv, int[] code, Object[] constants, boolean full, TypedRegions.Region r, Prototype p,
                boolean framelessCalls) {
            this.mv = mv;
            this.code = code;
            this.at = null;
            this.lo = 0;
            this.hi = -1;
            this.loopIndex = null;
            this.loopCalls = java.util.Map.of();
            this.owner = null;
            this.inline = constants == null ? null : new InlineOps(mv, this::label, code.length, bad, exit0, dispatch, constants, full);
            this.calls = newCalls(false, framelessCalls);
            this.loop = new RegionEmitter(mv, p, this::label, r, new RegionEmitter.GenericCode() {
                @Override
                public void emit(int pc, Label next, Runnable beforeLeave) {
                    genericCopy(pc, next, beforeLeave);
                }

                @Override
                public boolean spillsOnLeave(int pc) {
                    return OpCode.of(code[pc] & 0x3F) == OpCode.CALL;
                }
            });
        }

        private DirectCalls newCalls(boolean sharedCalls, boolean framelessCalls) {
            return new DirectCalls(mv, exit0, L_ST, L_CO, L_F, L_GAS, L_ROOM, L_R, () -> {
                if (inline != null) inline.reloadStack();
            }, sharedCalls ? dispatch : null, framelessCalls);
        }

        /** Where a jump back to {@code pc} goes: the call of the typed copy when a loop starts there. */
        private Label entry(int pc) {
            Label l = loopCalls.get(pc);
            return l != null ? l : label(pc);
        }

        private Label label(int pc) {
            if (pc < 0 || pc >= code.length) return bad;
            return at != null && pc >= lo && pc <= hi ? at[pc] : resumeAt.computeIfAbsent(pc, x -> new Label());
        }

        /** The method's prologue: the counter, room, base and pc, the caches, the nesting state. */
        private void prologue() {
            takeCounter();
            rt(L_F, "base", "(" + FR + ")I");
            mv.visitVarInsn(ISTORE, L_BASE);
            rt(L_F, "pc", "(" + FR + ")I");
            mv.visitVarInsn(ISTORE, L_PC);
            if (inline != null) inline.prologue();
            calls.prologue();
        }

        /** The gas counter and room as whoever ran before left them in the LuaState. */
        private void takeCounter() {
            Emit.takeCounter(mv, L_ST, L_GAS, L_ROOM);
        }

        /** The label reached for a pc outside the code (a generator bug): badPc raises. */
        private void badBlock() {
            mv.visitLabel(bad);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitMethodInsn(INVOKESTATIC, RT, "badPc", "(I)V", false);
            mv.visitJumpInsn(GOTO, exit0);
        }

        /**
         * A loop method: entered from run where its generic code reaches the loop's head (the
         * counter handed over in the LuaState, the pc in the frame, as for a call), it runs the
         * typed copy and returns either a status for run to return (0 and up, as run's own) or
         * {@code -1 - pc}: go on with the generic code at pc (a type check failed, the loop
         * ended, an instruction needs the generic code), every register boxed.
         */
        void emitLoop() {
            mv.visitCode();
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            mv.visitTryCatchBlock(start, end, handler, null);
            prologue();
            mv.visitLabel(start);
            mv.visitJumpInsn(GOTO, loop.enter);
            loop.emit();
            emitTail(dispatch);
            mv.visitLabel(end);
            finish(handler);
        }

        /**
         * What follows the code of a loop method or a part: the bad-block trap, the inline slow
         * paths, the call stubs, and the resume points, each storing its pc and jumping to
         * {@code exit}, where the method returns {@code -1 - pc} (go on at pc).
         */
        private void emitTail(Label exit) {
            badBlock();
            if (inline != null) inline.slowBlocks();
            calls.emitStubs();
            for (java.util.Map.Entry<Integer, Label> e : resumeAt.entrySet()) {
                mv.visitLabel(e.getValue());
                push(e.getKey());
                mv.visitVarInsn(ISTORE, L_PC);
                mv.visitJumpInsn(GOTO, exit);
            }
            mv.visitLabel(exit);
            Emit.exit(mv, L_ST, L_GAS, L_ROOM, () -> {
                mv.visitInsn(ICONST_M1);
                mv.visitVarInsn(ILOAD, L_PC);
                mv.visitInsn(ISUB);
            });
            mv.visitInsn(IRETURN);
        }

        /**
         * A part of a split run ({@link RunParts}): entered from run with the pc in the frame as
         * a loop method is, it runs from that pc through its own range's code and returns either a
         * status for run to return or {@code -1 - pc}: go on at pc, which another part holds.
         */
        void emitPart() {
            mv.visitCode();
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            Label leave = new Label();
            mv.visitTryCatchBlock(start, end, handler, null);
            prologue();
            mv.visitLabel(start);
            mv.visitLabel(dispatch);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitTableSwitchInsn(lo, hi, leave, java.util.Arrays.copyOfRange(at, lo, hi + 1));
            for (int pc = lo; pc <= hi; pc++) instruction(pc);
            mv.visitJumpInsn(GOTO, label(hi + 1));
            emitTail(leave);
            mv.visitLabel(end);
            for (java.util.Map.Entry<Integer, Label> e : loopCalls.entrySet()) loopCall(loopIndex.get(e.getKey()), e.getValue());
            finish(handler);
        }

        /** The exits and the exception handler, after the try range; then the size. */
        private void finish(Label handler) {
            exit(exit0, 0);
            exit(exit1, 1);
            mv.visitLabel(handler);
            mv.visitVarInsn(ASTORE, L_EXC);
            calls.handler();
            mv.visitVarInsn(ALOAD, L_EXC);
            mv.visitVarInsn(ALOAD, L_ST);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitVarInsn(LLOAD, L_GAS);
            mv.visitMethodInsn(INVOKESTATIC, RT, "fail",
                    "(Ljava/lang/Throwable;" + ST + FR + "IJ)Ljava/lang/Throwable;", false);
            mv.visitInsn(ATHROW);
            Label last = new Label();
            mv.visitLabel(last);
            size = last.getOffset();
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }

        /**
         * In run, after the try range (a loop method records its own pc and gas on an
         * exception): hand the counter and the pc over as for a call, call the loop method,
         * take the counter back, then return its status or go on at the pc it returned.
         */
        private void loopCall(int k, Label l) {
            mv.visitLabel(l);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitMethodInsn(INVOKESTATIC, RT, "pcOut", "(" + FR + "I)V", false);
            Emit.exit(mv, L_ST, L_GAS, L_ROOM, () -> mv.visitInsn(ICONST_0));
            mv.visitInsn(POP);
            mv.visitVarInsn(ALOAD, 0);
            mv.visitVarInsn(ALOAD, L_ST);
            mv.visitVarInsn(ALOAD, L_CO);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitMethodInsn(INVOKEVIRTUAL, owner, "loop" + k, RUN, false);
            mv.visitVarInsn(ISTORE, L_R);
            takeCounter();
            if (inline != null) inline.reloadStack(); // its calls may have grown co.stack
            Label resume = new Label();
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitJumpInsn(IFLT, resume);
            Emit.exit(mv, L_ST, L_GAS, L_ROOM, () -> mv.visitVarInsn(ILOAD, L_R));
            mv.visitInsn(IRETURN);
            mv.visitLabel(resume);
            mv.visitInsn(ICONST_M1);
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitInsn(ISUB);
            mv.visitVarInsn(ISTORE, L_PC);
            mv.visitJumpInsn(GOTO, dispatch);
        }

        void emit() {
            mv.visitCode();
            Label start = new Label();
            Label end = new Label();
            Label handler = new Label();
            mv.visitTryCatchBlock(start, end, handler, null);
            prologue();
            mv.visitLabel(start);
            mv.visitVarInsn(ILOAD, L_PC); // a call's fresh frame: no switch
            mv.visitJumpInsn(IFEQ, at[0]);
            mv.visitLabel(dispatch);
            mv.visitVarInsn(ILOAD, L_PC);
            mv.visitTableSwitchInsn(0, code.length - 1, bad, at);
            for (int pc = 0; pc < code.length; pc++) instruction(pc);
            mv.visitJumpInsn(GOTO, bad);
            badBlock();
            if (inline != null) inline.slowBlocks();
            calls.emitStubs();
            mv.visitLabel(end);
            int k = 0;
            for (Label l : loopCalls.values()) loopCall(k++, l);
            finish(handler);
        }

        private void exit(Label l, int status) {
            mv.visitLabel(l);
            Emit.exit(mv, L_ST, L_GAS, L_ROOM, () -> push(status));
            mv.visitInsn(IRETURN);
        }

        private void rt(int local, String name, String desc) {
            mv.visitVarInsn(ALOAD, local);
            mv.visitMethodInsn(INVOKESTATIC, RT, name, desc, false);
        }

        private void push(int v) {
            Emit.pushInt(mv, v);
        }

        /** helper(st, co, f, base, i, pc + 1): int on the stack */
        private void op(String name, int i, int pc) {
            mv.visitVarInsn(ALOAD, L_ST);
            mv.visitVarInsn(ALOAD, L_CO);
            mv.visitVarInsn(ALOAD, L_F);
            mv.visitVarInsn(ILOAD, L_BASE);
            push(i);
            push(pc + 1);
            mv.visitMethodInsn(INVOKESTATIC, RT, name, OP, false);
            if (inline != null) inline.reloadStack(); // a builtin run in place may have grown co.stack
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
            mv.visitMethodInsn(INVOKESTATIC, RT, "flush", "(" + ST + "J)J", false);
            mv.visitVarInsn(LSTORE, L_ROOM);
            mv.visitInsn(LCONST_0);
            mv.visitVarInsn(LSTORE, L_GAS);
            mv.visitLabel(skip);
        }

        private void addGas() {
            mv.visitVarInsn(LLOAD, L_GAS);
            mv.visitInsn(LADD);
            mv.visitVarInsn(LSTORE, L_GAS);
        }

        /** Element work computed by {@code name}(co, [f,] base, i), added and checked only when non-zero. */
        private void extraGas(String name, boolean withFrame, int i, boolean alwaysCheck) {
            mv.visitVarInsn(ALOAD, L_CO);
            if (withFrame) mv.visitVarInsn(ALOAD, L_F);
            mv.visitVarInsn(ILOAD, L_BASE);
            push(i);
            mv.visitMethodInsn(INVOKESTATIC, RT, name, "(" + CO + (withFrame ? FR : "") + "II)J", false);
            if (alwaysCheck) {
                addGas();
                safepoint();
                return;
            }
            Label skip = new Label();
            mv.visitInsn(DUP2);
            mv.visitVarInsn(LSTORE, L_EXTRA);
            mv.visitInsn(LCONST_0);
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(IFEQ, skip);
            mv.visitVarInsn(LLOAD, L_EXTRA);
            addGas();
            safepoint();
            mv.visitLabel(skip);
        }

        /** result: -1 leaves (frame changed), else on to the next instruction */
        private void leaveOnPending() {
            mv.visitJumpInsn(IFLT, exit0);
        }

        /** result: -1 leaves, 1 skips the next instruction, 0 goes on */
        private void conditional(int pc) {
            mv.visitVarInsn(ISTORE, L_R);
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitJumpInsn(IFLT, exit0);
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitJumpInsn(IFNE, label(pc + 2));
        }

        private void instruction(int pc) {
            mv.visitLabel(at[pc]);
            instruction(pc, label(pc + 1));
        }

        /**
         * A typed loop copy's second copy of the generic code of {@code pc} (an instruction that
         * falls through), going on at {@code next} (its re-entry into the typed copy); a CALL
         * runs {@code beforeLeave} (if any) on its ways out of this run.
         */
        private void genericCopy(int pc, Label next, Runnable beforeLeave) {
            calls.beforeLeave(beforeLeave);
            instruction(pc, next);
            calls.beforeLeave(null);
            mv.visitJumpInsn(GOTO, next);
        }

        /** The code of instruction {@code pc}; a call that completed goes on at {@code next}, others fall through. */
        private void instruction(int pc, Label next) {
            int i = code[pc];
            OpCode op = OpCode.of(i & 0x3F);
            int sbx = (i >>> 14) - 131071;
            if (op.gas != 0) {
                mv.visitLdcInsn((long) op.gas);
                addGas();
            }
            if (inline != null && inline.emit(op, i, pc)) return;
            push(pc + 1);
            mv.visitVarInsn(ISTORE, L_PC);
            switch (op) {
                case MOVE -> plain("move", i, pc);
                case LOADK -> plain("loadk", i, pc);
                case LOADBOOL -> {
                    op("loadbool", i, pc);
                    mv.visitInsn(POP);
                    if (((i >>> 14) & 0x1FF) != 0) mv.visitJumpInsn(GOTO, label(pc + 2));
                }
                case LOADNIL -> plain("loadnil", i, pc);
                case GETUPVAL -> plain("getupval", i, pc);
                case GETTABUP -> pending("gettabup", i, pc);
                case GETTABLE -> pending("gettable", i, pc);
                case SETTABUP -> pending("settabup", i, pc);
                case SETUPVAL -> plain("setupval", i, pc);
                case SETTABLE -> pending("settable", i, pc);
                case NEWTABLE -> plain("newtable", i, pc);
                case SELF -> pending("self", i, pc);
                case ADD -> pending("add", i, pc);
                case SUB -> pending("sub", i, pc);
                case MUL -> pending("mul", i, pc);
                case MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR -> pending("arith", i, pc);
                case UNM -> pending("unm", i, pc);
                case BNOT -> pending("bnot", i, pc);
                case NOT -> plain("not", i, pc);
                case LEN -> pending("len", i, pc);
                case CONCAT -> pending("concat", i, pc);
                case JMP -> {
                    if (((i >>> 6) & 0xFF) != 0) {
                        mv.visitVarInsn(ALOAD, L_CO);
                        mv.visitVarInsn(ILOAD, L_BASE);
                        push(i);
                        mv.visitMethodInsn(INVOKESTATIC, RT, "close", "(" + CO + "II)V", false);
                    }
                    if (sbx < 0) safepoint();
                    mv.visitJumpInsn(GOTO, sbx < 0 ? entry(pc + 1 + sbx) : label(pc + 1 + sbx));
                }
                case EQ, LT, LE -> {
                    op(op == OpCode.EQ ? "eq" : op == OpCode.LT ? "lt" : "le", i, pc);
                    conditional(pc);
                }
                case TEST -> {
                    op("test", i, pc);
                    conditional(pc);
                }
                case TESTSET -> {
                    op("testset", i, pc);
                    conditional(pc);
                }
                case CALL -> {
                    safepoint();
                    calls.call(L_BASE, i, pc, next);
                }
                case TAILCALL -> {
                    extraGas("tailcallGas", false, i, true);
                    op("tailcall", i, pc);
                    calls.afterTailcall();
                }
                case RETURN -> {
                    extraGas("returnGas", false, i, true);
                    op("ret", i, pc);
                    calls.afterReturn(exit1);
                }
                case FORLOOP -> loop("forloop", i, pc, pc + 1 + sbx);
                case FORPREP -> {
                    op("forprep", i, pc);
                    mv.visitJumpInsn(IFNE, label(pc + 1 + sbx + 1));
                    if (loopCalls.containsKey(pc + 1)) mv.visitJumpInsn(GOTO, entry(pc + 1));
                }
                case TFORCALL -> {
                    mv.visitVarInsn(ALOAD, L_CO);
                    mv.visitVarInsn(ILOAD, L_BASE);
                    push(i);
                    mv.visitMethodInsn(INVOKESTATIC, RT, "tforprep", "(" + CO + "II)V", false);
                    safepoint();
                    op("tforcall", i, pc);
                    calls.afterCall(label(pc + 1));
                }
                case TFORLOOP -> loop("tforloop", i, pc, pc + 1 + sbx);
                case SETLIST -> {
                    extraGas("setlistGas", false, i, false);
                    plain("setlist", i, pc);
                }
                case CLOSURE -> plain("closure", i, pc);
                case VARARG -> {
                    extraGas("varargGas", true, i, false);
                    plain("vararg", i, pc);
                }
                default -> throw new IllegalStateException("declined opcode reached: " + op);
            }
        }

        private void plain(String name, int i, int pc) {
            op(name, i, pc);
            mv.visitInsn(POP);
        }

        private void pending(String name, int i, int pc) {
            op(name, i, pc);
            leaveOnPending();
        }

        /** FORLOOP/TFORLOOP: the step, then the safepoint, then the jump back when the loop goes on. */
        private void loop(String name, int i, int pc, int target) {
            if (inline != null && name.equals("forloop")) inline.forloop(i, pc);
            else op(name, i, pc);
            mv.visitVarInsn(ISTORE, L_R);
            safepoint();
            mv.visitVarInsn(ILOAD, L_R);
            mv.visitJumpInsn(IFNE, entry(target));
        }
    }
}
