package dev.luavm.lib;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;
import dev.luavm.vm.LuaError;

/**
 * What a library function (a {@code dev.luavm.value.Builtin}, whose body takes this context)
 * sees of the VM while it runs: its arguments, a place for its results,
 * the sandbox's meters and services, and re-entry into Lua.
 *
 * <p>Argument helpers follow {@code lauxlib}: {@code checkX} raises PUC's
 * {@code bad argument #n to 'name' (x expected, got y)}, {@code optX} returns a default for
 * none or nil. Numbers and strings coerce as in {@code luaL_checkinteger}/{@code luaL_checklstring}.
 *
 * <p>Results: {@code return c.ret(a, b)}; for many results {@link #ensureResults(int)},
 * {@link #setResult(int, Object)} and {@code return n}. Results overwrite the argument slots,
 * so produce them last.
 *
 * <p>Rules for library code (DEVELOPERS.md): charge gas with {@link #chargeGas(long)} before any
 * work proportional to input size (byte work with {@link #chargeBytes(long)}: the rule of
 * docs/STDLIB.md, "What gas pays for"), charge memory (through {@link #memory()} or the allocating
 * helpers here) before allocating, never touch {@code System.*}, files or threads: the host
 * environment reaches the script only through {@link #host()}.
 */
public abstract class CallContext {
    // ---- arguments (implemented by the VM)

    /** Number of arguments passed. */
    public abstract int nargs();

    /** Argument {@code i} (1-based); nil beyond {@link #nargs()}. */
    public abstract Object arg(int i);

    // ---- results (implemented by the VM)

    /** Makes room for {@code n} results ("too many results" error when over the stack limit). */
    public abstract void ensureResults(int n);

    /** Sets result {@code i} (0-based); call {@link #ensureResults(int)} first. */
    public abstract void setResult(int i, Object v);

    public int ret() {
        return 0;
    }

    public int ret(Object a) {
        ensureResults(1);
        setResult(0, a);
        return 1;
    }

    public int ret(Object a, Object b) {
        ensureResults(2);
        setResult(0, a);
        setResult(1, b);
        return 2;
    }

    public int ret(Object a, Object b, Object c) {
        ensureResults(3);
        setResult(0, a);
        setResult(1, b);
        setResult(2, c);
        return 3;
    }

    public int retArray(Object[] values, int n) {
        ensureResults(n);
        for (int i = 0; i < n; i++) setResult(i, values[i]);
        return n;
    }

    // ---- sandbox services (implemented by the VM)

    /**
     * Whether this call may pause the run ({@code HostCallPolicy.Decision.suspend}): it was made
     * by Lua code directly (not from inside a library function, a metamethod the VM called from
     * Java, or a finalizer) and the sandbox can snapshot a paused run.
     */
    public boolean canPause() {
        return false;
    }

    /**
     * The signal that pauses the run at this call, for the gateway to throw: the run ends with a
     * snapshot of its state, which a host resumes later as if this call had returned. Only when
     * {@link #canPause()}.
     */
    public RuntimeException pause(String callName, java.util.List<Object> arguments) {
        throw new UnsupportedOperationException("this call cannot pause the run");
    }

    /**
     * The function being called (for error messages). Declared as a {@link LuaFunction} so that
     * this class, which the builtins' bodies take, does not depend on {@code Builtin} in turn
     * (no import circle); the VM's context returns the {@code Builtin} itself.
     */
    public abstract LuaFunction callee();

    /** Charges gas for work about to be done; ends the run when exhausted (not catchable). */
    public abstract void chargeGas(long units);

    /**
     * Charges byte work about to be done (docs/STDLIB.md, "What gas pays for"): 1 gas per 8
     * bytes read, scanned, compared, parsed, copied or written, rounded up; nothing for 0.
     */
    public void chargeBytes(long n) {
        if (n > 0) chargeGas(gasForBytes(n));
    }

    /** The gas {@link #chargeBytes} charges for {@code n} bytes: the byte rule, {@link GasMeter#byteWork}. */
    public static long gasForBytes(long n) {
        return n <= 0 ? 0 : GasMeter.byteWork(n);
    }

    /** The sandbox's memory choke point. */
    public abstract MemoryMeter memory();

    /** The sandbox's global table. */
    public abstract LuaTable globals();

    /** Per-sandbox registry for library state (the string metatable, loaded modules, ...). */
    public abstract LuaTable registry();

