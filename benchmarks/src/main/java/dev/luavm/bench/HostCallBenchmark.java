package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.audit.MemoryAuditSink;
import dev.luavm.host.HostCallPolicy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the host-call gateway costs per call (issue 9: a granted call through allow-all with an
 * in-memory audit sink must cost under 1 us more than a direct call). Each invocation runs a Lua
 * loop of {@value #CALLS} calls of {@code f(i)}, compiled once; the figure is per call.
 *
 * <ul>
 *   <li>{@code builtin}: {@code f} is {@code rawequal}, a library builtin called directly (no
 *       gateway): the floor for any call from Lua into Java;</li>
 *   <li>{@code plain}: {@code f} is granted with {@code grant(path, description, fn)} (UNSAFE,
 *       nothing declared), allow-all policy, no audit sink: the gateway as most hosts use it (the
 *       function runs on a host-call thread, handed over and back for each call);</li>
 *   <li>{@code sameThread}: {@code plain}, declared {@code onSandboxThread()}: the function runs on
 *       the sandbox's thread; {@code plain - sameThread} is what running host calls off the
 *       sandbox's thread costs (issue 23 item 5);</li>
 *   <li>{@code audited}: {@code f} is declared UNSAFE with one {@code integer} parameter, the
 *       policy is {@link HostCallPolicy#allowAll()} and every call is written to a
 *       {@link MemoryAuditSink} (cleared after each invocation).</li>
 * </ul>
 * {@code audited - builtin} is the gateway's whole cost; {@code audited - plain} what policies and
 * the audit log add.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HostCallBenchmark {
    static final int CALLS = 1000;

    @Param({"builtin", "plain", "sameThread", "audited"})
    public String mode;

    private Sandbox sandbox;
    private CompiledChunk loop;
    private MemoryAuditSink sink;

    @Setup
    public void setUp() {
        LuaVM vm = LuaVM.create();
        Capabilities.Builder caps = Capabilities.standard().toBuilder();
        Sandbox.Builder sb = vm.sandbox().limits(Limits.unlimited().withGas(1L << 62).withMemory(1L << 30));
        String f;
        switch (mode) {
            case "builtin" -> f = "rawequal";
            case "plain" -> {
                caps.grant("host.echo", "returns its argument", call -> call.arg(0));
                f = "host.echo";
            }
            case "sameThread" -> {
                caps.declare("host.echo", "returns its argument").onSandboxThread().grant(call -> call.arg(0));
                f = "host.echo";
            }
            case "audited" -> {
                caps.declare("host.echo", "returns its argument").unsafe()
                        .param("x", "integer", "any integer").grant(call -> call.arg(0));
                sink = new MemoryAuditSink();
                sb.audit(sink).policy(HostCallPolicy.allowAll());
                f = "host.echo";
            }
            default -> throw new IllegalArgumentException(mode);
        }
        sandbox = sb.capabilities(caps.build()).build();
        loop = vm.compile("loop", "local f = " + f + " local r for i = 1, " + CALLS + " do r = f(i, i) end return r");
        List<Object> r = sandbox.run(loop);
        Object expected = mode.equals("builtin") ? Boolean.TRUE : (long) CALLS;
        if (!r.equals(List.of(expected))) throw new IllegalStateException(mode + " gave " + r);
        if (sink != null && sink.events().size() != CALLS + 2) throw new IllegalStateException("events: " + sink.events().size());
        if (sink != null) sink.clear();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sandbox.close();
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public List<Object> callLoop() {
        List<Object> r = sandbox.run(loop);
        if (sink != null) sink.clear();
        return r;
    }
}
