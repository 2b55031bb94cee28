package dev.luavm.vm;

import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.EventNames;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;
import dev.luavm.value.Userdata;

/**
 * Metamethod-aware operations ({@code ltm.c} plus the slow halves of {@code lvm.c}): indexing
 * chains, arithmetic and bitwise fallbacks, comparisons, length, concatenation, tostring.
 *
 * <p>Each operation takes {@code fromLoop}. From the dispatch loop, a metamethod that is a Lua
 * closure is not called on the Java stack: it is pushed as a frame flagged
 * {@link CallFrame#META} and the method returns {@link Calls#PENDING}; when that frame returns,
 * the loop completes the interrupted instruction (PUC's luaV_finishOp), so coroutines can yield
 * inside metamethods (VM rule 3). From library code ({@code CallContext}) the metamethod runs in
 * a nested dispatch loop and the answer comes back directly.
 *
 * <p>Weak tables: {@code __mode} is accepted but tables stay strong (the JVM collector cannot
 * tell us when a Lua value becomes unreachable without per-sandbox weak maps; memory accounting
 * is by live-heap walk, so a strong "weak" table only keeps what it references alive).
 */
final class Meta {
    private Meta() {}

    static final int MAXTAGLOOP = 2000;

    static final LuaString INDEX = EventNames.of("__index");
    static final LuaString NEWINDEX = EventNames.of("__newindex");
    static final LuaString GC = EventNames.of("__gc");
    static final LuaString MODE = EventNames.of("__mode");
    static final LuaString LEN = EventNames.of("__len");
    static final LuaString EQ = EventNames.of("__eq");
    static final LuaString LT = EventNames.of("__lt");
    static final LuaString LE = EventNames.of("__le");
    static final LuaString CONCAT = EventNames.of("__concat");
    static final LuaString CALL = EventNames.of("__call");
    static final LuaString TOSTRING = EventNames.of("__tostring");
    static final LuaString NAME = EventNames.of("__name");
    static final LuaString METATABLE = EventNames.of("__metatable");
    static final LuaString PAIRS = EventNames.of("__pairs");

    /** event names indexed by opcode ordinal (ADD..BNOT) */
    private static final LuaString[] ARITH_EVENT = new LuaString[64];

    static {
        ARITH_EVENT[Arith.ADD] = EventNames.of("__add");
        ARITH_EVENT[Arith.SUB] = EventNames.of("__sub");
        ARITH_EVENT[Arith.MUL] = EventNames.of("__mul");
        ARITH_EVENT[Arith.MOD] = EventNames.of("__mod");
        ARITH_EVENT[Arith.POW] = EventNames.of("__pow");
        ARITH_EVENT[Arith.DIV] = EventNames.of("__div");
        ARITH_EVENT[Arith.IDIV] = EventNames.of("__idiv");
        ARITH_EVENT[Arith.BAND] = EventNames.of("__band");
        ARITH_EVENT[Arith.BOR] = EventNames.of("__bor");
        ARITH_EVENT[Arith.BXOR] = EventNames.of("__bxor");
        ARITH_EVENT[Arith.SHL] = EventNames.of("__shl");
        ARITH_EVENT[Arith.SHR] = EventNames.of("__shr");
        ARITH_EVENT[Arith.UNM] = EventNames.of("__unm");
        ARITH_EVENT[Arith.BNOT] = EventNames.of("__bnot");
    }

    /** bits of LuaTable.metaAbsent */
    static final int BIT_INDEX = 1;
    static final int BIT_NEWINDEX = 2;
    static final int BIT_LEN = 16;
    static final int BIT_EQ = 32;

    /** fasttm: the metamethod {@code name} of metatable {@code mt}, caching absence in a bit. */
    static Object fastTM(LuaTable mt, LuaString name, int bit) {
        if (mt == null || (mt.metaAbsent & bit) != 0) return null;
        Object tm = mt.getStr(name);
        if (tm == null) mt.metaAbsent |= (byte) bit;
        return tm;
    }