    /** Clock, random source, output, module resolver as injected by the host. */
    public abstract HostEnvironment host();

    /** Calls {@code fn} (honouring {@code __call}) from Java; counted against the re-entry cap. */
    public abstract Object[] call(Object fn, Object... args);

    /** Like {@link #call} but returns only the first result (or nil). */
    public Object call1(Object fn, Object... args) {
        Object[] r = call(fn, args);
        return r.length == 0 ? null : r[0];
    }

    /**
     * {@code fn(a, b)}'s first result (or nil): {@link #call1} for the common two-argument case
     * (comparators), which the VM runs with no argument or result array.
     */
    public Object call1(Object fn, Object a, Object b) {
        return call1(fn, new Object[] {a, b});
    }

    /**
     * Calls {@code fn} on an event, as the VM calls a metamethod, a message handler or a
     * finalizer (library code: {@code __pairs}, {@code __gc}): as {@link #call}, except that a
     * builtin called so knows it was not called by code ({@link #calledImplicitly()}).
     */
    public Object[] callImplicitly(Object fn, Object... args) {
        return call(fn, args);
    }

    // ---- provenance (what a host function granted to one module checks)

    /**
     * The module of the nearest Lua function on the running coroutine's stack (the function
     * that called this builtin, or that called the library function calling it), or null when
     * that function belongs to no module or there is no Lua function on the coroutine's stack.
     * See {@link dev.luavm.value.Heat#module}.
     */
    public String callerModule() {
        return null;
    }

    /**
     * True when this builtin runs on an event rather than because code called it: as a
     * metamethod (an operator, an index, {@code __tostring}, {@code __pairs}...), as
     * {@code xpcall}'s message handler or as a {@code __gc} finalizer. A call in Lua code, a
     * {@code __call} and a library function calling a function it was given ({@code pcall},
     * {@code table.sort}) are calls.
     */
    public boolean calledImplicitly() {
        return false;
    }

    /**
     * The hook that gives code a module identity: a function like {@code chunk} (a main chunk just
     * compiled, never yet handed to the script) whose code, and every function that code makes,
     * belongs to {@code module}. Only searchers that load source the host vouches for call it
     * ({@code require} from the module directories or the host resolver; a virtual file system
     * only for mounts the host declares trusted): whatever the script can write must never get an
     * identity, since host functions granted to the module trust it. A context that gives no
     * identities returns {@code chunk} as it is: its code belongs to no module, so grants bound to
     * a module refuse it (fails closed).
     */
    public LuaFunction asModule(LuaFunction chunk, String module) {
        return chunk;
    }

    /** {@code t[k]} with {@code __index}. */
    public abstract Object index(Object t, Object k);

    /** {@code t[k] = v} with {@code __newindex}. */
    public abstract void setIndex(Object t, Object k, Object v);

    /** {@code a < b} with {@code __lt} (as the {@code <} operator). */
    public abstract boolean lessThan(Object a, Object b);

    /** {@code a == b} with {@code __eq}. */
    public abstract boolean equalsLua(Object a, Object b);

    /** {@code #v} with {@code __len}; raises "object length is not an integer" like luaL_len. */
    public abstract long length(Object v);

    /** {@code tostring(v)} with {@code __tostring} and {@code __name}, as luaL_tolstring. */
    public abstract LuaString toStringMeta(Object v);

    /** The metatable of any value (per-sandbox metatables for strings and other basic types). */
    public abstract LuaTable getMetatable(Object v);

    /** Error with position: "chunk:line: msg" where chunk:line is the Lua code calling at {@code level} (1 = caller). */
    public abstract LuaError errorAt(int level, String message);

    /** The name to use for the running function in argument errors (call-site name, else qualified name). */
    public abstract String functionNameForErrors();

    /** True when the running function was called as a method (a:f()); argument numbers shift by one. */
    public abstract boolean calledAsMethod();

    // ---- allocation helpers (charge the meter, then allocate)

    public LuaString newString(byte[] bytes) {
        memory().charge(dev.luavm.meter.Sizes.string(bytes.length));
        return LuaString.wrap(bytes);
    }

