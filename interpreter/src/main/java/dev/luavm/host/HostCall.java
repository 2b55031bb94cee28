package dev.luavm.host;

import dev.luavm.lib.CallContext;

import java.time.Duration;
import java.util.List;

/**
 * One call from Lua into a {@link HostFunction}: the grant called, its arguments converted to
 * Java, and the few sandbox services a host function may use while it runs (charging gas for its
 * own work, noticing cancellation). Policies see the same object before the call, through its
 * read-only view {@link CallRequest}.
 *
 * <p>Valid only during the call and on the thread running the function: a host-call thread,
 * or the sandbox's own thread for a grant declared {@code onSandboxThread} (see
 * {@link HostGateway}). On a host-call thread, what touches the sandbox is handed over safely:
 * {@link #chargeGas} and the caller's position are read while the sandbox's thread is held off,
 * and {@link #callLua} runs the Lua function on the sandbox's thread. A call abandoned at its
 * run's deadline is over: everything here that touches the sandbox then throws
 * {@code IllegalStateException}. The argument list is immutable.
 */
public final class HostCall implements CallRequest {
    private final String sandboxName;
    private final HostGrant grant;
    private final List<Object> args;
    private final CallContext context;
    private final HostGateway gateway;
    private final Thread thread;
    private final long callNumber;
    private final long previousRun;
    private final long previousSandbox;
    private final dev.luavm.audit.AuditTrail run;
    /** elapsed run time at the call, or -1 until first asked */
    private long elapsedNanos;
    private volatile boolean active = true;
    /** the exchange with the sandbox's thread while the function runs on a host-call thread, else null */
    private volatile OffThreadCall offThread;
    /** the caller's position, worked out when first asked: null = not yet */
    private String chunk;
    private int line = -1;