    static LuaTable metatable(LuaState st, Object v) {
        if (v instanceof LuaTable t) return t.getMetatable();
        if (v instanceof LuaString) return st.stringMeta;
        if (v instanceof Userdata u) return u.getMetatable();
        if (v instanceof Long || v instanceof Double) return st.numberMeta;
        if (v instanceof Boolean) return st.booleanMeta;
        if (v instanceof LuaFunction) return st.functionMeta;
        if (v instanceof Coroutine) return st.threadMeta;
        if (v == null) return st.nilMeta;
        return null;
    }

    static Object getTM(LuaState st, Object v, LuaString event) {
        LuaTable mt = metatable(st, v);
        return mt == null ? null : mt.getStr(event);
    }

    /** luaT_objtypename: the __name of a table or userdata metatable, else the type name. */
    static String typeName(LuaState st, Object v) {
        if (v instanceof LuaTable || v instanceof Userdata) {
            LuaTable mt = metatable(st, v);
            if (mt != null && mt.getStr(NAME) instanceof LuaString s) return s.toLatin1();
        }
        return LuaValues.typeName(v);
    }

    // ---- calling metamethods

    /** Calls {@code tm(a, b[, c])} wanting one result; PENDING when pushed as a frame. */
    static Object call(LuaState st, Object tm, Object a, Object b, Object c, int nargs, boolean fromLoop,
                       int flags, int aux) {
        return call(st, tm, a, b, c, nargs, 1, fromLoop, flags, aux);
    }

    /** As above with {@code nres} results wanted by the pushed frame (0 for __newindex). */
    static Object call(LuaState st, Object tm, Object a, Object b, Object c, int nargs, int nres,
                       boolean fromLoop, int flags, int aux) {
        if (fromLoop && tm instanceof LuaClosure cl) {
            Coroutine co = st.current;
            // PUC calls a metamethod through luaD_call: one C level, capped at LUAI_MAXCCALLS
            if (co.metaDepth + co.resumeDepth + st.javaDepth >= Calls.MAX_C_CALLS) {
                throw VmError.run("C stack overflow");
            }
            CallFrame f = co.frames[co.nframes - 1];
            int pos = f.base + f.closure.proto.maxStackSize;
            co.ensureStack(pos + 4 + Coroutine.EXTRA_STACK);
            Object[] s = co.stack;
            s[pos] = cl;
            s[pos + 1] = a;
            s[pos + 2] = b;
            s[pos + 3] = c;
            co.top = pos + 1 + nargs;
            CallFrame nf = Calls.pushLua(st, co, cl, pos, nargs, nres, CallFrame.META | flags);
            nf.aux = aux;
            co.metaDepth++;
            return Calls.PENDING;
        }
        if (tm instanceof Builtin bt && !(bt instanceof VmBuiltin)) {
            Object[] r = nargs != 3 ? st.callJavaImplicitly(tm, a, b) : st.callJavaImplicitly(tm, a, b, c);
            return r.length == 0 ? null : r[0];
        }
        if (nargs != 3) return st.callJava1(tm, a, b);
        Object[] r = st.callJava(tm, a, b, c);
        return r.length == 0 ? null : r[0];
    }

    // ---- indexing

    /** luaV_gettable/finishget: {@code t[key]} following __index. */
    static Object index(LuaState st, Object t, Object key, boolean fromLoop, int operand) {
        return index(st, t, key, fromLoop, operand, 0);
    }

    /**
     * {@link #index} of table {@code t} whose raw read of {@code key} is known to miss: its first
     * step without that read (the caller's read missed within the free probes, so the read here
     * would have missed the same way and charged nothing either).
     */
    static Object indexPastMiss(LuaState st, LuaTable t, Object key, boolean fromLoop, int operand) {
        Object tm = fastTM(t.getMetatable(), INDEX, BIT_INDEX);
        if (tm == null) return null;
        if (tm instanceof LuaFunction) return call(st, tm, t, key, null, 2, fromLoop, 0, 0);
        return index(st, tm, key, fromLoop, operand, 1);
    }

