package dev.luavm;

import dev.luavm.lib.HostEnvironment;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Function;

/**
 * The one place where a sandbox touches the outside world ({@link HostEnvironment}): the clock,
 * the random seed, output and modules, all chosen by the host through {@link Sandbox.Builder}.
 *
 * <p>Output is metered here: {@link #write} passes on at most what is left of the run's output
 * budget, then calls {@code onOverflow}, which ends the run (what fit is kept). {@code os.clock}
 * counts from the sandbox's creation, so it reveals nothing about the host's uptime.
 */
final class SandboxEnvironment implements HostEnvironment {
    private final Clock clock;
    private final long seed;
    private final OutputSink sink;
    private final Function<String, String> modules;
    private final dev.luavm.host.ModuleFiles moduleFiles;
    private final java.io.InputStream input;
    private final OutputSink errorSink;
    private final long createdNanos = System.nanoTime();

    private long outputLimit;
    private long outputUsed;
    // no-ops until set; not lambdas, which cost start-up (PROFILE.md, "builtins without invokedynamic")
    private Runnable onOverflow = NoOp.INSTANCE;
    private java.util.function.LongConsumer clockReads = NoOp.INSTANCE;
    private java.util.function.LongConsumer cpuClockReads = NoOp.INSTANCE;
    private java.util.function.BiConsumer<String, String> moduleReads = NoOp.INSTANCE;
    /** what os.clock reads (nanoseconds); null: time since the sandbox was created */
    private java.util.function.LongSupplier cpuClock;
    /** the run's output digest when recording, else null */
    private java.security.MessageDigest outputDigest;

    /** the sandbox's file system session, or null when none was granted */
    private dev.luavm.lib.FileSystem fileSystem;

    private Runnable onExit = NoOp.INSTANCE;
    private int exitStatus;
    private boolean exitClose;

    SandboxEnvironment(Clock clock, long seed, OutputSink sink, Function<String, String> modules) {
        this(clock, seed, sink, modules, null, null, null);
    }

    SandboxEnvironment(Clock clock, long seed, OutputSink sink, Function<String, String> modules,
                       dev.luavm.host.ModuleFiles moduleFiles, java.io.InputStream input, OutputSink errorSink) {
        this.clock = clock;
        this.seed = seed;
        this.sink = sink;
        this.modules = modules;
        this.moduleFiles = moduleFiles;
        // one buffer for the sandbox's life, so what a read looked ahead at is never lost
        this.input = input == null ? null : new java.io.BufferedInputStream(input);
        this.errorSink = errorSink != null ? errorSink : sink;
    }

    /** What {@link #exit} runs; it must throw to end the run. */
    void onExit(Runnable onExit) {
        this.onExit = onExit;
    }

    /** The status of the latest {@code os.exit}. */
    int exitStatus() {
        return exitStatus;
    }

    /** Whether the latest {@code os.exit} asked for the state to be closed (its second argument). */
    boolean exitClose() {
        return exitClose;
    }

    /** Starts a run's output budget; {@code onOverflow} must throw to end the run. */
    void startRun(long limit, Runnable onOverflow) {
        this.outputLimit = limit;
        this.outputUsed = 0;
        this.onOverflow = onOverflow;
        if (outputDigest != null) outputDigest.reset();
    }

    /** Counts output a paused run wrote before its snapshot against this run's limit (a resumed run). */
    void carryOutput(long bytes) {
        outputUsed = Math.max(0, bytes);
    }

