package dev.luavm.stdlib;

import dev.luavm.lib.CallContext;
import dev.luavm.lib.HostEnvironment;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;
import dev.luavm.vm.LuaError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A stand-in for the VM's {@link CallContext}, for unit tests of library functions: fixed
 * arguments, a result list, a gas counter with an optional budget and a memory meter. Errors
 * carry no position (as when PUC's function is called through pcall) and name the function by
 * its qualified name ("string.rep"), as PUC does when no call-site name is known. {@link #call}
 * runs {@link Builtin}s only (Java lambdas standing in for Lua functions).
 */
public final class TestContext extends CallContext {
    /** Thrown when the gas budget is exhausted (the VM ends the run; tests just catch this). */
    public static final class OutOfGas extends RuntimeException {
        public OutOfGas(long used) {
            super("out of gas after " + used, null, false, false);
        }
    }

    private final Builtin callee;
    private final Object[] args;
    private final List<Object> results = new ArrayList<>();
    private final MemoryMeter meter;
    private final long gasBudget;
    private long gas;
    private LuaTable stringMeta;

    public TestContext(Builtin callee, MemoryMeter meter, long gasBudget, Object... args) {
        this.callee = callee;
        this.args = args;
        this.meter = meter;
        this.gasBudget = gasBudget;
    }

    public TestContext(Builtin callee, Object... args) {
        this(callee, MemoryMeter.unlimited(), Long.MAX_VALUE, args);
    }

    /** Runs the callee and returns its results. */
    public Object[] run() {
        int n = callee.call(this);
        if (n != results.size()) throw new AssertionError("returned " + n + " but set " + results.size());
        return results.toArray();
    }

    public long gasUsed() {
        return gas;
    }

    public MemoryMeter meter() {
        return meter;
    }

    @Override public int nargs() { return args.length; }

    @Override public Object arg(int i) { return i >= 1 && i <= args.length ? args[i - 1] : null; }

    @Override
    public void ensureResults(int n) {
        results.clear();
        for (int i = 0; i < n; i++) results.add(null);
    }

    @Override public void setResult(int i, Object v) { results.set(i, v); }

    @Override public Builtin callee() { return callee; }

    @Override
    public void chargeGas(long units) {
        if (units < 0) throw new AssertionError("negative gas " + units);
        gas += units;
        if (gas > gasBudget) throw new OutOfGas(gas);
    }

    @Override public MemoryMeter memory() { return meter; }

    @Override public LuaTable globals() { throw new UnsupportedOperationException(); }

    @Override public LuaTable registry() { throw new UnsupportedOperationException(); }

    @Override public HostEnvironment host() { throw new UnsupportedOperationException(); }

    @Override
    public Object[] call(Object fn, Object... callArgs) {
        if (!(fn instanceof Builtin b)) throw new UnsupportedOperationException("only Builtins in tests");
        TestContext inner = new TestContext(b, meter, gasBudget - gas, callArgs);
        Object[] r = inner.run();
        gas += inner.gas;
        return r;
    }

    @Override
    public Object index(Object t, Object k) {
        if (t instanceof LuaTable table) return table.get(k);
        throw new UnsupportedOperationException();
    }

    @Override public void setIndex(Object t, Object k, Object v) { throw new UnsupportedOperationException(); }

    @Override public boolean lessThan(Object a, Object b) { throw new UnsupportedOperationException(); }

    @Override public boolean equalsLua(Object a, Object b) { return java.util.Objects.equals(a, b); }

    @Override public long length(Object v) { throw new UnsupportedOperationException(); }

    /** luaL_tolstring, with {@code __tostring} run through {@link #call}. */
    @Override
    public LuaString toStringMeta(Object v) {
        if (v instanceof LuaString s) return s;
        if (v instanceof Long l) return LuaNumbers.toLuaString(l);
        if (v instanceof Double d) return LuaNumbers.toLuaString(d);
        if (v == null) return LuaString.of("nil");
        if (v instanceof Boolean b) return LuaString.of(b.toString());
        LuaTable mt = getMetatable(v);
        if (mt != null) {
            Object ts = mt.get(LuaString.of("__tostring"));
            if (ts != null) {
                Object r = call1(ts, v);
                if (r instanceof LuaString s) return s;
                throw errorAt(1, "'__tostring' must return a string");
            }
        }
        return LuaString.of(LuaValues.typeName(v) + ": 0x0");
    }

    @Override
    public LuaTable getMetatable(Object v) {
        if (v instanceof LuaTable t) return t.getMetatable();
        if (v instanceof LuaString) return stringMeta;
        return null;
    }

    public void setStringMetatable(LuaTable mt) {
        this.stringMeta = mt;
    }

    @Override public LuaError errorAt(int level, String message) { return LuaError.of(message); }

    @Override public String functionNameForErrors() { return callee.qualifiedName; }

    @Override public boolean calledAsMethod() { return false; }

    @Override
    public String toString() {
        return callee.qualifiedName + Arrays.toString(args);
    }
}