    HostCall(String sandboxName, HostGrant grant, List<Object> args, CallContext context, HostGateway gateway,
             long callNumber, long previousRun, long previousSandbox, long elapsedNanos, dev.luavm.audit.AuditTrail run) {
        this.sandboxName = sandboxName;
        this.grant = grant;
        this.args = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(args));
        this.context = context;
        this.gateway = gateway;
        this.thread = Thread.currentThread();
        this.callNumber = callNumber;
        this.previousRun = previousRun;
        this.previousSandbox = previousSandbox;
        this.elapsedNanos = elapsedNanos;
        this.run = run;
    }

    /** The name of the sandbox making the call (for audit logs). */
    @Override
    public String sandboxName() {
        return sandboxName;
    }

    /** The name the function was granted under ("invoice.lookup_vendor"). */
    @Override
    public String name() {
        return grant.path();
    }

    @Override
    public HostGrant grant() {
        return grant;
    }

    /** The arguments, converted to Java (nil is null). */
    @Override
    public List<Object> args() {
        return args;
    }

    /** Argument {@code i} (0-based), null when absent. */
    @Override
    public Object arg(int i) {
        return i < args.size() ? args.get(i) : null;
    }

    @Override
    public long callNumber() {
        return callNumber;
    }

    @Override
    public long previousCallsThisRun() {
        return previousRun;
    }

    @Override
    public long previousCallsThisSandbox() {
        return previousSandbox;
    }

    @Override
    public Duration elapsed() {
        return Duration.ofNanos(elapsedNanos());
    }

    private long elapsedNanos() {
        if (elapsedNanos < 0) elapsedNanos = run.elapsedNanos();
        return elapsedNanos;
    }

    @Override
    public String chunk() {
        position();
        return chunk.isEmpty() ? null : chunk;
    }

    @Override
    public int line() {
        position();
        return line;
    }

    /** Works out "chunk:line" of the calling Lua code from the VM (luaL_where), on first use. */
    private void position() {
        if (chunk != null) return;
        String where = onVm(() -> context.errorAt(1, "").getMessage());
        chunk = "";
        if (where == null || !where.endsWith(": ")) return;
        String s = where.substring(0, where.length() - 2);
        int colon = s.lastIndexOf(':');
        if (colon < 0) return;
        try {
            line = Integer.parseInt(s.substring(colon + 1));
            chunk = s.substring(0, colon);
        } catch (NumberFormatException e) {
            line = -1;
        }
    }

    /** An immutable copy of the request view, for an operator on another thread. */
    CallRequest snapshot() {
        position();
        return new Snapshot(sandboxName, grant, args, callNumber, previousRun, previousSandbox,
                Duration.ofNanos(elapsedNanos()), chunk(), line);
    }

    private record Snapshot(String sandboxName, HostGrant grant, List<Object> args, long callNumber,
                            long previousCallsThisRun, long previousCallsThisSandbox, Duration elapsed, String chunk,
                            int line) implements CallRequest {
        @Override
        public String toString() {
            return grant.path() + args;
        }
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
            throw new HostFunctionException("bad argument #" + (i + 1) + " to '" + grant.path() + "' (number has no integer representation)");
        }
        throw badArgument(i, "number", v);
    }

    /**
     * Argument {@code i} (0-based) converted to {@code type} by the rules of
     * {@link dev.luavm.TypedAccess} ({@code call.arg(0, int.class)}, {@code call.arg(1, String[].class)}).
     *
     * @param <T> the requested type
     * @param i the argument's position, from 0
     * @param type the Java type wanted
     * @return the argument as {@code type}; an absent argument reads as nil
     * @throws HostFunctionException "bad argument #1 to 'f' (cannot convert ...)", for the script to see
     */
    public <T> T arg(int i, Class<T> type) throws HostFunctionException {
        try {
            return dev.luavm.TypedAccess.as(arg(i), type);
        } catch (dev.luavm.LuaConversionException e) {
            throw new HostFunctionException("bad argument #" + (i + 1) + " to '" + grant.path() + "' (" + e.getMessage() + ")");
        }
    }

    /** Argument {@code i} (0-based) as a double. */
    public double doubleArg(int i) throws HostFunctionException {
        Object v = arg(i);
        if (v instanceof Number n) return n.doubleValue();
        throw badArgument(i, "number", v);
    }

    /** "bad argument #2 to 'f' (number expected, got nil)", as Lua's own functions say it. */
    public HostFunctionException badArgument(int i, String expected, Object got) {
        return new HostFunctionException("bad argument #" + (i + 1) + " to '" + grant.path() + "' (" + expected
                + " expected, got " + (i >= args.size() ? "no value" : javaTypeToLua(got)) + ")");
    }

    /**
     * Charges gas for work the host function does on the script's behalf (for example one unit
     * per record returned). Ends the run, uncatchably, when the budget is exhausted or the
     * sandbox was cancelled.
     */
    public void chargeGas(long units) {
        onVm(() -> {
            context.chargeGas(units);
            return null;
        });
    }

    /**
     * Calls a Lua function the script passed to this call (an argument that arrived as a
     * {@link dev.luavm.LuaHandle}) and returns its results converted to Java. The arguments and
     * results are converted and charged as a host call's are; a Lua error in the function
     * propagates (as the VM's error, which the gateway passes on to the script unchanged), and
     * gas, time and cancellation end the run as anywhere else. Valid only during this call and
     * on the sandbox's thread.
     */
    @SuppressWarnings("unchecked")
    public List<Object> callLua(dev.luavm.LuaHandle function, Object... args) {
        checkActive();
        java.util.Objects.requireNonNull(function, "function");
        OffThreadCall x = offThread;
        if (x == null) return gateway.callBack(context, function, args, true);
        return (List<Object>) x.onSandboxThread(() -> gateway.callBack(context, function, args, false));
    }

    /** True once {@code Sandbox.cancel()} was called; a long host function should then return. */
    public boolean isCancelled() {
        return gateway.isCancelled();
    }

    /** The function now runs on a host-call thread, through {@code x}. */
    void handOff(OffThreadCall x) {
        offThread = x;
    }

    void finish() {
        active = false;
    }

    private void checkActive() {
        OffThreadCall x = offThread;
        if (!active || (x == null ? Thread.currentThread() != thread : !x.isWorker())) {
            throw new IllegalStateException("HostCall used outside its call");
        }
    }

    /** Runs a quick read or charge of the sandbox's state for the function, on whichever thread runs it. */
    private <T> T onVm(java.util.function.Supplier<T> action) {
        checkActive();
        OffThreadCall x = offThread;
        return x == null ? action.get() : x.inVm(action);
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
        return grant.path() + args;
    }
}
