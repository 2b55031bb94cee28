package dev.luavm.host;

/**
 * A Java function a host grants to scripts (see {@code Capabilities.Builder#grant}).
 *
 * <p>It receives the Lua arguments converted to Java values ({@link HostCall#args()}) and returns
 * one Java value, converted back to Lua (null for nil); {@link Results#of} returns several values
 * and {@link Results#none()} none. Whatever it throws becomes a Lua error: a
 * {@link HostFunctionException}'s message reaches the script as written; any other exception
 * reaches it only as {@code host function 'name' failed}, while the host gets the exception back
 * as the cause of the {@code LuaScriptException} if the script does not catch the error.
 *
 * <p>It runs on a host-call thread, not the sandbox's (unless declared
 * {@code onSandboxThread()}). A function that blocks should respond to interruption: the run's
 * deadline and {@code Sandbox.cancel()} interrupt it; one that is still running
 * {@link HostGateway#GRACE_MILLIS} ms later is abandoned (the run ends, its result is dropped
 * when it returns). See {@link HostGateway} and docs/API.md, "Host calls at the deadline".
 */
@FunctionalInterface
public interface HostFunction {
    /**
     * Runs the function.
     *
     * @param call the arguments and the sandbox services of this call
     * @return the result (null for nil), or {@link Results} for several
     * @throws Exception becomes a Lua error (see above)
     */
    Object call(HostCall call) throws Exception;
}
