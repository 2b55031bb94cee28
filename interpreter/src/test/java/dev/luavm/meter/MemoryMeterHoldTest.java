package dev.luavm.meter;

import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Memory held outside the Lua heap (a compile, load's reader pieces): counted across walks, no slack. */
class MemoryMeterHoldTest {
    @Test
    void heldBytesSurviveALiveWalk() {
        MemoryMeter m = new MemoryMeter(1 << 20);
        m.setLiveSizer(() -> 0); // the walk finds nothing: held bytes are invisible to it
        m.hold(900_000);
        for (int i = 0; i < 100; i++) m.charge(1_000); // churn that triggers walks
        assertEquals(true, m.current() >= 900_000);
        assertThrows(LuaError.class, () -> m.hold(200_000));
    }

    @Test
    void heldBytesObeyTheCapAsAllocationsDo() {
        MemoryMeter m = new MemoryMeter(16_000);
        m.setLiveSizer(() -> 0);
        m.hold(15_000);
        LuaError e = assertThrows(LuaError.class, () -> m.hold(2_000)); // past cap + cap/16
        assertEquals("not enough memory", e.getMessage());
        assertEquals(true, m.current() >= 15_000);
    }

    @Test
    void releaseGivesTheRoomBack() {
        MemoryMeter m = new MemoryMeter(10_000);
        m.hold(8_000);
        m.release(8_000);
        m.hold(8_000);
        assertEquals(8_000, m.current());
        assertThrows(IllegalArgumentException.class, () -> m.release(9_000));
    }
}
