package dev.luavm.conformance.fuzz;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;

/**
 * Structural rules every compiled {@link Prototype} must keep, whatever the source: operands in
 * range (registers below {@code maxStackSize}, constants, upvalues and nested prototypes that
 * exist), jumps inside the code, a test followed by its jump, the code ending in RETURN. A VM
 * that trusts its compiler would misbehave on a prototype that breaks one, so the compiler fuzz
 * target checks them on everything it compiles.
 */
final class BytecodeChecker {
    private BytecodeChecker() {}

    static void check(Prototype p) {
        check(p, null, "main");
    }

    private static void check(Prototype p, Prototype parent, String where) {
        int n = p.code.length;
        require(n > 0, where, "empty code");
        require(p.lineInfo.length == n, where, "line info for " + p.lineInfo.length + " of " + n + " instructions");
        require(p.maxStackSize <= 255 && p.maxStackSize >= p.numParams, where, "maxStackSize " + p.maxStackSize);
        require(Instr.op(p.code[n - 1]) == OpCode.RETURN, where, "does not end in RETURN");
        for (int pc = 0; pc < n; pc++) {
            int i = p.code[pc];
            require(Instr.opcode(i) < OpCode.values().length, where, "bad opcode " + Instr.opcode(i) + " at " + pc);
            checkInstr(p, pc, i, where + " pc " + pc + " " + Instr.op(i));
        }
        for (int k = 0; k < p.upvalues.length; k++) {
            Prototype.UpvalueDesc u = p.upvalues[k];
            if (parent == null) continue;
            if (u.inStack()) require(u.index() < parent.maxStackSize, where, "upvalue " + k + " in parent register " + u.index());
            else require(u.index() < parent.upvalues.length, where, "upvalue " + k + " is parent upvalue " + u.index());
        }
        for (int k = 0; k < p.protos.length; k++) check(p.protos[k], p, where + "/" + k);
    }

    private static void checkInstr(Prototype p, int pc, int i, String where) {
        OpCode op = Instr.op(i);
        int a = Instr.a(i), max = p.maxStackSize;
        if (op.setsA) reg(p, a, where);
        if (op.format == OpCode.Format.ABC) {
            operand(p, op.bMode, Instr.b(i), where + " B");
            operand(p, op.cMode, Instr.c(i), where + " C");
        }
        if (op.isTest) {
            require(pc + 1 < p.code.length && Instr.op(p.code[pc + 1]) == OpCode.JMP, where, "test not followed by JMP");
        }
        switch (op) {
            case LOADK -> require(Instr.bx(i) < p.constants.length, where, "constant " + Instr.bx(i));
            case LOADKX -> require(pc + 1 < p.code.length && Instr.op(p.code[pc + 1]) == OpCode.EXTRAARG, where, "no EXTRAARG");
            case LOADNIL -> reg(p, a + Instr.b(i), where);
            case GETUPVAL, GETTABUP -> require(Instr.b(i) < p.upvalues.length, where, "upvalue " + Instr.b(i));
            case SETUPVAL -> {
                require(Instr.b(i) < p.upvalues.length, where, "upvalue " + Instr.b(i));
                reg(p, a, where);
            }
            case SETTABUP -> require(a < p.upvalues.length, where, "upvalue " + a);
            case SETTABLE, TEST -> reg(p, a, where);
            case SELF -> reg(p, a + 1, where);
            case CONCAT -> require(Instr.b(i) <= Instr.c(i) && Instr.c(i) < max, where, "concat range");
            case JMP, FORLOOP, FORPREP, TFORLOOP -> {
                int target = pc + 1 + Instr.sbx(i);
                require(target >= 0 && target < p.code.length, where, "jump to " + target);
                if (op == OpCode.JMP && a > 0) reg(p, a - 1, where);
                if (op == OpCode.FORLOOP || op == OpCode.FORPREP) reg(p, a + 3, where);
                if (op == OpCode.TFORLOOP) reg(p, a + 1, where);
            }
            case CALL, TAILCALL -> {
                reg(p, a, where);
                if (Instr.b(i) > 0) reg(p, a + Instr.b(i) - 1, where);
                if (op == OpCode.CALL && Instr.c(i) > 1) reg(p, a + Instr.c(i) - 2, where);
            }
            case RETURN -> {
                if (Instr.b(i) > 1) reg(p, a + Instr.b(i) - 2, where);
            }
            case TFORCALL -> reg(p, a + 2 + Instr.c(i), where);
            case SETLIST -> {
                reg(p, a + Instr.b(i), where);
                if (Instr.c(i) == 0) {
                    require(pc + 1 < p.code.length && Instr.op(p.code[pc + 1]) == OpCode.EXTRAARG, where, "no EXTRAARG");
                }
            }
            case CLOSURE -> require(Instr.bx(i) < p.protos.length, where, "prototype " + Instr.bx(i));
            case VARARG -> {
                require(p.isVararg, where, "VARARG in a function that is not vararg");
                if (Instr.b(i) > 1) reg(p, a + Instr.b(i) - 2, where);
            }
            default -> { }
        }
    }

    private static void operand(Prototype p, OpCode.Mode mode, int v, String where) {
        switch (mode) {
            case REG -> reg(p, v, where);
            case RK -> {
                if (Instr.isK(v)) require(Instr.indexK(v) < p.constants.length, where, "constant " + Instr.indexK(v));
                else reg(p, v, where);
            }
            default -> { }
        }
    }

    private static void reg(Prototype p, int r, String where) {
        require(r < p.maxStackSize, where, "register " + r + " >= maxStackSize " + p.maxStackSize);
    }

    private static void require(boolean ok, String where, String what) {
        if (!ok) throw new AssertionError("malformed bytecode: " + where + ": " + what);
    }
}