    /** The __index chain from {@code t}, its {@code first}-th step. */
    private static Object index(LuaState st, Object t, Object key, boolean fromLoop, int operand, int first) {
        for (int loop = first; loop < MAXTAGLOOP; loop++) {
            Object tm;
            if (t instanceof LuaTable tt) {
                Object v = tt.get(key);
                if (v != null) return v;
                tm = fastTM(tt.getMetatable(), INDEX, BIT_INDEX);
                if (tm == null) return null;
            } else {
                tm = getTM(st, t, INDEX);
                if (tm == null) throw VmError.type("index", typeName(st, t), loop == 0 ? operand : VmError.NONE);
            }
            if (tm instanceof LuaFunction) return call(st, tm, t, key, null, 2, fromLoop, 0, 0);
            t = tm;
        }
        throw VmError.run("'__index' chain too long; possible loop");
    }

    /** luaV_settable/finishset: {@code t[key] = v} following __newindex; PENDING or null. */
    static Object setIndex(LuaState st, Object t, Object key, Object v, boolean fromLoop, int operand) {
        for (int loop = 0; loop < MAXTAGLOOP; loop++) {
            Object tm;
            if (t instanceof LuaTable tt) {
                Object old = tt.get(key);
                if (old == null) {
                    tm = fastTM(tt.getMetatable(), NEWINDEX, BIT_NEWINDEX);
                } else {
                    tm = null;
                }
                if (tm == null) {
                    rawSet(tt, key, v);
                    return null;
                }
            } else {
                tm = getTM(st, t, NEWINDEX);
                if (tm == null) throw VmError.type("index", typeName(st, t), loop == 0 ? operand : VmError.NONE);
            }
            if (tm instanceof LuaFunction) {
                Object r = call(st, tm, t, key, v, 3, 0, fromLoop, 0, 0);
                return r == Calls.PENDING ? r : null;
            }
            t = tm;
        }
        throw VmError.run("'__newindex' chain too long; possible loop");
    }

    /** A raw store with PUC's positioned errors for nil and NaN keys. */
    static void rawSet(LuaTable t, Object key, Object v) {
        if (key == null) throw VmError.run("table index is nil");
        if (key instanceof Double d && d.isNaN()) throw VmError.run("table index is NaN");
        t.put(key, v);
    }

    // ---- arithmetic

    /** luaT_trybinTM after the raw operation failed: metamethod or error. */
    static Object arith(LuaState st, int op, Object a, Object b, boolean fromLoop) {
        Arith.chargeCoercion(st.gas, a); // string operands are parsed: byte work
        if (b != a) Arith.chargeCoercion(st.gas, b);
        Object r = Arith.arith(op, a, b);
        if (r != null) return r;
        LuaString ev = ARITH_EVENT[op];
        Object tm = getTM(st, a, ev);
        if (tm == null) tm = getTM(st, b, ev);
        if (tm != null) return call(st, tm, a, b, null, 2, fromLoop, 0, 0);
        boolean unary = op == Arith.UNM || op == Arith.BNOT;
        if (Arith.isBitwise(op)) {
            if (Arith.toNumber(a) != null && Arith.toNumber(b) != null) {
                int blame = Arith.toInteger(a) == null ? VmError.OP_B : (unary ? VmError.OP_B : VmError.OP_C);
                throw new VmError("number", blame, " has no integer representation");
            }
            int blame = Arith.toNumber(a) == null || unary ? VmError.OP_B : VmError.OP_C;
            Object bad = blame == VmError.OP_B ? a : b;
            throw VmError.type("perform bitwise operation on", typeName(st, bad), blame);
        }
        int blame = Arith.toNumber(a) == null || unary ? VmError.OP_B : VmError.OP_C;
        Object bad = blame == VmError.OP_B ? a : b;
        throw VmError.type("perform arithmetic on", typeName(st, bad), blame);
    }

    // ---- comparison

