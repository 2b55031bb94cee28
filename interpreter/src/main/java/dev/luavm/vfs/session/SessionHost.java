package dev.luavm.vfs.session;

import dev.luavm.lib.CallContext;

import java.util.List;
import java.util.concurrent.Callable;

/** What a {@link Session} needs of its sandbox: host work under the deadline, the gateway, meters, the seed. */
public interface SessionHost {
    /**
     * Runs a backend call as host functions run: cancel and the run's deadline interrupt it, and
     * the run then ends (the call throws the VM's termination).
     */
    <T> T hostWork(Callable<T> work) throws Exception;

    /**
     * Asks the gateway for a {@code writes:fs} event ({@code fs.write}, {@code fs.remove},
     * {@code fs.rename} with {@code args}): the policy decides, the audit log records it. False
     * when it was refused.
     */
    boolean approve(CallContext c, String operation, List<String> args);

    /** The sandbox's memory, for buffers and in-memory files. */
    MemoryAccount memory();

    /** Charges the byte rule for {@code n} bytes taken from a backend. */
    void chargeBytes(long n);

    /** The sandbox's random seed (os.tmpname's names). */
    long seed();
}