    public LuaString newString(String javaString) {
        return newString(javaString.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public LuaTable newTable(int narray, int nhash) {
        return new LuaTable(memory(), narray, nhash);
    }

    // ---- errors

    /** {@code luaL_error}: a message prefixed with the position of the calling Lua code. */
    public LuaError error(String message) {
        return errorAt(1, message);
    }

    /** {@code luaL_argerror}: "bad argument #i to 'f' (msg)" or "calling 'f' on bad self". */
    public LuaError argError(int i, String message) {
        String fname = functionNameForErrors();
        if (calledAsMethod()) {
            i--;
            if (i == 0) return error("calling '" + fname + "' on bad self");
        }
        return error("bad argument #" + i + " to '" + fname + "' (" + message + ")");
    }

    /** {@code luaL_typeerror}: "bad argument #i to 'f' (number expected, got nil)". */
    public LuaError typeError(int i, String expected) {
        Object v = arg(i);
        String actual;
        LuaTable mt = getMetatable(v);
        Object name = mt == null ? null : mt.get(LuaString.of("__name"));
        if (name instanceof LuaString s) actual = s.toString();
        else if (i > nargs()) actual = "no value";
        else actual = LuaValues.typeName(v);
        return argError(i, expected + " expected, got " + actual);
    }

    // ---- argument checks

    public Object checkAny(int i) {
        if (i > nargs()) throw argError(i, "value expected");
        return arg(i);
    }

    public boolean isNoneOrNil(int i) {
        return i > nargs() || arg(i) == null;
    }

    public long checkInteger(int i) {
        Object v = arg(i);
        if (v instanceof Long l) return l;
        if (v instanceof Double d) {
            Long l = LuaNumbers.floatToInteger(d);
            if (l == null) throw argError(i, "number has no integer representation");
            return l;
        }
        if (v instanceof LuaString s) {
            if (s.length() > LuaNumbers.FREE_NUMERAL_BYTES) chargeGas(LuaNumbers.parseWork(s));
            Object n = LuaNumbers.parse(s);
            if (n instanceof Long l) return l;
            if (n instanceof Double d) {
                Long l = LuaNumbers.floatToInteger(d);
                if (l == null) throw argError(i, "number has no integer representation");
                return l;
            }
        }
        throw typeError(i, "number");
    }

    public long optInteger(int i, long def) {
        return isNoneOrNil(i) ? def : checkInteger(i);
    }

    /** A number argument as a Java double (integers converted). */
    public double checkNumber(int i) {
        Object v = checkNumberValue(i);
        return v instanceof Long l ? (double) l : (Double) v;
    }

    public double optNumber(int i, double def) {
        return isNoneOrNil(i) ? def : checkNumber(i);
    }

    /** A number argument keeping its subtype: {@code Long} or {@code Double} (strings coerced). */
    public Object checkNumberValue(int i) {
        Object v = arg(i);
        if (v instanceof Long || v instanceof Double) return v;
        if (v instanceof LuaString s) {
            if (s.length() > LuaNumbers.FREE_NUMERAL_BYTES) chargeGas(LuaNumbers.parseWork(s));
            Object n = LuaNumbers.parse(s);
            if (n != null) return n;
        }
        throw typeError(i, "number");
    }

    /** A string argument; numbers are converted as luaL_checklstring does. */
    public LuaString checkString(int i) {
        Object v = arg(i);
        if (v instanceof LuaString s) return s;
        if (v instanceof Long l) return LuaNumbers.toLuaString(l);
        if (v instanceof Double d) return LuaNumbers.toLuaString(d);
        throw typeError(i, "string");
    }

    public LuaString optString(int i, LuaString def) {
        return isNoneOrNil(i) ? def : checkString(i);
    }

    public LuaTable checkTable(int i) {
        if (arg(i) instanceof LuaTable t) return t;
        throw typeError(i, "table");
    }

    public LuaFunction checkFunction(int i) {
        if (arg(i) instanceof LuaFunction f) return f;
        throw typeError(i, "function");
    }

    /** luaL_checktype: "bad argument #i to 'f' (T expected, got U)". */
    public void checkType(int i, String typeName) {
        if (i > nargs() || !LuaValues.typeName(arg(i)).equals(typeName)) throw typeError(i, typeName);
    }

    /** luaL_checkoption: the index of the argument in {@code options}, else "invalid option 'x'". */
    public int checkOption(int i, String def, String... options) {
        LuaString s = def != null && isNoneOrNil(i) ? LuaString.of(def) : checkString(i);
        String str = s.toString();
        for (int k = 0; k < options.length; k++) {
            if (options[k].equals(str)) return k;
        }
        throw argError(i, "invalid option '" + str + "'");
    }

    public boolean toBoolean(int i) {
        return LuaValues.isTruthy(arg(i));
    }
}
