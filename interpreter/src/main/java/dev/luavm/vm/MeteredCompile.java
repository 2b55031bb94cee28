package dev.luavm.vm;

import dev.luavm.compiler.CompileMeter;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;

/**
 * A compilation run for a sandbox ({@code load}, {@code Sandbox.eval}): its work is the
 * sandbox's gas, so a long compile polls cancel and the clock like any other work and ends
 * with the run's termination; its heap is held in the sandbox's memory meter until it ends,
 * failing with {@code not enough memory} before the compiler allocates past the cap.
 */
public final class MeteredCompile implements CompileMeter {
    private final GasMeter gas;
    private final MemoryMeter memory;

    public MeteredCompile(GasMeter gas, MemoryMeter memory) {
        this.gas = gas;
        this.memory = memory;
    }

    @Override
    public void work(long units) {
        gas.charge(units);
    }

    @Override
    public void hold(long bytes) {
        memory.hold(bytes);
    }

    @Override
    public void release(long bytes) {
        memory.release(bytes);
    }
}
