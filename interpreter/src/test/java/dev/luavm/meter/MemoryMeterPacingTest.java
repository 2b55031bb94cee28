package dev.luavm.meter;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live-heap walk is paced: its total cost stays linear even with the heap held near the cap. */
class MemoryMeterPacingTest {
    @Test
    void aHeapNearTheCapDoesNotWalkOnEveryCharge() {
        long cap = 1 << 20;
        MemoryMeter meter = new MemoryMeter(cap);
        meter.setLiveSizer(() -> cap - 2000); // the script holds almost everything, churns the rest
        for (int i = 0; i < 100_000; i++) {
            meter.charge(1000);
            assertTrue(meter.current() <= cap + cap / MemoryMeter.SLACK_FRACTION);
        }
        // 100 MB churned: one walk per slack (64 KiB) at most, not one per charge
        assertTrue(meter.traces() <= 100_000 * 1000L / (cap / MemoryMeter.SLACK_FRACTION) + 2, "walks: " + meter.traces());
    }

    @Test
    void holdingMoreThanTheCapFailsWithinTheSlack() {
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
        assertTrue(held[0] <= cap + cap / MemoryMeter.SLACK_FRACTION, "held " + held[0]);
    }
}
