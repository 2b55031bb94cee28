package dev.luavm.compiler;

import static dev.luavm.bytecode.Instr.*;
import static dev.luavm.compiler.ExpDesc.NO_JUMP;

import dev.luavm.bytecode.Instr;
import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.ExpDesc.Kind;
import dev.luavm.value.LuaString;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The state of one function being compiled, and the code generator (PUC's {@code FuncState}
 * and {@code lcode.c}): it owns the instruction and line arrays, the constant table (deduplicated
 * through a hash map of {@link ConstantKey}s, which keep 1 and 1.0 apart and cannot be crafted
 * into a worse than logarithmic lookup), register allocation ({@link #freereg},
 * freed strictly LIFO, which {@link #freeReg} asserts) and the jump lists.
 *
 * <p>Jump lists are threaded through the sBx fields of the jumps themselves, as in PUC; an
 * sBx of {@link ExpDesc#NO_JUMP} ends a list. {@link #concat} links the shorter list in front of
 * the longer one, so long {@code and}/{@code or}/{@code elseif} chains cost linear time, not
 * quadratic as in PUC (the order of a list never affects the patched code).
 */
final class FuncState {
    /** Maximum number of registers in a Lua function (must fit in 8 bits). */
    static final int MAXREGS = 255;
    static final int MAXUPVAL = 255;

    final FuncState prev;
    final Compiler cs;
    final int lineDefined;
    int lastLineDefined;
    int numParams;
    boolean isVararg;
    int maxStackSize = 2; // registers 0/1 are always valid

    int[] code = new int[16];
    int[] lineInfo = new int[16];
    /** number of instructions; the next instruction goes here */
    int pc;
    /** pc of the last jump target (no LOADNIL merging across it) */
    int lastTarget;
    /** list of pending jumps to {@code pc} */
    int jpc = NO_JUMP;
    /** first free register */
    int freereg;
    /** number of active locals */
    int nactvar;

    final List<Object> constants = new ArrayList<>();
    final List<Prototype> protos = new ArrayList<>();
    final List<Prototype.UpvalueDesc> upvalues = new ArrayList<>();
    /** debug info of all locals ever declared (PUC's f->locvars) */
    final List<LocVar> locVars = new ArrayList<>();
    /** locVars index of each active (and pending) local, by register (PUC's dyd->actvar) */
    private int[] actVars = new int[8];
    private int nActVars;
    /** innermost open block */
    BlockCnt bl;

    static final class LocVar {
        final String name;
        int startPc;
        int endPc;

        LocVar(String name) {
            this.name = name;
        }
    }

    /** A block (PUC's BlockCnt). */
    static final class BlockCnt {
        BlockCnt previous;
        /** the block's labels and pending gotos */
        final BlockJumps jumps = new BlockJumps();
        /** number of active locals outside the block */
        int nactvar;
        /** some variable in the block is an upvalue */
        boolean upval;
        /** the block is a loop */
        boolean isLoop;
    }

    /** bytes this state has charged to the account (given back when the function is done) */
    private long held;

    FuncState(FuncState prev, Compiler cs, int lineDefined) {
        this.prev = prev;
        this.cs = cs;
        this.lineDefined = lineDefined;
        hold(CompileAccount.FUNCTION_BYTES);
    }

    /** Pays for heap of this function's state, before it is allocated. */
    void hold(long bytes) {
        cs.account.hold(bytes);
        held += bytes;
    }

    /** The locVars index of active (or pending) local {@code i}. */
    int actVar(int i) {
        return actVars[i];
    }

    /** Active and pending locals (PUC's dyd->actvar.n for this function). */
    int actVarCount() {
        return nActVars;
    }

    void pushActVar(int locVar) {
        if (nActVars == actVars.length) actVars = Arrays.copyOf(actVars, nActVars * 2);
        actVars[nActVars++] = locVar;
    }

    void popActVar() {
        nActVars--;
    }

    /**
     * The finished function. Pays for the prototype's arrays, then gives back what this state
     * held, which is garbage once the prototype is made.
     */
    Prototype toPrototype(LuaString source) {
        cs.account.hold(Prototype.heapBytes(pc, constants.size(), protos.size(), upvalues.size(), locVars.size())
            + CompileAccount.RECORD_BYTES * ((long) upvalues.size() + locVars.size()));
        cs.account.release(held);
        held = 0;
        Prototype.LocalVar[] lv = new Prototype.LocalVar[locVars.size()];
        for (int i = 0; i < lv.length; i++) {
            LocVar v = locVars.get(i);
            lv[i] = new Prototype.LocalVar(v.name, v.startPc, v.endPc);
        }
        return new Prototype(source, lineDefined, lastLineDefined, numParams, isVararg, maxStackSize,
            Arrays.copyOf(code, pc), constants.toArray(), protos.toArray(new Prototype[0]),
            upvalues.toArray(new Prototype.UpvalueDesc[0]), Arrays.copyOf(lineInfo, pc), lv);
    }

    // ------------------------------------------------------------------ emitting

    private RuntimeException error(String msg) {
        return cs.syntaxError(msg);
    }

    /** Appends an instruction with the line of the last token read (PUC's luaK_code). */
    int code(int i) {
        dischargeJpc(); // 'pc' will change
        if (pc == code.length) {
            hold(8L * pc); // the code and line arrays double
            code = Arrays.copyOf(code, pc * 2);
            lineInfo = Arrays.copyOf(lineInfo, pc * 2);
        }
        code[pc] = i;
        lineInfo[pc] = cs.lastLine;
        return pc++;
    }

    int codeABC(OpCode o, int a, int b, int c) {
        return code(Instr.abc(o, a, b, c));
    }

    int codeABx(OpCode o, int a, int bx) {
        return code(Instr.abx(o, a, bx));
    }

    int codeAsBx(OpCode o, int a, int sbx) {
        return code(Instr.asbx(o, a, sbx));
    }

    private int codeExtraArg(int a) {
        return code(Instr.ax(OpCode.EXTRAARG, a));
    }

    /** R(reg) := K(k), with LOADKX + EXTRAARG beyond MAXARG_Bx. */
    int codeK(int reg, int k) {
        if (k <= MAXARG_Bx) return codeABx(OpCode.LOADK, reg, k);
        int p = codeABx(OpCode.LOADKX, reg, 0);
        codeExtraArg(k);
        return p;
    }

    void fixLine(int line) {
        lineInfo[pc - 1] = line;
    }

    int getInstruction(ExpDesc e) {
        return code[e.info];
    }

    void setInstruction(ExpDesc e, int i) {
        code[e.info] = i;
    }

    // ------------------------------------------------------------------ registers

    void checkStack(int n) {
        int newStack = freereg + n;
        if (newStack > maxStackSize) {
            if (newStack >= MAXREGS) throw error("function or expression needs too many registers");
            maxStackSize = newStack;
        }
    }

    void reserveRegs(int n) {
        checkStack(n);
        freereg += n;
    }

    /** Frees register {@code reg} if it is a temporary; temporaries are freed LIFO. */
    void freeReg(int reg) {
        if (reg >= 0 && !Instr.isK(reg) && reg >= nactvar) {
            freereg--;
            assert reg == freereg : "registers must be freed LIFO: " + reg + " != " + freereg;
        }
    }

    void freeExp(ExpDesc e) {
        if (e.k == Kind.VNONRELOC) freeReg(e.info);
    }

    /** Frees the registers of two expressions in the right (LIFO) order. */
    void freeExps(ExpDesc e1, ExpDesc e2) {
        int r1 = e1.k == Kind.VNONRELOC ? e1.info : -1;
        int r2 = e2.k == Kind.VNONRELOC ? e2.info : -1;
        if (r1 > r2) {
            freeReg(r1);
            freeReg(r2);
        } else {
            freeReg(r2);
            freeReg(r1);
        }
    }

    // ------------------------------------------------------------------ constants

    /**
     * Adds a constant, reusing an equal one. As in PUC, the index is looked up in a scanner
     * table shared by all functions of the chunk ({@link Compiler#constantScanner}), holding
     * the index last given to the key in any function; it is reused only if this function's
     * constant at that index is the same value. Keys keep integers and floats apart.
     */
    private int addK(ConstantKey key, Object value) {
        Map<ConstantKey, Integer> scanner = cs.constantScanner;
        cs.account.lookup(key.size(), scanner.size());
        Integer idx = scanner.get(key);
        if (idx != null) {
            int k = idx;
            if (k < constants.size() && sameConstant(constants.get(k), value)) return k;
        }
        int k = constants.size();
        hold(CompileAccount.CONSTANT_BYTES);
        if (idx == null) cs.account.hold(CompileAccount.SCANNER_ENTRY_BYTES); // a new key in the chunk's table
        constants.add(value);
        scanner.put(key, k);
        return k;
    }

    private static boolean sameConstant(Object a, Object b) {
        if (a == null || b == null) return a == b;
        if (a.getClass() != b.getClass()) return false;
        if (a instanceof Double x) return x.doubleValue() == (Double) b;
        return a.equals(b);
    }

    int stringK(LuaString s) {
        s = cs.intern(s);
        return addK(ConstantKey.of(s), s);
    }

    /** Integer constants are keyed apart from everything else (PUC uses a light userdata). */
    int intK(long n) {
        return addK(ConstantKey.of(ConstantKey.INTEGER, n), n);
    }

    /** Float keys with an integral value are normalized, as a Lua table does with its keys. */
    int numberK(double r) {
        ConstantKey key = Math.floor(r) == r && r >= -0x1p63 && r < 0x1p63
            ? ConstantKey.of(ConstantKey.INTEGRAL_FLOAT, (long) r)
            : ConstantKey.of(ConstantKey.FLOAT, Double.doubleToLongBits(r));
        return addK(key, r);
    }

    private int boolK(boolean b) {
        return addK(ConstantKey.of(b ? ConstantKey.TRUE : ConstantKey.FALSE, 0), b);
    }

    private int nilK() {
        return addK(ConstantKey.of(ConstantKey.NIL, 0), null);
    }

    // ------------------------------------------------------------------ nil, jumps

    /** R(from) .. R(from+n-1) := nil, merged into a preceding LOADNIL when possible. */
    void nil(int from, int n) {
        int l = from + n - 1; // last register to set nil
        if (pc > lastTarget) { // no jumps to current position?
            int previous = code[pc - 1];
            if (Instr.op(previous) == OpCode.LOADNIL) {
                int pfrom = Instr.a(previous);
                int pl = pfrom + Instr.b(previous);
                if ((pfrom <= from && from <= pl + 1) || (from <= pfrom && pfrom <= l + 1)) {
                    if (pfrom < from) from = pfrom;
                    if (pl > l) l = pl;
                    previous = Instr.setA(previous, from);
                    code[pc - 1] = Instr.setB(previous, l - from);
                    return;
                }
            }
        }
        codeABC(OpCode.LOADNIL, from, n - 1, 0);
    }

    private int getJump(int at) {
        int offset = Instr.sbx(code[at]);
        return offset == NO_JUMP ? NO_JUMP : at + 1 + offset;
    }

    private void fixJump(int at, int dest) {
        int offset = dest - (at + 1);
        assert dest != NO_JUMP;
        if (Math.abs(offset) > MAXARG_sBx) throw error("control structure too long");
        code[at] = Instr.setSbx(code[at], offset);
    }

    /**
     * Joins jump lists {@code l1} and {@code l2}; returns the joined list. The shorter list is
     * found by walking both in step, and its last jump is linked to the other list.
     */
    int concat(int l1, int l2) {
        if (l2 == NO_JUMP) return l1;
        if (l1 == NO_JUMP) return l2;
        int a = l1;
        int b = l2;
        for (;;) {
            int na = getJump(a);
            if (na == NO_JUMP) {
                fixJump(a, l2); // l1 is the shorter: append l2 to it
                return l1;
            }
            int nb = getJump(b);
            if (nb == NO_JUMP) {
                fixJump(b, l1); // l2 is the shorter: put it in front
                return l2;
            }
            a = na;
            b = nb;
        }
    }

    /** Codes an unconditional jump, keeping pending jumps to here (PUC's luaK_jump). */
    int jump() {
        int saved = jpc;
        jpc = NO_JUMP;
        int j = codeAsBx(OpCode.JMP, 0, NO_JUMP);
        return concat(j, saved);
    }

    void ret(int first, int nret) {
        codeABC(OpCode.RETURN, first, nret + 1, 0);
    }

    private int condJump(OpCode op, int a, int b, int c) {
        codeABC(op, a, b, c);
        return jump();
    }

    /** Marks the current pc as a jump target and returns it. */
    int getLabel() {
        lastTarget = pc;
        return pc;
    }

    /** The instruction controlling the jump at {@code at}: its test, if any. */
    private int jumpControl(int at) {
        if (at >= 1 && Instr.op(code[at - 1]).isTest) return at - 1;
        return at;
    }

    /** Patches the TESTSET before a jump to store into {@code reg}, or makes it a TEST. */
    private boolean patchTestReg(int node, int reg) {
        int at = jumpControl(node);
        int i = code[at];
        if (Instr.op(i) != OpCode.TESTSET) return false;
        if (reg != NO_REG && reg != Instr.b(i)) {
            code[at] = Instr.setA(i, reg);
        } else {
            code[at] = Instr.abc(OpCode.TEST, Instr.b(i), 0, Instr.c(i));
        }
        return true;
    }

    private void removeValues(int list) {
        for (; list != NO_JUMP; list = getJump(list)) patchTestReg(list, NO_REG);
    }

    private void patchListAux(int list, int vtarget, int reg, int dtarget) {
        while (list != NO_JUMP) {
            int next = getJump(list);
            if (patchTestReg(list, reg)) fixJump(list, vtarget);
            else fixJump(list, dtarget);
            list = next;
        }
    }

    private void dischargeJpc() {
        patchListAux(jpc, pc, NO_REG, pc);
        jpc = NO_JUMP;
    }

    void patchList(int list, int target) {
        if (target == pc) {
            patchToHere(list);
        } else {
            assert target < pc;
            patchListAux(list, target, NO_REG, target);
        }
    }

    /** Makes every jump of {@code list} close upvalues from register {@code level} on. */
    void patchClose(int list, int level) {
        level++; // argument is +1 to reserve 0 as non-op
        for (; list != NO_JUMP; list = getJump(list)) {
            assert Instr.op(code[list]) == OpCode.JMP
                && (Instr.a(code[list]) == 0 || Instr.a(code[list]) >= level);
            code[list] = Instr.setA(code[list], level);
        }
    }

    void patchToHere(int list) {
        getLabel();
        jpc = concat(jpc, list);
    }

    // ------------------------------------------------------------------ expressions

    void setReturns(ExpDesc e, int nresults) {
        if (e.k == Kind.VCALL) {
            setInstruction(e, Instr.setC(getInstruction(e), nresults + 1));
        } else if (e.k == Kind.VVARARG) {
            int i = Instr.setB(getInstruction(e), nresults + 1);
            setInstruction(e, Instr.setA(i, freereg));
            reserveRegs(1);
        } else {
            assert nresults == Compiler.LUA_MULTRET;
        }
    }

    void setMultRet(ExpDesc e) {
        setReturns(e, Compiler.LUA_MULTRET);
    }

    void setOneRet(ExpDesc e) {
        if (e.k == Kind.VCALL) {
            assert Instr.c(getInstruction(e)) == 2;
            e.k = Kind.VNONRELOC;
            e.info = Instr.a(getInstruction(e));
        } else if (e.k == Kind.VVARARG) {
            setInstruction(e, Instr.setB(getInstruction(e), 2));
            e.k = Kind.VRELOCABLE;
        }
    }

    /** Turns a variable into a value: loads upvalues and indexed values. */
    void dischargeVars(ExpDesc e) {
        switch (e.k) {
            case VLOCAL:
                e.k = Kind.VNONRELOC;
                break;
            case VUPVAL:
                e.info = codeABC(OpCode.GETUPVAL, 0, e.info, 0);
                e.k = Kind.VRELOCABLE;
                break;
            case VINDEXED: {
                OpCode op;
                freeReg(e.indIdx);
                if (e.indVt == Kind.VLOCAL) {
                    freeReg(e.indT);
                    op = OpCode.GETTABLE;
                } else {
                    op = OpCode.GETTABUP;
                }
                e.info = codeABC(op, 0, e.indT, e.indIdx);
                e.k = Kind.VRELOCABLE;
                break;
            }
            case VVARARG: case VCALL:
                setOneRet(e);
                break;
            default:
                break;
        }
    }

    private void discharge2reg(ExpDesc e, int reg) {
        dischargeVars(e);
        switch (e.k) {
            case VNIL:
                nil(reg, 1);
                break;
            case VFALSE: case VTRUE:
                codeABC(OpCode.LOADBOOL, reg, e.k == Kind.VTRUE ? 1 : 0, 0);
                break;
            case VK:
                codeK(reg, e.info);
                break;
            case VKFLT:
                codeK(reg, numberK(e.nval));
                break;
            case VKINT:
                codeK(reg, intK(e.ival));
                break;
            case VRELOCABLE:
                setInstruction(e, Instr.setA(getInstruction(e), reg));
                break;
            case VNONRELOC:
                if (reg != e.info) codeABC(OpCode.MOVE, reg, e.info, 0);
                break;
            default:
                assert e.k == Kind.VJMP;
                return; // nothing to do
        }
        e.info = reg;
        e.k = Kind.VNONRELOC;
    }

    private void discharge2anyreg(ExpDesc e) {
        if (e.k != Kind.VNONRELOC) {
            reserveRegs(1);
            discharge2reg(e, freereg - 1);
        }
    }

    private boolean needValue(int list) {
        for (; list != NO_JUMP; list = getJump(list)) {
            if (Instr.op(code[jumpControl(list)]) != OpCode.TESTSET) return true;
        }
        return false;
    }

    private int codeLoadBool(int a, int b, int jump) {
        getLabel(); // those instructions may be jump targets
        return codeABC(OpCode.LOADBOOL, a, b, jump);
    }

    private void exp2reg(ExpDesc e, int reg) {
        discharge2reg(e, reg);
        if (e.k == Kind.VJMP) e.t = concat(e.t, e.info); // put this jump in 't' list
        if (e.hasJumps()) {
            int pf = NO_JUMP; // position of an eventual LOAD false
            int pt = NO_JUMP; // position of an eventual LOAD true
            if (needValue(e.t) || needValue(e.f)) {
                int fj = e.k == Kind.VJMP ? NO_JUMP : jump();
                pf = codeLoadBool(reg, 0, 1);
                pt = codeLoadBool(reg, 1, 0);
                patchToHere(fj);
            }
            int end = getLabel(); // position after whole expression
            patchListAux(e.f, end, reg, pf);
            patchListAux(e.t, end, reg, pt);
        }
        e.f = e.t = NO_JUMP;
        e.info = reg;
        e.k = Kind.VNONRELOC;
    }

    void exp2nextreg(ExpDesc e) {
        dischargeVars(e);
        freeExp(e);
        reserveRegs(1);
        exp2reg(e, freereg - 1);
    }

    int exp2anyreg(ExpDesc e) {
        dischargeVars(e);
        if (e.k == Kind.VNONRELOC) {
            if (!e.hasJumps()) return e.info; // already in a register
            if (e.info >= nactvar) { // register is not a local?
                exp2reg(e, e.info);
                return e.info;
            }
        }
        exp2nextreg(e);
        return e.info;
    }

    void exp2anyregup(ExpDesc e) {
        if (e.k != Kind.VUPVAL || e.hasJumps()) exp2anyreg(e);
    }

    void exp2val(ExpDesc e) {
        if (e.hasJumps()) exp2anyreg(e);
        else dischargeVars(e);
    }

    /** Makes {@code e} an RK operand: a constant index with BITRK when it fits, else a register. */
    int exp2RK(ExpDesc e) {
        exp2val(e);
        switch (e.k) {
            case VTRUE: e.info = boolK(true); break;
            case VFALSE: e.info = boolK(false); break;
            case VNIL: e.info = nilK(); break;
            case VKINT: e.info = intK(e.ival); break;
            case VKFLT: e.info = numberK(e.nval); break;
            case VK: break;
            default: return exp2anyreg(e);
        }
        e.k = Kind.VK;
        if (e.info <= MAXINDEXRK) return Instr.rkAsK(e.info);
        return exp2anyreg(e); // constant out of RK range: load it into a register
    }

    void storeVar(ExpDesc var, ExpDesc ex) {
        switch (var.k) {
            case VLOCAL:
                freeExp(ex);
                exp2reg(ex, var.info);
                return;
            case VUPVAL: {
                int e = exp2anyreg(ex);
                codeABC(OpCode.SETUPVAL, e, var.info, 0);
                break;
            }
            case VINDEXED: {
                OpCode op = var.indVt == Kind.VLOCAL ? OpCode.SETTABLE : OpCode.SETTABUP;
                int e = exp2RK(ex);
                codeABC(op, var.indT, var.indIdx, e);
                break;
            }
            default:
                throw new AssertionError("invalid var kind to store: " + var.k);
        }
        freeExp(ex);
    }

    /** e:key(...) -- SELF: R(A+1) := e; R(A) := e[key]. */
    void self(ExpDesc e, ExpDesc key) {
        exp2anyreg(e);
        int ereg = e.info;
        freeExp(e);
        e.info = freereg;
        e.k = Kind.VNONRELOC;
        reserveRegs(2); // function and 'self' produced by SELF
        codeABC(OpCode.SELF, e.info, ereg, exp2RK(key));
        freeExp(key);
    }

    private void negateCondition(ExpDesc e) {
        int at = jumpControl(e.info);
        int i = code[at];
        assert Instr.op(i).isTest && Instr.op(i) != OpCode.TESTSET && Instr.op(i) != OpCode.TEST;
        code[at] = Instr.setA(i, Instr.a(i) == 0 ? 1 : 0);
    }

    private int jumpOnCond(ExpDesc e, int cond) {
        if (e.k == Kind.VRELOCABLE) {
            int ie = getInstruction(e);
            if (Instr.op(ie) == OpCode.NOT) {
                pc--; // remove previous NOT
                return condJump(OpCode.TEST, Instr.b(ie), 0, cond == 0 ? 1 : 0);
            }
        }
        discharge2anyreg(e);
        freeExp(e);
        return condJump(OpCode.TESTSET, NO_REG, e.info, cond);
    }

    /** Goes on when {@code e} is true; its false list jumps away. */
    void goIfTrue(ExpDesc e) {
        int at;
        dischargeVars(e);
        switch (e.k) {
            case VJMP:
                negateCondition(e);
                at = e.info;
                break;
            case VK: case VKFLT: case VKINT: case VTRUE:
                at = NO_JUMP; // always true; do nothing
                break;
            default:
                at = jumpOnCond(e, 0);
        }
        e.f = concat(e.f, at);
        patchToHere(e.t);
        e.t = NO_JUMP;
    }

    /** Goes on when {@code e} is false; its true list jumps away. */
    void goIfFalse(ExpDesc e) {
        int at;
        dischargeVars(e);
        switch (e.k) {
            case VJMP:
                at = e.info;
                break;
            case VNIL: case VFALSE:
                at = NO_JUMP;
                break;
            default:
                at = jumpOnCond(e, 1);
        }
        e.t = concat(e.t, at);
        patchToHere(e.f);
        e.f = NO_JUMP;
    }

    private void codeNot(ExpDesc e) {
        dischargeVars(e);
        switch (e.k) {
            case VNIL: case VFALSE:
                e.k = Kind.VTRUE;
                break;
            case VK: case VKFLT: case VKINT: case VTRUE:
                e.k = Kind.VFALSE;
                break;
            case VJMP:
                negateCondition(e);
                break;
            case VRELOCABLE: case VNONRELOC:
                discharge2anyreg(e);
                freeExp(e);
                e.info = codeABC(OpCode.NOT, 0, e.info, 0);
                e.k = Kind.VRELOCABLE;
                break;
            default:
                throw new AssertionError(e.k);
        }
        int tmp = e.f;
        e.f = e.t;
        e.t = tmp;
        removeValues(e.f);
        removeValues(e.t);
    }

    /** t[k]: {@code t} becomes VINDEXED. */
    void indexed(ExpDesc t, ExpDesc k) {
        assert !t.hasJumps() && (t.k == Kind.VLOCAL || t.k == Kind.VNONRELOC || t.k == Kind.VUPVAL);
        t.indT = t.info;
        t.indIdx = exp2RK(k);
        t.indVt = t.k == Kind.VUPVAL ? Kind.VUPVAL : Kind.VLOCAL;
        t.k = Kind.VINDEXED;
    }

    // ------------------------------------------------------------------ operators

    enum BinOpr {
        ADD, SUB, MUL, MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR, CONCAT,
        EQ, LT, LE, NE, GT, GE, AND, OR
    }

    enum UnOpr { MINUS, BNOT, NOT, LEN }

    private boolean constFolding(ConstantFolding.Op op, ExpDesc e1, ExpDesc e2) {
        Object r = ConstantFolding.fold(op, e1.numeral(), e2.numeral());
        if (r == null) return false;
        if (r instanceof Long l) {
            e1.k = Kind.VKINT;
            e1.ival = l;
        } else {
            e1.k = Kind.VKFLT;
            e1.nval = (Double) r;
        }
        return true;
    }

    private void codeUnExpVal(OpCode op, ExpDesc e, int line) {
        int r = exp2anyreg(e); // opcodes operate only on registers
        freeExp(e);
        e.info = codeABC(op, 0, r, 0);
        e.k = Kind.VRELOCABLE;
        fixLine(line);
    }

    private void codeBinExpVal(OpCode op, ExpDesc e1, ExpDesc e2, int line) {
        int rk2 = exp2RK(e2); // both operands are "RK"
        int rk1 = exp2RK(e1);
        freeExps(e1, e2);
        e1.info = codeABC(op, 0, rk1, rk2);
        e1.k = Kind.VRELOCABLE;
        fixLine(line);
    }

    private void codeComp(BinOpr opr, ExpDesc e1, ExpDesc e2) {
        int rk1 = e1.k == Kind.VK ? Instr.rkAsK(e1.info) : e1.info;
        assert e1.k == Kind.VK || e1.k == Kind.VNONRELOC;
        int rk2 = exp2RK(e2);
        freeExps(e1, e2);
        switch (opr) {
            case NE: // (a ~= b) ==> not (a == b)
                e1.info = condJump(OpCode.EQ, 0, rk1, rk2);
                break;
            case GT: // (a > b) ==> (b < a)
                e1.info = condJump(OpCode.LT, 1, rk2, rk1);
                break;
            case GE: // (a >= b) ==> (b <= a)
                e1.info = condJump(OpCode.LE, 1, rk2, rk1);
                break;
            case EQ:
                e1.info = condJump(OpCode.EQ, 1, rk1, rk2);
                break;
            case LT:
                e1.info = condJump(OpCode.LT, 1, rk1, rk2);
                break;
            default:
                e1.info = condJump(OpCode.LE, 1, rk1, rk2);
        }
        e1.k = Kind.VJMP;
    }

    private static final ExpDesc ZERO = new ExpDesc(Kind.VKINT, 0);

    void prefix(UnOpr op, ExpDesc e, int line) {
        switch (op) {
            case MINUS:
                if (constFolding(ConstantFolding.Op.UNM, e, ZERO)) break;
                codeUnExpVal(OpCode.UNM, e, line);
                break;
            case BNOT:
                if (constFolding(ConstantFolding.Op.BNOT, e, ZERO)) break;
                codeUnExpVal(OpCode.BNOT, e, line);
                break;
            case LEN:
                codeUnExpVal(OpCode.LEN, e, line);
                break;
            default:
                codeNot(e);
        }
    }

    /** Prepares the first operand of a binary operator. */
    void infix(BinOpr op, ExpDesc v) {
        switch (op) {
            case AND:
                goIfTrue(v);
                break;
            case OR:
                goIfFalse(v);
                break;
            case CONCAT:
                exp2nextreg(v); // operand must be on the 'stack'
                break;
            case ADD: case SUB: case MUL: case DIV: case IDIV: case MOD: case POW:
            case BAND: case BOR: case BXOR: case SHL: case SHR:
                if (v.numeral() == null) exp2RK(v);
                break; // else keep numeral, which may be folded with 2nd operand
            default:
                exp2RK(v);
        }
    }

    /** Finishes a binary operation; the result is left in {@code e1}. */
    void posfix(BinOpr op, ExpDesc e1, ExpDesc e2, int line) {
        switch (op) {
            case AND:
                assert e1.t == NO_JUMP;
                dischargeVars(e2);
                e2.f = concat(e2.f, e1.f);
                e1.copyFrom(e2);
                break;
            case OR:
                assert e1.f == NO_JUMP;
                dischargeVars(e2);
                e2.t = concat(e2.t, e1.t);
                e1.copyFrom(e2);
                break;
            case CONCAT:
                exp2val(e2);
                if (e2.k == Kind.VRELOCABLE && Instr.op(getInstruction(e2)) == OpCode.CONCAT) {
                    assert e1.info == Instr.b(getInstruction(e2)) - 1;
                    freeExp(e1);
                    setInstruction(e2, Instr.setB(getInstruction(e2), e1.info));
                    e1.k = Kind.VRELOCABLE;
                    e1.info = e2.info;
                } else {
                    exp2nextreg(e2);
                    codeBinExpVal(OpCode.CONCAT, e1, e2, line);
                }
                break;
            case EQ: case LT: case LE: case NE: case GT: case GE:
                codeComp(op, e1, e2);
                break;
            default: {
                ConstantFolding.Op fop = ConstantFolding.Op.values()[op.ordinal()];
                if (!constFolding(fop, e1, e2)) {
                    codeBinExpVal(OpCode.of(OpCode.ADD.ordinal() + op.ordinal()), e1, e2, line);
                }
            }
        }
    }

    /** Stores pending list items (SETLIST), with the block number in EXTRAARG when large. */
    void setList(int base, int nelems, int tostore) {
        int c = (nelems - 1) / OpCode.FIELDS_PER_FLUSH + 1;
        int b = tostore == Compiler.LUA_MULTRET ? 0 : tostore;
        assert tostore != 0 && tostore <= OpCode.FIELDS_PER_FLUSH;
        if (c <= MAXARG_C) {
            codeABC(OpCode.SETLIST, base, b, c);
        } else if (c <= MAXARG_Ax) {
            codeABC(OpCode.SETLIST, base, b, 0);
            codeExtraArg(c);
        } else {
            throw error("constructor too long");
        }
        freereg = base + 1; // free registers with list values
    }
}
