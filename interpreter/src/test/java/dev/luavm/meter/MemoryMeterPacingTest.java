package dev.luavm.meter;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cap is exact: a walk happens whenever a charge would pass it, and during a run the walks
 * are paid for as gas, so a heap held near the cap makes churn expensive, never the cap loose.
 */
class MemoryMeterPacingTest {
    @Test
    void aHeapNearTheCapNeverPassesIt() {
        long cap = 1 << 20;
        MemoryMeter meter = new MemoryMeter(cap);
        meter.setLiveSizer(() -> cap - 2000); // the script holds almost everything, churns the rest
        for (int i = 0; i < 10_000; i++) {
            meter.charge(1000);
            assertTrue(meter.current() <= cap);
        }
        assertTrue(meter.peak() <= cap);
    }

    @Test
    void walksDuringARunArePaidAsGas() {
        long cap = 1 << 20;
        MemoryMeter meter = new MemoryMeter(cap);
        meter.setLiveSizer(new MemoryMeter.LiveSizer() {
            public long liveBytes() { return cap / 2; }
            public long lastWalkWork() { return 5000; }
        });
        GasMeter gas = GasMeter.unlimited();
        meter.linkGas(gas);
        for (int i = 0; i < 100; i++) meter.charge(cap / 4); // every other charge walks
        assertTrue(meter.traces() >= 40, "walks: " + meter.traces());
        assertEquals(meter.traces() * 5000L, gas.used());
    }

    @Test
    void holdingMoreThanTheCapFailsAtTheCap() {
        long cap = 1 << 20;
        long[] held = {0};
        MemoryMeter meter = new MemoryMeter(cap);
        meter.setLiveSizer(() -> held[0]);
        assertThrows(dev.luavm.vm.LuaError.class, () -> {
            for (int i = 0; i < 10_000; i++) {
                meter.charge(1000);
                held[0] += 1000; // everything is kept
            }
        });
        assertTrue(held[0] <= cap, "held " + held[0]);
        assertTrue(meter.peak() <= cap);
    }

    @Test
    void runsKeepAReserveForTheHost() {
        long cap = 1 << 20;
        MemoryMeter meter = new MemoryMeter(cap);
        meter.setLiveSizer(meter::current);
        meter.linkGas(GasMeter.unlimited());
        assertThrows(dev.luavm.vm.LuaError.class, () -> meter.charge(cap - MemoryMeter.reserveFor(cap) + 1));
        meter.charge(cap - MemoryMeter.reserveFor(cap));
        meter.linkGas(null);
        meter.charge(MemoryMeter.reserveFor(cap)); // between runs, the host may use the whole cap
        assertEquals(cap, meter.peak());
    }
}
