package dev.luavm.stdlib.libs;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;
import dev.luavm.value.Userdata;
import dev.luavm.vm.LuaError;
import java.util.Arrays;

/**
 * A test-only {@link CallContext}: arguments in an array, results in another, gas and memory
 * from a {@link FakeSandbox}. Metamethods ({@code __index}, {@code __newindex}, {@code __len},
 * {@code __lt}, {@code __eq}, {@code __call}) work when they are builtins or tables. Errors
 * carry no position, so tests compare the bare PUC message.
 */
public final class FakeContext extends CallContext {
    private static final LuaString INDEX = LuaString.of("__index");
    private static final LuaString NEWINDEX = LuaString.of("__newindex");
    private static final LuaString LEN = LuaString.of("__len");
    private static final LuaString LT = LuaString.of("__lt");
    private static final LuaString EQ = LuaString.of("__eq");
    private static final LuaString CALL = LuaString.of("__call");

    private final FakeSandbox box;
    private final Builtin callee;
    private final Object[] args;
    private Object[] results = new Object[0];

    FakeContext(FakeSandbox box, Builtin callee, Object[] args) {
        this.box = box;
        this.callee = callee;
        this.args = args;
    }

    Object[] results(int n) {
        return Arrays.copyOf(results, n);
    }

    @Override public int nargs() { return args.length; }

    @Override public Object arg(int i) { return i >= 1 && i <= args.length ? args[i - 1] : null; }

    @Override
    public void ensureResults(int n) {
        if (n > 1_000_000) throw LuaError.of("too many results");
        if (results.length < n) results = Arrays.copyOf(results, n);
    }

    @Override public void setResult(int i, Object v) { results[i] = v; }

    @Override public Builtin callee() { return callee; }

    @Override public void chargeGas(long units) { box.chargeGas(units); }

    @Override public MemoryMeter memory() { return box.memory; }

    @Override public LuaTable globals() { return box.globals; }

    @Override public LuaTable registry() { return box.registry; }

    @Override public HostEnvironment host() { return box.host; }

    @Override
    public Object[] call(Object fn, Object... a) {
        if (fn instanceof LuaTable t && t.getMetatable() != null && t.getMetatable().get(CALL) != null) {
            Object[] withSelf = new Object[a.length + 1];
            withSelf[0] = t;
            System.arraycopy(a, 0, withSelf, 1, a.length);
            return box.call(t.getMetatable().get(CALL), withSelf);
        }
        return box.call(fn, a);
    }

    @Override
    public Object index(Object t, Object k) {
        for (int loop = 0; loop < 100; loop++) {
            Object h;
            if (t instanceof LuaTable tab) {
                Object v = tab.get(k);
                if (v != null) return v;
                h = tab.getMetatable() == null ? null : tab.getMetatable().get(INDEX);
                if (h == null) return null;
            } else {
                LuaTable mt = getMetatable(t);
                h = mt == null ? null : mt.get(INDEX);
                if (h == null) throw LuaError.of("attempt to index a " + LuaValues.typeName(t) + " value");
            }
            if (h instanceof LuaTable) {
                t = h;
            } else {
                return call1(h, t, k);
            }
        }
        throw LuaError.of("'__index' chain too long; possible loop");
    }

    @Override
    public void setIndex(Object t, Object k, Object v) {
        for (int loop = 0; loop < 100; loop++) {
            Object h;
            if (t instanceof LuaTable tab) {
                h = tab.getMetatable() == null ? null : tab.getMetatable().get(NEWINDEX);
                if (h == null || tab.get(k) != null) {
                    tab.put(k, v);
                    return;
                }
            } else {
                LuaTable mt = getMetatable(t);
                h = mt == null ? null : mt.get(NEWINDEX);
                if (h == null) throw LuaError.of("attempt to index a " + LuaValues.typeName(t) + " value");
            }
            if (h instanceof LuaTable) {
                t = h;
            } else {
                call(h, t, k, v);
                return;
            }
        }
        throw LuaError.of("'__newindex' chain too long; possible loop");
    }

    @Override
    public boolean lessThan(Object a, Object b) {
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            if (a instanceof Long x && b instanceof Long y) return x < y;
            return toDouble(a) < toDouble(b);
        }
        if (a instanceof LuaString x && b instanceof LuaString y) return x.compareTo(y) < 0;
        Object h = metamethod(a, LT);
        if (h == null) h = metamethod(b, LT);
        if (h == null) {
            String ta = LuaValues.typeName(a);
            String tb = LuaValues.typeName(b);
            if (ta.equals(tb)) throw LuaError.of("attempt to compare two " + ta + " values");
            throw LuaError.of("attempt to compare " + ta + " with " + tb);
        }
        return LuaValues.isTruthy(call1(h, a, b));
    }

    private static double toDouble(Object n) {
        return n instanceof Long l ? (double) l : (Double) n;
    }

    private Object metamethod(Object v, LuaString event) {
        LuaTable mt = getMetatable(v);
        return mt == null ? null : mt.get(event);
    }

    @Override
    public boolean equalsLua(Object a, Object b) {
        if (a == b) return true;
        if (a == null || b == null) return false;
        if ((a instanceof Long || a instanceof Double) && (b instanceof Long || b instanceof Double)) {
            if (a instanceof Long x && b instanceof Long y) return x.longValue() == y.longValue();
            return toDouble(a) == toDouble(b);
        }
        if (a instanceof LuaTable && b instanceof LuaTable) {
            Object h = metamethod(a, EQ);
            if (h == null) h = metamethod(b, EQ);
            return h != null && LuaValues.isTruthy(call1(h, a, b));
        }
        return a.equals(b);
    }

    @Override
    public long length(Object v) {
        Object h = metamethod(v, LEN);
        if (h != null) {
            Object n = call1(h, v);
            if (n instanceof Long l) return l;
            if (n instanceof Double d && LuaNumbers.floatToInteger(d) != null) return LuaNumbers.floatToInteger(d);
            throw LuaError.of("object length is not an integer");
        }
        if (v instanceof LuaString s) return s.length();
        if (v instanceof LuaTable t) return t.length();
        throw LuaError.of("attempt to get length of a " + LuaValues.typeName(v) + " value");
    }

    @Override
    public LuaString toStringMeta(Object v) {
        if (v instanceof LuaString s) return s;
        if (v instanceof Long l) return LuaNumbers.toLuaString(l);
        if (v instanceof Double d) return LuaNumbers.toLuaString(d);
        return LuaString.of(String.valueOf(v));
    }

    @Override
    public LuaTable getMetatable(Object v) {
        if (v instanceof LuaTable t) return t.getMetatable();
        if (v instanceof Userdata u) return u.getMetatable();
        return null;
    }

    @Override public LuaError errorAt(int level, String message) { return LuaError.of(message); }

    @Override public String functionNameForErrors() { return callee.qualifiedName; }

    @Override public boolean calledAsMethod() { return false; }
}
