package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Snapshot and restore in a warm JVM ({@code Sandbox.snapshot()}, {@code
 * Sandbox.Builder.restoreFrom}): µs per operation for an empty sandbox (the standard libraries
 * only) and for a state of about 1 MiB counted memory (numbers, strings, nested tables,
 * closures, suspended coroutines, loaded chunks). {@link #main} prints each state's snapshot size
 * and counted memory, from which RESULTS.md derives MB/s (snapshot bytes per second).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SnapshotBenchmark {
    /** The states measured: {@code empty}, or {@code state-1m}. */
    @Param({"empty", "state-1m"})
    public String state;

    static final String STATE_1M = String.join("\n",
            "nums = {} for i = 1, 40000 do nums[i] = i * 1.5 end",
            "names = {} for i = 1, 10000 do names['key' .. i] = 'value number ' .. i end",
            "recs = {} for i = 1, 2000 do recs[i] = {id = i, tags = {'a', 'b', 'c'}, ok = i % 2 == 0} end",
            "fns = {} for i = 1, 2000 do local n = i fns[i] = function() n = n + 1 return n end end",
            "cos = {} for i = 1, 100 do cos[i] = coroutine.wrap(function(a) while true do a = coroutine.yield(a + 1) end end) cos[i](i) end",
            "chunks = {} for i = 1, 50 do chunks[i] = load('local a = ... return function(b) return a * b + ' .. i .. ' end')(i) end",
            "collectgarbage()");

    private final LuaVM vm = LuaVM.create();
    private Sandbox sandbox;
    private byte[] snapshot;

    static Sandbox build(LuaVM vm, String state) {
        Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).randomSeed(1).build();
        if (state.equals("state-1m")) sb.eval(STATE_1M);
        return sb;
    }

    @Setup
    public void setUp() {
        sandbox = build(vm, state);
        snapshot = sandbox.snapshot();
        try (Sandbox back = restore()) {
            if (!back.globalNames().equals(sandbox.globalNames())) throw new IllegalStateException("restore lost globals");
        }
    }

    /** {@code Sandbox.snapshot()} of the state. */
    @Benchmark
    public byte[] snapshot() {
        return sandbox.snapshot();
    }

    /** A sandbox restored from the state's snapshot (closed by the next GC; closing frees nothing). */
    @Benchmark
    public Sandbox restore() {
        return vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).restoreFrom(snapshot).build();
    }

    /**
     * Prints the size of each state's snapshot and the memory the meter counts for it, then the
     * CPU time per snapshot and per restore (this thread's, after a warm-up): a figure a loaded
     * machine disturbs less than JMH's wall-clock time.
     */
    public static void main(String[] args) {
        LuaVM vm = LuaVM.create();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (String s : new String[] {"empty", "state-1m"}) {
            Sandbox sb = build(vm, s);
            sb.eval("collectgarbage()");
            byte[] snap = sb.snapshot();
            System.out.println(s + "\tsnapshot bytes " + snap.length + "\tcounted memory " + sb.usage().memoryBytes());
            int n = s.equals("empty") ? 20_000 : 60;
            for (int round = 0; round < 3; round++) {
                long c0 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) sb.snapshot();
                long c1 = mx.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    vm.sandbox().capabilities(Capabilities.standard()).limits(Limits.unlimited()).restoreFrom(snap).build();
                }
                long c2 = mx.getCurrentThreadCpuTime();
                double snapUs = (c1 - c0) / 1e3 / n;
                double restoreUs = (c2 - c1) / 1e3 / n;
                System.out.printf("%s\tround %d\tsnapshot %.1f us CPU (%.1f MB/s)\trestore %.1f us CPU (%.1f MB/s)%n", s, round,
                        snapUs, snap.length / snapUs, restoreUs, snap.length / restoreUs);
            }
        }
    }
}
