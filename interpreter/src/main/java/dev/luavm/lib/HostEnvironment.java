package dev.luavm.lib;

/**
 * Everything of the outside world that a sandbox may see, injected by the host: the only way
 * clock, randomness, output and modules reach a script. Library code never touches
 * {@code System.*}, files or threads directly.
 */
public interface HostEnvironment {
    /** Wall-clock time in milliseconds since the epoch (for {@code os.time}/{@code os.date}). */
    long currentTimeMillis();

    /** A monotonic clock in nanoseconds for the VM's deadlines; never shown to a script. */
    long nanoTime();

    /**
     * The clock {@code os.clock} shows, in nanoseconds: by default {@link #nanoTime()}; a sandbox
     * records its readings for replay and may make it virtual (deterministic runs).
     */
    default long cpuClockNanos() {
        return nanoTime();
    }

    /** The seed for the sandbox's random generator; fixed when the host wants determinism. */
    long randomSeed();

    /** Where {@code print} writes; bytes as Lua produced them. */
    void write(byte[] bytes, int offset, int length);

    /** Source of a module for {@code require}, or null when the host has none by that name. */
    default byte[] resolveModule(String name) {
        return null;
    }

    /** True when the host gave a module resolver ({@link #resolveModule} may find something). */
    default boolean hasModuleResolver() {
        return false;
    }

    /** The directories {@code require} may read Lua modules from, or null when the host gave none. */
    default dev.luavm.host.ModuleFiles moduleFiles() {
        return null;
    }

    /** The host's input for {@code io.read}, {@code io.lines} and {@code io.stdin}, or null when it gives none. */
    default java.io.InputStream input() {
        return null;
    }

    /** Where {@code io.stderr} writes; it shares the run's output budget with {@link #write}. */
    default void writeError(byte[] bytes, int offset, int length) {
        write(bytes, offset, length);
    }

    /** Passes on output the host holds back ({@code io.flush}, {@code file:flush}). */
    default void flush() {
    }

    /** Ends the run for {@code os.exit(status)}: throws, never returns. */
    default RuntimeException exit(int status) {
        throw new UnsupportedOperationException("os.exit");
    }

    /**
     * Ends the run for {@code os.exit(status, close)}: as {@link #exit(int)}; {@code close} is
     * the script's second argument, which asks for the state to be closed (its pending
     * {@code __gc} finalizers run when the host closes the sandbox, as {@code lua_close} runs
     * them; without it they do not, as lua5.3 exits without closing).
     */
    default RuntimeException exit(int status, boolean close) {
        return exit(status);
    }

    /** The sandbox's file system ({@code io.open}, {@code os.remove}, ...), or null when the host granted none. */
    default FileSystem fileSystem() {
        return null;
    }

    /** Local time zone offset in seconds east of UTC at the given instant (for os.date without '!'). */
    default int zoneOffsetSeconds(long epochSeconds) {
        return 0;
    }
}