    /** luaV_equalobj: Boolean, or PENDING while an __eq frame runs. */
    static Object equals(LuaState st, Object a, Object b, boolean fromLoop) {
        if (a == b) return Boolean.TRUE;
        if (a == null || b == null) return Boolean.FALSE;
        if (a instanceof Long || a instanceof Double) {
            return (b instanceof Long || b instanceof Double) && Arith.numEquals(a, b);
        }
        if (a instanceof LuaString sa) return b instanceof LuaString sb && sa.equals(sb, st.gas);
        if (a instanceof Boolean) return a.equals(b);
        Object tm;
        if (a instanceof LuaTable ta && b instanceof LuaTable tb) {
            tm = fastTM(ta.getMetatable(), EQ, BIT_EQ);
            if (tm == null) tm = fastTM(tb.getMetatable(), EQ, BIT_EQ);
        } else if (a instanceof Userdata ua && b instanceof Userdata ub) {
            tm = ua.getMetatable() == null ? null : ua.getMetatable().getStr(EQ);
            if (tm == null && ub.getMetatable() != null) tm = ub.getMetatable().getStr(EQ);
        } else {
            return Boolean.FALSE;
        }
        if (tm == null) return Boolean.FALSE;
        Object r = call(st, tm, a, b, null, 2, fromLoop, 0, 0);
        return r == Calls.PENDING ? r : (Boolean) LuaValues.isTruthy(r);
    }