    /** Digest every run's output (for the recording's {@code OUTPUT} event). */
    void digestOutput() {
        try {
            outputDigest = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Hex SHA-256 of the run's output so far, or null when not digesting. */
    String outputSha256() {
        if (outputDigest == null) return null;
        try {
            return java.util.HexFormat.of().formatHex(((java.security.MessageDigest) outputDigest.clone()).digest());
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The zone of the clock behind os.date (recorded for replay). */
    String zoneId() {
        return clock.getZone().getId();
    }

    /** What os.clock reads, in nanoseconds (default: time since the sandbox was created). */
    void cpuClock(java.util.function.LongSupplier nanos) {
        this.cpuClock = nanos;
    }

    /** Who is told of each module source the host resolves for require (the recording keeps them). */
    void onModuleRead(java.util.function.BiConsumer<String, String> listener) {
        this.moduleReads = listener;
    }

    /** Who is told of each os.clock reading (the recording keeps its changes). */
    void onCpuClockRead(java.util.function.LongConsumer listener) {
        this.cpuClockReads = listener;
    }

    @Override
    public long cpuClockNanos() {
        long t = cpuClock != null ? cpuClock.getAsLong() : nanoTime();
        cpuClockReads.accept(t);
        return t;
    }

    long outputUsed() {
        return outputUsed;
    }

    @Override
    public long currentTimeMillis() {
        long t = clock.millis();
        clockReads.accept(t);
        return t;
    }

    /** Who is told of each wall-clock reading (the audit log records its changes, for replay). */
    void onClockRead(java.util.function.LongConsumer listener) {
        this.clockReads = listener;
    }

    @Override
    public long nanoTime() {
        return System.nanoTime() - createdNanos;
    }

    @Override
    public long randomSeed() {
        return seed;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        write(sink, bytes, offset, length);
    }

    @Override
    public void writeError(byte[] bytes, int offset, int length) {
        write(errorSink, bytes, offset, length);
    }

    @Override
    public void flush() {
        sink.flush();
        if (errorSink != sink) errorSink.flush();
    }

    @Override
    public boolean hasModuleResolver() {
        return modules != null;
    }

    @Override
    public dev.luavm.host.ModuleFiles moduleFiles() {
        return moduleFiles;
    }

    void fileSystem(dev.luavm.lib.FileSystem fs) {
        this.fileSystem = fs;
    }

    @Override
    public dev.luavm.lib.FileSystem fileSystem() {
        return fileSystem;
    }

    @Override
    public java.io.InputStream input() {
        return input;
    }

    @Override
    public RuntimeException exit(int status) {
        return exit(status, false);
    }

    @Override
    public RuntimeException exit(int status, boolean close) {
        exitClose = close;
        exitStatus = status;
        onExit.run();
        throw new IllegalStateException("exit handler returned");
    }

    private void write(OutputSink sink, byte[] bytes, int offset, int length) {
        long room = outputLimit - outputUsed;
        if (length <= room) {
            outputUsed += length;
            if (outputDigest != null) outputDigest.update(bytes, offset, length);
            sink.write(bytes, offset, length);
            return;
        }
        if (room > 0) {
            outputUsed += room;
            if (outputDigest != null) outputDigest.update(bytes, offset, (int) room);
            sink.write(bytes, offset, (int) room);
        }
        onOverflow.run();
        throw new IllegalStateException("output limit handler returned");
    }

    /** The host resolver's source of module {@code name}, or null; nobody is told (a snapshot's check, outside any run). */
    byte[] moduleSource(String name) {
        String src = modules == null ? null : modules.apply(name);
        return src == null ? null : src.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] resolveModule(String name) {
        String src = modules == null ? null : modules.apply(name);
        moduleReads.accept(name, src);
        return src == null ? null : src.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int zoneOffsetSeconds(long epochSeconds) {
        return clock.getZone().getRules().getOffset(Instant.ofEpochSecond(epochSeconds)).getTotalSeconds();
    }

    /** The hooks' default: does nothing. */
    private enum NoOp implements Runnable, java.util.function.LongConsumer, java.util.function.BiConsumer<String, String> {
        INSTANCE;

        @Override
        public void run() {
        }

        @Override
        public void accept(long value) {
        }

        @Override
        public void accept(String a, String b) {
        }
    }
}
