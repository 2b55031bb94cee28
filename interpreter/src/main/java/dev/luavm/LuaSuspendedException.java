package dev.luavm;

import java.util.List;

/**
 * A run paused at a host call because the {@link dev.luavm.host.HostCallPolicy} answered
 * {@link dev.luavm.host.HostCallPolicy.Decision#suspend suspend}: an approval that takes a day
 * need not keep a thread and a process waiting. It carries the pending call (the host
 * function's grant name and its arguments, converted as the host function would have received
 * them) and a {@link #snapshot()} of the run: keep it anywhere, and
 * {@link LuaVM#resume(byte[], Capabilities, Limits, Object...)} continues the run, in any JVM, as
 * if the call had returned what the host gives then.
 *
 * <p>The sandbox the run paused in is left as after a cancelled run (the paused run lives on
 * only in the snapshot); it may run again. Each snapshot resumes once ({@link ResumeLedger}).
 */
public final class LuaSuspendedException extends LuaException {
    private final byte[] snapshot;
    private final String callName;
    private final List<Object> arguments;

    LuaSuspendedException(byte[] snapshot, String callName, List<Object> arguments) {
        super("run paused at host function '" + callName + "'", null);
        this.snapshot = snapshot;
        this.callName = callName;
        this.arguments = arguments == null ? List.of() : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(arguments));
    }

    /** The snapshot of the paused run (a copy): what {@link LuaVM#resume} takes. */
    public byte[] snapshot() {
        return snapshot.clone();
    }

    /** The grant name of the host function the run paused at ({@code "payments.refund"}). */
    public String callName() {
        return callName;
    }

    /** The call's arguments, as the host function would have received them (nil as null). */
    public List<Object> arguments() {
        return arguments;
    }
}