    /** luaV_lessthan: Boolean, or PENDING. */
    static Object lessThan(LuaState st, Object a, Object b, boolean fromLoop) {
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            return Arith.lt(a, b);
        }
        if (a instanceof LuaString sa && b instanceof LuaString sb) return sa.compareTo(sb, st.gas) < 0;
        Object tm = getTM(st, a, LT);
        if (tm == null) tm = getTM(st, b, LT);
        if (tm == null) throw orderError(st, a, b);
        Object r = call(st, tm, a, b, null, 2, fromLoop, 0, 0);
        return r == Calls.PENDING ? r : (Boolean) LuaValues.isTruthy(r);
    }

    /** luaV_lessequal: __le, else not __lt(b, a); Boolean, or PENDING. */
    static Object lessEqual(LuaState st, Object a, Object b, boolean fromLoop) {
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            return Arith.le(a, b);
        }
        if (a instanceof LuaString sa && b instanceof LuaString sb) return sa.compareTo(sb, st.gas) <= 0;
        Object tm = getTM(st, a, LE);
        if (tm == null) tm = getTM(st, b, LE);
        if (tm != null) {
            Object r = call(st, tm, a, b, null, 2, fromLoop, 0, 0);
            return r == Calls.PENDING ? r : (Boolean) LuaValues.isTruthy(r);
        }
        tm = getTM(st, b, LT);
        if (tm == null) tm = getTM(st, a, LT);
        if (tm == null) throw orderError(st, a, b);
        Object r = call(st, tm, b, a, null, 2, fromLoop, CallFrame.NEGATE, 0);
        return r == Calls.PENDING ? r : (Boolean) !LuaValues.isTruthy(r);
    }

    static VmError orderError(LuaState st, Object a, Object b) {
        String t1 = typeName(st, a);
        String t2 = typeName(st, b);
        if (t1.equals(t2)) return VmError.run("attempt to compare two " + t1 + " values");
        return VmError.run("attempt to compare " + t1 + " with " + t2);
    }

    // ---- length

    /** luaV_objlen: value, or PENDING. */
    static Object len(LuaState st, Object v, boolean fromLoop) {
        Object tm;
        if (v instanceof LuaTable t) {
            tm = fastTM(t.getMetatable(), LEN, BIT_LEN);
            if (tm == null) return t.length();
        } else if (v instanceof LuaString s) {
            return (long) s.length();
        } else {
            tm = getTM(st, v, LEN);
            if (tm == null) throw VmError.type("get length of", typeName(st, v), VmError.OP_B);
        }
        return call(st, tm, v, v, null, 2, fromLoop, 0, 0);
    }

    // ---- concatenation

    static boolean isStringLike(Object v) {
        return v instanceof LuaString || v instanceof Long || v instanceof Double;
    }

    static LuaString toStr(Object v) {
        if (v instanceof LuaString s) return s;
        if (v instanceof Long l) return LuaNumbers.toLuaString(l);
        return LuaNumbers.toLuaString((Double) v);
    }

    /**
     * luaV_concat over registers {@code stack[from .. to]} (absolute indices), right to left,
     * in place: the result, or PENDING while a __concat frame runs (its result goes to the
     * register recorded in the frame's {@code aux}).
     */
    static Object concat(LuaState st, Coroutine co, int from, int to) {
        Object[] s = co.stack;
        int top = to + 1;
        while (top - from > 1) {
            Object a = s[top - 2];
            Object b = s[top - 1];
            int n = 2;
            Object result;
            if (!isStringLike(a) || !isStringLike(b)) {
                Object tm = getTM(st, a, CONCAT);
                if (tm == null) tm = getTM(st, b, CONCAT);
                if (tm == null) {
                    int bad = isStringLike(a) ? top - 1 : top - 2;
                    CallFrame f = co.frames[co.nframes - 1];
                    throw VmError.type("concatenate", typeName(st, s[bad]), VmError.REG + (bad - f.base));
                }
                result = call(st, tm, a, b, null, 2, true, 0, top - 2);
                if (result == Calls.PENDING) return result;
                s = co.stack;
            } else if (b instanceof LuaString sb && sb.length() == 0) {
                result = toStr(a);
            } else if (a instanceof LuaString sa && sa.length() == 0) {
                result = toStr(b);
            } else {
                long total = toStr(b).length();
                int i = top - 2;
                while (i >= from && isStringLike(s[i])) {
                    total += toStr(s[i]).length();
                    if (total > Integer.MAX_VALUE - 64) throw VmError.run("string length overflow");
                    i--;
                }
                n = top - 1 - i;
                st.memory.charge(Sizes.string(total));
                st.gas.charge(total >> 6);
                byte[] out = new byte[(int) total];
                int pos = 0;
                for (int j = top - n; j < top; j++) {
                    LuaString piece = toStr(s[j]);
                    System.arraycopy(piece.bytesUnsafe(), 0, out, pos, piece.length());
                    pos += piece.length();
                }
                result = LuaString.wrap(out);
            }
            top -= n - 1;
            s[top - 1] = result;
        }
        return s[from];
    }

    // ---- tostring

    /** luaL_tolstring: __tostring (must give a string), __name, or the default text. */
    static LuaString tostring(Ctx c, LuaState st, Object v) {
        Object tm = getTM(st, v, TOSTRING);
        if (tm != null) {
            Object[] r = st.callJavaImplicitly(tm, v);
            Object s = r.length == 0 ? null : r[0];
            if (s instanceof Long || s instanceof Double) return toStr(s);
            // luaL_error: positioned at the Lua code that called the library function
            if (!(s instanceof LuaString ls)) throw c.error("'__tostring' must return a string");
            return ls;
        }
        if (v == null) return LuaValues.NIL;
        if (v instanceof Boolean b) return LuaString.of(b ? "true" : "false");
        if (v instanceof LuaString s) return s;
        if (v instanceof Long || v instanceof Double) {
            st.memory.charge(Sizes.string(24)); // a new string of at most 24 chars ("%.14g"), counted like any other
            return toStr(v);
        }
        // "NAME: 0x..." with a script-chosen __name of any length: charged before it is built
        LuaTable mt = v instanceof LuaTable || v instanceof Userdata ? metatable(st, v) : null;
        long n = (mt != null && mt.getStr(NAME) instanceof LuaString ns ? ns.length() : 8) + 12;
        st.memory.charge(Sizes.string(n));
        if (n > 64) st.gas.charge(n / 8); // a short name stays in the call's base cost
        String kind = typeName(st, v);
        return LuaString.ofLatin1(kind + ": " + dev.luavm.value.Identity.hex(dev.luavm.value.Identity.of(v, st.memory)));
    }

    /** Whether a value is a builtin (for traceback/argument-name decisions). */
    static boolean isBuiltin(Object v) {
        return v instanceof Builtin;
    }
}
