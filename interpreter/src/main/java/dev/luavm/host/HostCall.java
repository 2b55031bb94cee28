package dev.luavm.host;

import dev.luavm.lib.CallContext;

import java.util.List;

/**
 * One call from Lua into a {@link HostFunction}: the function's name, its arguments converted to
 * Java, and the few sandbox services a host function may use while it runs (charging gas for its
 * own work, noticing cancellation). Policies see the same object before the call.
 *
 * <p>Valid only during the call and on the sandbox's thread; the argument list is immutable.
 */
public final class HostCall {
    private final String sandboxName;
    private final String name;
    private final List<Object> args;
    private final CallContext context;
    private final HostGateway gateway;
    private final Thread thread;
    private boolean active = true;

    HostCall(String sandboxName, String name, List<Object> args, CallContext context, HostGateway gateway) {
        this.sandboxName = sandboxName;
        this.name = name;
        this.args = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(args));
        this.context = context;
        this.gateway = gateway;
        this.thread = Thread.currentThread();
    }

    /** The name of the sandbox making the call (for audit logs). */
    public String sandboxName() {
        return sandboxName;
    }

    /** The name the function was granted under ("invoice.lookup_vendor"). */
    public String name() {
        return name;
    }

    /** The arguments, converted to Java (nil is null). */
    public List<Object> args() {
        return args;
    }

    /** Argument {@code i} (0-based), null when absent. */
    public Object arg(int i) {
        return i < args.size() ? args.get(i) : null;
    }

    /** Argument {@code i} (0-based) as a String; a Lua number is converted as Lua would. */
    public String stringArg(int i) throws HostFunctionException {
        Object v = arg(i);
        if (v instanceof String s) return s;
        if (v instanceof byte[] b) return new String(b, java.nio.charset.StandardCharsets.UTF_8);
        if (v instanceof Long || v instanceof Double) return luaNumberText(v);
        throw badArgument(i, "string", v);
    }

    /** Argument {@code i} (0-based) as an integer (a float with an exact integer value is accepted). */
    public long longArg(int i) throws HostFunctionException {
        Object v = arg(i);
        if (v instanceof Long l) return l;
        if (v instanceof Double d) {
            Long l = dev.luavm.value.LuaNumbers.floatToInteger(d);
            if (l != null) return l;
            throw new HostFunctionException("bad argument #" + (i + 1) + " to '" + name + "' (number has no integer representation)");
        }
        throw badArgument(i, "number", v);
    }

    /** Argument {@code i} (0-based) as a double. */
    public double doubleArg(int i) throws HostFunctionException {
        Object v = arg(i);
        if (v instanceof Number n) return n.doubleValue();
        throw badArgument(i, "number", v);
    }

    /** "bad argument #2 to 'f' (number expected, got nil)", as Lua's own functions say it. */
    public HostFunctionException badArgument(int i, String expected, Object got) {
        return new HostFunctionException("bad argument #" + (i + 1) + " to '" + name + "' (" + expected
                + " expected, got " + (i >= args.size() ? "no value" : javaTypeToLua(got)) + ")");
    }

    /**
     * Charges gas for work the host function does on the script's behalf (for example one unit
     * per record returned). Ends the run, uncatchably, when the budget is exhausted or the
     * sandbox was cancelled.
     */
    public void chargeGas(long units) {
        checkActive();
        context.chargeGas(units);
    }

    /** True once {@code Sandbox.cancel()} was called; a long host function should then return. */
    public boolean isCancelled() {
        return gateway.isCancelled();
    }

    void finish() {
        active = false;
    }

    private void checkActive() {
        if (!active || Thread.currentThread() != thread) {
            throw new IllegalStateException("HostCall used outside its call");
        }
    }

    private static String luaNumberText(Object v) {
        return v instanceof Long l ? Long.toString(l) : dev.luavm.value.LuaNumbers.toString((Double) v);
    }

    private static String javaTypeToLua(Object v) {
        if (v == null) return "nil";
        if (v instanceof Boolean) return "boolean";
        if (v instanceof Number) return "number";
        if (v instanceof String || v instanceof byte[]) return "string";
        if (v instanceof java.util.Map || v instanceof java.util.List) return "table";
        if (v instanceof dev.luavm.LuaHandle h) return h.type();
        return "userdata";
    }

    @Override
    public String toString() {
        return name + args;
    }
}
