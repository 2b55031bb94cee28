package dev.luavm.meter;

import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The choke point's arithmetic: exact charges, the cap, overflow, and the live-heap walk. */
class MemoryMeterTest {
    @Test
    void withoutALiveSizerEveryChargeStaysCounted() {
        MemoryMeter m = new MemoryMeter(1000);
        m.charge(400);
        m.charge(400);
        LuaError e = assertThrows(LuaError.class, () -> m.charge(400));
        assertEquals("not enough memory", e.getMessage());
        assertEquals(800, m.current());
        assertEquals(800, m.peak());
    }

    @Test
    void aLiveWalkForgetsWhatTheScriptDropped() {
        MemoryMeter m = new MemoryMeter(1000);
        long[] live = {100};
        m.setLiveSizer(() -> live[0]);
        for (int i = 0; i < 50; i++) m.charge(300); // 15,000 bytes churned, 100 held
        assertEquals(15_000, m.totalCharged());
        assertEquals(true, m.traces() > 0);
        live[0] = 950; // now the script holds nearly everything: the next walk must notice
        int charges = 0;
        try {
            while (charges < 10) {
                m.charge(300);
                charges++;
            }
        } catch (LuaError expected) {
            assertEquals("not enough memory", expected.getMessage());
        }
        assertEquals(true, charges < 4, "a held heap is caught within a few charges, got " + charges);
    }

    @Test
    void sizeArithmeticOverflowIsNotEnoughMemory() {
        MemoryMeter m = new MemoryMeter(1L << 40);
        assertThrows(LuaError.class, () -> m.charge(Long.MAX_VALUE / 2, 16));
        assertThrows(LuaError.class, () -> m.charge(1L << 41));
        assertEquals(0, m.current());
    }

    @Test
    void aCreditComesOffWhatWasChargedSinceTheWalkFirstThenTheWalksFigureNeverBelowZero() {
        MemoryMeter m = new MemoryMeter(10_000);
        long[] live = {3000};
        m.setLiveSizer(() -> live[0]);
        m.collect();
        m.charge(500);
        m.credit(200);
        assertEquals(3000, m.liveAtLastWalk());
        assertEquals(300, m.chargedSinceWalk());
        m.credit(1300); // 300 of it since the walk, 1,000 of what the walk counted
        assertEquals(0, m.chargedSinceWalk());
        assertEquals(2000, m.liveAtLastWalk());
        assertEquals(3500, m.peak(), "the peak stays");
        m.credit(5000);
        assertEquals(0, m.current());
        assertThrows(IllegalArgumentException.class, () -> m.credit(-1));
    }
}
