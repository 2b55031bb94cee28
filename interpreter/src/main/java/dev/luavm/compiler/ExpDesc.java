package dev.luavm.compiler;

/**
 * An expression being compiled, PUC's {@code expdesc}: what is known of its value so far, so
 * that code for it is generated only once its destination is known.
 *
 * <p>{@link #info} means: the register (VNONRELOC, VLOCAL), the upvalue index (VUPVAL), the
 * constant index (VK), the pc of the instruction whose A is still to be set (VRELOCABLE, VCALL,
 * VVARARG) or of the pending jump (VJMP). For VINDEXED, {@link #indT} is the table's register
 * or upvalue, {@link #indIdx} the key as an RK operand and {@link #indVt} says which.
 * {@link #t} and {@link #f} are the jump lists "exit when true" and "exit when false".
 */
final class ExpDesc {
    enum Kind {
        /** no value (an empty expression list) */
        VVOID,
        VNIL,
        VTRUE,
        VFALSE,
        /** a constant; info = index in the constant table */
        VK,
        /** a float constant; nval */
        VKFLT,
        /** an integer constant; ival */
        VKINT,
        /** a value in a fixed register; info = register */
        VNONRELOC,
        /** a local variable; info = its register */
        VLOCAL,
        /** an upvalue; info = its index */
        VUPVAL,
        /** an indexed variable: t[k] with t in a register or upvalue */
        VINDEXED,
        /** a comparison or test; info = pc of its jump */
        VJMP,
        /** a value computed by the instruction at info, whose A can still be set */
        VRELOCABLE,
        /** a call; info = pc of the CALL */
        VCALL,
        /** a vararg expression; info = pc of the VARARG */
        VVARARG
    }

    static final int NO_JUMP = -1;

    Kind k;
    int info;
    long ival;
    double nval;
    int indT;
    int indIdx;
    /** VLOCAL or VUPVAL: where the indexed table lives */
    Kind indVt;
    int t = NO_JUMP;
    int f = NO_JUMP;

    ExpDesc() {
        this.k = Kind.VVOID;
    }

    ExpDesc(Kind k, int info) {
        init(k, info);
    }

    ExpDesc init(Kind k, int info) {
        this.k = k;
        this.info = info;
        this.t = NO_JUMP;
        this.f = NO_JUMP;
        return this;
    }

    void copyFrom(ExpDesc o) {
        k = o.k;
        info = o.info;
        ival = o.ival;
        nval = o.nval;
        indT = o.indT;
        indIdx = o.indIdx;
        indVt = o.indVt;
        t = o.t;
        f = o.f;
    }

    boolean hasJumps() {
        return t != f;
    }

    boolean hasMultRet() {
        return k == Kind.VCALL || k == Kind.VVARARG;
    }

    boolean isVar() {
        return k == Kind.VLOCAL || k == Kind.VUPVAL || k == Kind.VINDEXED;
    }

    /** A numeric constant without jumps (PUC's tonumeral); returns Long, Double or null. */
    Object numeral() {
        if (hasJumps()) return null;
        if (k == Kind.VKINT) return ival;
        if (k == Kind.VKFLT) return nval;
        return null;
    }
}
