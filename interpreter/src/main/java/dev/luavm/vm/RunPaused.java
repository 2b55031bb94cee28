package dev.luavm.vm;

import java.util.List;

/**
 * The signal that pauses a run at a host call ({@code HostCallPolicy.Decision.suspend}): thrown
 * by the gateway through {@code CallContext.pause}, caught where the VM called the host function
 * ({@link Calls#callBuiltin}), which leaves a marker frame ({@link CallFrame#SUSPEND}) in its
 * place; when the dispatch loop reaches the marker it throws this again, and the error path
 * (which saves the pc and charges the gas counter, as for an error) stops at once: before
 * anything is unwound, the state's pause handler takes its snapshot ({@link VmSnapshots#onPause}),
 * then the run ends as after a termination. A {@link LuaError} only to travel the VM's error
 * paths: no {@code pcall} ever catches it. Carries no stack trace.
 */
public final class RunPaused extends LuaError {
    private final String callName;
    private final List<Object> arguments;
    /** the snapshot the pause handler took, or null */
    public byte[] snapshot;
    /** why the handler could not take it, or null */
    public RuntimeException failure;

    RunPaused(String callName, List<Object> arguments) {
        super(dev.luavm.value.LuaString.of("run paused at " + callName));
        this.callName = callName;
        this.arguments = arguments;
    }

    /** The host function's grant name. */
    public String callName() {
        return callName;
    }

    /** The call's arguments as the gateway converted them for the host. */
    public List<Object> arguments() {
        return arguments;
    }
}
