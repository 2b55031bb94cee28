package dev.luavm.jit;

import dev.luavm.bytecode.OpCode;
import dev.luavm.bytecode.Prototype;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Finds the loops of a prototype whose bodies can run with numbers unboxed, and infers the
 * type of every register at every instruction of such a loop (a <em>typed region</em>).
 *
 * <p>A region is an innermost loop: a numeric for loop (the pcs after its FORPREP up to its
 * FORLOOP) or a loop closed by a backward JMP (from its target to the jump). Every instruction
 * in it must either have a typed form ({@link #supported}: moves, constants, arithmetic,
 * comparisons, tests, forward jumps, table reads (of a register or an upvalue) by integer or
 * constant string key, array-slot writes, writes over an existing field), none of which calls, allocates a Lua-visible object or runs a metamethod, or be one
 * that falls through and runs through the generic code ({@link #generic}: calls, upvalue
 * tables, method lookups, other table accesses, NEWTABLE, LEN, NOT). Before a generic
 * instruction the typed copy boxes every register it changed since the last boxing, so the
 * callee, metamethods, errors, the memory walk and a yield see exactly the interpreter's
 * registers; see {@link RegionEmitter}.
 *
 * <p>Types: {@link #INT} (a Java long local), {@link #FLT} (a double local), {@link #ANY} (the
 * boxed register in {@code co.stack} is the value) and {@link #NONE} (not used by the region).
 * The head's types are guessed from how the body uses each register and corrected against
 * the types the loop's back-edges carry, until stable (integer and float meeting give ANY).
 * Guesses are checked at run time by the guards on entry: a wrong guess only means the loop
 * runs generic code. Deterministic: the analysis depends on the code only.
 */
final class TypedRegions {
    static final byte NONE = 0, INT = 1, FLT = 2, ANY = 3;
    /** operand domain of an operation that can never run typed (bitwise on a float) */
    static final byte BAD = -1;

    private TypedRegions() {}

    /** One loop: its pcs, kind and inferred states. */
    static final class Region {
        final int head;
        final int end;
        final boolean isFor;
        /** some instruction runs through the generic code ({@link TypedRegions#generic}) */
        boolean generic;
        /**
         * the loop computes in floats (a division, a power or a float constant in its
         * arithmetic): arithmetic on values of unknown type is guessed float, not integer
         */
        boolean floats;
        /** types on entry (the guards) and at the head */
        byte[] entry;
        /** state before each pc (index pc - head); null when unreachable from the head */
        byte[][] in;

        Region(int head, int end, boolean isFor) {
            this.head = head;
            this.end = end;
            this.isFor = isFor;
        }

        boolean contains(int pc) {
            return pc >= head && pc <= end;
        }
    }

    static int a(int i) {
        return (i >>> 6) & 0xFF;
    }

    static int b(int i) {
        return i >>> 23;
    }

    static int c(int i) {
        return (i >>> 14) & 0x1FF;
    }

    static int sbx(int i) {
        return (i >>> 14) - 131071;
    }

    static OpCode op(int i) {
        return OpCode.of(i & 0x3F);
    }

    /**
     * Instructions a typed copy runs through the generic code (boxing back what it changed
     * first and re-entering the copy after them): calls, upvalue tables, method lookups, table
     * accesses by other keys, and the rest that falls through to the next pc.
     */
    static boolean generic(Prototype p, int pc) {
        int i = p.code[pc];
        return switch (op(i)) {
            case SETTABUP, SETUPVAL, SELF, CALL, NEWTABLE, LEN, NOT -> true;
            case GETTABLE, GETTABUP -> !intKey(p, c(i)) && !stringKey(p, c(i));
            case SETTABLE -> !intKey(p, b(i)) && !stringKey(p, b(i));
            default -> false;
        };
    }

    /**
     * A CALL in a region that may run as a pure math builtin ({@code math.sqrt(x)}, ...) in
     * state {@code s}: one argument, a number in a JVM local; one result; the function boxed.
     * Its typed form is guarded at run time (the function's {@code floatFunction}); a failed
     * guard leaves for the generic code at the CALL.
     */
    static boolean mathCall(Prototype p, int pc, byte[] s) {
        int i = p.code[pc];
        if (op(i) != OpCode.CALL || b(i) != 2 || c(i) != 2 || s == null) return false;
        int a = a(i);
        return a + 1 < s.length && (s[a + 1] == INT || s[a + 1] == FLT) && s[a] != INT && s[a] != FLT;
    }

    /** Whether a generic instruction may write register {@code x} (results; a call: everything from A up). */
    static boolean writes(Prototype p, int pc, int x) {
        int i = p.code[pc];
        int a = a(i);
        return switch (op(i)) {
            case SETTABLE, SETTABUP, SETUPVAL -> false;
            case SELF -> x == a || x == a + 1;
            case CALL -> x >= a;
            default -> x == a;
        };
    }

    /** Registers of {@code p} captured by its closures (open upvalues: a callee may read or write them). */
    static boolean[] captured(Prototype p) {
        boolean[] out = new boolean[p.maxStackSize + 1];
        for (Prototype q : p.protos) {
            for (Prototype.UpvalueDesc u : q.upvalues) if (u.inStack() && u.index() < out.length) out[u.index()] = true;
        }
        return out;
    }

    static boolean isArith(OpCode op) {
        return op.ordinal() >= OpCode.ADD.ordinal() && op.ordinal() <= OpCode.SHR.ordinal();
    }

    static boolean isBitwise(OpCode op) {
        return op.ordinal() >= OpCode.BAND.ordinal() && op.ordinal() <= OpCode.SHR.ordinal();
    }

    /** The regions of {@code p}, disjoint, in pc order. */
    static List<Region> find(Prototype p) {
        int[] code = p.code;
        TreeMap<Integer, Region> byHead = new TreeMap<>();
        for (int pc = 0; pc < code.length; pc++) {
            int i = code[pc];
            OpCode op = op(i);
            int t = pc + 1 + sbx(i);
            if (op == OpCode.FORLOOP && t >= 1 && op(code[t - 1]) == OpCode.FORPREP && t + sbx(code[t - 1]) == pc) {
                byHead.put(t, new Region(t, pc, true));
            } else if (op == OpCode.JMP && sbx(i) < 0 && t >= 0) {
                Region old = byHead.get(t);
                if (old == null || (!old.isFor && old.end < pc)) byHead.put(t, new Region(t, pc, false));
            }
        }
        List<Region> out = new ArrayList<>();
        byte[][] global = null;
        int last = -1;
        for (Region r : byHead.values()) {
            if (r.head <= last || !supported(p, r)) continue;
            if (global == null) global = global(p);
            r.floats = computesFloats(p, r, global);
            infer(p, r, global);
            for (int pc = r.head; pc <= r.end; pc++) r.generic |= generic(p, pc);
            out.add(r);
            last = r.end;
        }
        return out;
    }

    private static boolean numeric(Prototype p, int rk) {
        if (rk <= 0xFF) return true;
        Object k = p.constants[rk & 0xFF];
        return k instanceof Long || k instanceof Double;
    }

    /** RK operand {@code rk} is a constant string (a field name). */
    static boolean stringKey(Prototype p, int rk) {
        return rk > 0xFF && p.constants[rk & 0xFF] instanceof dev.luavm.value.LuaString;
    }

    private static boolean intKey(Prototype p, int rk) {
        return rk <= 0xFF || p.constants[rk & 0xFF] instanceof Long;
    }

    /** Every instruction of the loop has a typed form; jumps leave or go forward, or back to the head. */
    static boolean supported(Prototype p, Region r) {
        int[] code = p.code;
        boolean numericWork = false;
        for (int pc = r.head; pc <= r.end; pc++) {
            int i = code[pc];
            OpCode op = op(i);
            switch (op) {
                case MOVE, LOADK, LOADBOOL, LOADNIL, GETUPVAL, TEST -> { }
                case GETTABLE, SETTABLE, GETTABUP, SETTABUP, SETUPVAL, SELF, CALL, NEWTABLE, LEN, NOT -> { }
                case ADD, SUB, MUL, MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR, EQ, LT, LE -> {
                    if (!numeric(p, b(i)) || !numeric(p, c(i))) return false;
                    numericWork = true;
                }
                case UNM, BNOT -> numericWork = true;
                case JMP -> {
                    if (a(i) != 0) return false;
                    int t = pc + 1 + sbx(i);
                    if (t <= pc && t != r.head) return false;
                }
                case FORLOOP -> {
                    if (!r.isFor || pc != r.end) return false;
                    numericWork = true;
                }
                default -> {
                    return false;
                }
            }
        }
        return numericWork;
    }

    /**
     * Whether the loop divides, raises to a power, or does arithmetic with a float constant or
     * with a register the whole function's analysis ({@link #global}) knows to be a float
     * (spectral_norm's {@code acc = acc + A(i, j) * x[j]}: the product of two unknowns is
     * guessed float because acc is one).
     */
    static boolean computesFloats(Prototype p, Region r, byte[][] global) {
        for (int pc = r.head; pc <= r.end; pc++) {
            int i = p.code[pc];
            OpCode op = op(i);
            if (op == OpCode.DIV || op == OpCode.POW) return true;
            if (isArith(op) && (isFloatConstant(p, b(i)) || isFloatConstant(p, c(i)))) return true;
            byte[] g = global[pc];
            if (isArith(op) && g != null && (b(i) <= 0xFF && g[b(i)] == FLT || c(i) <= 0xFF && g[c(i)] == FLT)) return true;
            if (op == OpCode.LOADK && p.constants[i >>> 14] instanceof Double) return true;
        }
        return false;
    }

    private static boolean isFloatConstant(Prototype p, int rk) {
        return rk > 0xFF && p.constants[rk & 0xFF] instanceof Double;
    }

    static byte join(byte x, byte y) {
        if (x == y || y == NONE) return x;
        if (x == NONE) return y;
        return ANY;
    }

    // ---- typing rules, shared by the inference and the emitter

    /** Type of RK operand in state s (constants: their type). */
    static byte rkType(Prototype p, byte[] s, int rk) {
        if (rk > 0xFF) return p.constants[rk & 0xFF] instanceof Long ? INT : FLT;
        return s[rk];
    }

    /**
     * The domain an arithmetic op computes in, from its operands' types (ANY: guarded at use).
     * With neither operand known to be a number, it is a guess: float in a loop that computes
     * in floats ({@code floats}), integer otherwise; {@link #guessed} says when.
     */
    static byte domain(OpCode op, byte tb, byte tc, boolean floats) {
        if (op == OpCode.DIV || op == OpCode.POW) return FLT;
        if (isBitwise(op) || op == OpCode.BNOT) return tb == FLT || tc == FLT ? BAD : INT;
        if (tb == FLT || tc == FLT) return FLT;
        return floats && tb != INT && tc != INT ? FLT : INT;
    }

    /**
     * Whether {@link #domain} guessed: no operand is a known number and the op does not convert
     * (so a boxed operand must already have the domain's type: a guessed-float ADD of two
     * integers would otherwise give a float where Lua gives an integer).
     */
    static boolean guessed(OpCode op, byte tb, byte tc) {
        if (op == OpCode.DIV || op == OpCode.POW) return false;
        return tb != INT && tb != FLT && tc != INT && tc != FLT;
    }

    /** The domain of UNM: its operand's, guessed as {@link #domain} does when unknown. */
    static byte unmDomain(byte tb, boolean floats) {
        return tb == FLT || floats && tb != INT ? FLT : INT;
    }

    /** The type a comparison reads an operand as: its own, or for a boxed one the other's (integer if both boxed). */
    static byte cmpType(byte self, byte other) {
        if (self == INT || self == FLT) return self;
        return other == FLT ? FLT : INT;
    }

    /** Inference: the whole function's types at the head, guesses for the rest refined against the back-edges. */
    private static void infer(Prototype p, Region r, byte[][] global) {
        int m = p.maxStackSize + 1;
        byte[] h = new byte[m];
        boolean[] soft = new boolean[m];
        boolean[] used = new boolean[m];
        byte[] g = global[r.head];
        if (g != null) {
            for (int x = 0; x < m; x++) if (g[x] == INT || g[x] == FLT) h[x] = g[x];
        }
        flow(p, r, h, new byte[m], new byte[m], used);
        for (int x = 0; x < m; x++) if (!used[x]) h[x] = NONE;
        for (int round = 0; round < 40; round++) {
            byte[] demand = new byte[m];
            byte[] back = new byte[m];
            flow(p, r, h, demand, back, used);
            boolean changed = false;
            for (int x = 0; x < m; x++) {
                byte nv = h[x];
                if (h[x] == NONE) {
                    if (!used[x]) continue;
                    if (demand[x] == INT || demand[x] == FLT) {
                        nv = demand[x];
                        soft[x] = true;
                    } else if (demand[x] == ANY) {
                        nv = ANY;
                    } else {
                        nv = back[x] == NONE ? ANY : back[x];
                    }
                } else if (back[x] != NONE && back[x] != h[x]) {
                    if (soft[x]) {
                        nv = back[x];
                        soft[x] = false;
                    } else {
                        nv = join(h[x], back[x]);
                    }
                }
                if (round >= 30 && nv != h[x]) nv = ANY; // no oscillation: settle boxed
                if (nv != h[x]) {
                    h[x] = nv;
                    changed = true;
                }
            }
            if (!changed) break;
        }
        r.entry = h;
        r.in = flow(p, r, h, new byte[m], new byte[m], used);
    }

    /** Records that a register of type NONE is read as {@code want}. */
    private static void want(byte[] s, byte[] demand, boolean[] used, int reg, byte want) {
        if (used != null) used[reg] = true;
        if (demand != null && s[reg] == NONE) demand[reg] = demand[reg] == NONE ? want : join(demand[reg], want);
    }

    private static void wantRk(byte[] s, byte[] demand, boolean[] used, int rk, byte want) {
        if (rk <= 0xFF) want(s, demand, used, rk, want);
    }

    private static void def(byte[] s, boolean[] used, int reg, byte t) {
        if (used != null) used[reg] = true;
        s[reg] = t;
    }

    /** One forward pass over the region from {@code h} at the head; returns the states, fills demand/back/used. */
    private static byte[][] flow(Prototype p, Region r, byte[] h, byte[] demand, byte[] back, boolean[] used) {
        int n = r.end - r.head + 1;
        byte[][] in = new byte[n][];
        in[0] = h.clone();
        int[] succ = new int[2];
        for (int pc = r.head; pc <= r.end; pc++) {
            byte[] s0 = in[pc - r.head];
            if (s0 == null) continue;
            byte[] s = s0.clone();
            int k = transfer(p, pc, s, demand, used, succ, r.floats);
            for (int j = 0; j < k; j++) edge(r, in, back, s, succ[j]);
        }
        return in;
    }

    /** The whole function's speculative types before each pc (null: unreachable). */
    static byte[][] global(Prototype p) {
        int[] code = p.code;
        int m = p.maxStackSize + 1;
        byte[][] in = new byte[code.length][];
        byte[] s0 = new byte[m];
        Arrays.fill(s0, ANY);
        in[0] = s0;
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        boolean[] queued = new boolean[code.length];
        work.add(0);
        queued[0] = true;
        int[] succ = new int[2];
        int steps = 0;
        while (!work.isEmpty()) {
            if (++steps > 200_000) return new byte[code.length][]; // give up: no head types
            int pc = work.poll();
            queued[pc] = false;
            byte[] s = in[pc].clone();
            int k = transfer(p, pc, s, null, null, succ, false);
            for (int j = 0; j < k; j++) {
                int t = succ[j];
                if (t < 0 || t >= code.length) continue;
                byte[] d = in[t];
                boolean changed = false;
                if (d == null) {
                    in[t] = s.clone();
                    changed = true;
                } else {
                    for (int x = 0; x < m; x++) {
                        byte v = join(d[x], s[x]);
                        if (v != d[x]) {
                            d[x] = v;
                            changed = true;
                        }
                    }
                }
                if (changed && !queued[t]) {
                    queued[t] = true;
                    work.add(t);
                }
            }
        }
        return in;
    }

    /**
     * The typing rule of one instruction: updates {@code s}, puts its successors in {@code succ}
     * and returns their number ({@code floats}: the region's {@link Region#floats}, false for the
     * whole function). In a region (demand != null) only supported instructions occur;
     * for the whole function, anything else makes its target registers boxed.
     */
    static int transfer(Prototype p, int pc, byte[] s, byte[] demand, boolean[] used, int[] succ, boolean floats) {
        int i = p.code[pc];
        OpCode op = op(i);
        int a = a(i);
        int next = pc + 1;
        int alt = -1;
        switch (op) {
            case MOVE -> {
                if (used != null) used[b(i)] = true;
                def(s, used, a, s[b(i)] == NONE ? ANY : s[b(i)]);
            }
            case LOADK -> {
                Object k = p.constants[i >>> 14];
                def(s, used, a, k instanceof Long ? INT : k instanceof Double ? FLT : ANY);
            }
            case LOADBOOL, GETUPVAL -> {
                def(s, used, a, ANY);
                if (op == OpCode.LOADBOOL && c(i) != 0) next = pc + 2;
            }
            case LOADNIL -> {
                for (int x = a; x <= a + b(i); x++) def(s, used, x, ANY);
            }
            case GETTABLE -> {
                if (generic(p, pc)) {
                    def(s, used, a, ANY);
                    break;
                }
                want(s, demand, used, b(i), ANY);
                wantRk(s, demand, used, c(i), INT);
                def(s, used, a, ANY);
            }
            case SETTABLE -> {
                if (generic(p, pc)) break;
                want(s, demand, used, a, ANY);
                wantRk(s, demand, used, b(i), INT);
                if (used != null && c(i) <= 0xFF) used[c(i)] = true;
            }
            case ADD, SUB, MUL, MOD, POW, DIV, IDIV, BAND, BOR, BXOR, SHL, SHR -> {
                if (!numeric(p, b(i)) || !numeric(p, c(i))) {
                    def(s, used, a, ANY);
                    break;
                }
                byte tb = rkType(p, s, b(i));
                byte tc = rkType(p, s, c(i));
                byte d = domain(op, tb, tc, floats);
                byte w = d == FLT ? FLT : INT;
                wantRk(s, demand, used, b(i), w);
                wantRk(s, demand, used, c(i), w);
                if (d == BAD) {
                    if (demand != null) next = -1;
                    def(s, used, a, ANY);
                } else {
                    def(s, used, a, d);
                }
            }
            case UNM, BNOT -> {
                byte tb = s[b(i)];
                byte d = op == OpCode.BNOT ? domain(op, tb, INT, false) : unmDomain(tb, floats);
                want(s, demand, used, b(i), d == FLT ? FLT : INT);
                if (d == BAD) {
                    if (demand != null) next = -1;
                    def(s, used, a, ANY);
                } else {
                    def(s, used, a, d);
                }
            }
            case EQ, LT, LE -> {
                if (numeric(p, b(i)) && numeric(p, c(i))) {
                    byte tb = rkType(p, s, b(i));
                    byte tc = rkType(p, s, c(i));
                    wantRk(s, demand, used, b(i), cmpType(tb, tc));
                    wantRk(s, demand, used, c(i), cmpType(tc, tb));
                }
                alt = pc + 2;
            }
            case TEST -> {
                want(s, demand, used, a, ANY);
                alt = pc + 2;
            }
            case TESTSET -> {
                def(s, used, a, ANY);
                alt = pc + 2;
            }
            case JMP -> next = pc + 1 + sbx(i);
            case FORLOOP -> {
                for (int x = a; x <= a + 2; x++) want(s, demand, used, x, INT);
                if (used != null) used[a + 3] = true;
                byte t = s[a] == NONE ? INT : s[a];
                if ((t == INT || t == FLT) && t == s[a + 1] && t == s[a + 2] || s[a] == NONE) {
                    s[a] = t;
                    s[a + 3] = t;
                } else {
                    for (int x = a; x <= a + 3; x++) s[x] = ANY;
                    if (demand != null) next = -1; // mixed: the generic FORLOOP
                }
                alt = pc + 1 + sbx(i);
                if (next < 0) alt = -1;
            }
            case FORPREP -> {
                byte ti = s[a];
                byte ts = s[a + 2];
                byte t = ti == FLT || ts == FLT ? FLT : INT; // boxed: guessed integer, checked on entry
                for (int x = a; x <= a + 3; x++) s[x] = t;
                alt = pc + 1 + sbx(i) + 1;
            }
            case RETURN, TAILCALL -> next = -1;
            case GETTABUP -> {
                if (!generic(p, pc)) wantRk(s, demand, used, c(i), INT);
                def(s, used, a, ANY);
            }
            case NEWTABLE, LEN, NOT -> def(s, used, a, ANY);
            case SELF -> {
                def(s, used, a, ANY);
                def(s, used, a + 1, ANY);
            }
            case SETTABUP, SETUPVAL -> { }
            case CALL -> {
                if (demand != null && mathCall(p, pc, s)) {
                    // typed: a float result, nothing else written (RegionEmitter's mathCall)
                    if (used != null) used[a + 1] = true;
                    def(s, used, a, FLT);
                    break;
                }
                for (int x = a; x < s.length; x++) s[x] = ANY;
                if (used != null) used[a] = true;
            }
            case TFORLOOP -> {
                s[a] = ANY;
                alt = pc + 1 + sbx(i);
            }
            default -> {
                if (demand != null) throw new IllegalStateException("unsupported in a region: " + op);
                for (int x = a; x < s.length; x++) s[x] = ANY;
            }
        }
        int k = 0;
        if (next >= 0) succ[k++] = next;
        if (alt >= 0) succ[k++] = alt;
        return k;
    }

    private static void edge(Region r, byte[][] in, byte[] back, byte[] s, int target) {
        if (target < 0) return;
        if (target == r.head) {
            for (int x = 0; x < s.length; x++) back[x] = join(back[x], s[x]);
        } else if (r.contains(target)) {
            byte[] d = in[target - r.head];
            if (d == null) {
                in[target - r.head] = s.clone();
            } else {
                for (int x = 0; x < s.length; x++) d[x] = join(d[x], s[x]);
            }
        }
    }

    static String describe(byte[] s) {
        return Arrays.toString(s);
    }
}
