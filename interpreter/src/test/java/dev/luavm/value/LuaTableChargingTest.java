package dev.luavm.value;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gas a table charges for the work its keys cause (see LuaTable's essay): exact figures for
 * probes beyond the first, long string compares and first hashes, rehash scans, {@code next}
 * over empty slots and the bounded border search.
 */
class LuaTableChargingTest {
    /** multiplicative inverse of LuaTable.mixLong's odd constant modulo 2^64 */
    private static final long CINV = 0xF1DE83E19937733DL;

    private final GasMeter gas = new GasMeter(Long.MAX_VALUE / 2);
    private final MemoryMeter memory = new MemoryMeter(1L << 30);

    LuaTableChargingTest() {
        memory.linkGas(gas);
    }

    /** Integer keys whose mixed hash is the same constant: every one lands in the same home slot. */
    private static long collidingInt(long x) {
        return ((x << 32) | (x ^ 0x5bd1)) * CINV;
    }

    /** An integer key whose mixed hash is {@code j} (small j): distinct home slots for distinct j. */
    private static long intWithHash(int j) {
        return ((1L << 32) | (1 ^ j)) * CINV;
    }

    @Test
    void craftedIntegersReallyShareAHomeSlot() {
        for (int j = 0; j < 16; j++) assertEquals(j, LuaTable.mixLong(intWithHash(j)));
        int h = LuaTable.mixLong(collidingInt(1));
        for (long x = 2; x < 1000; x++) assertEquals(h, LuaTable.mixLong(collidingInt(x)));
    }

    @Test
    void firstProbeIsFree() {
        LuaTable t = new LuaTable(memory, 0, 64);
        long before = gas.used();
        for (int i = 0; i < 40; i++) t.put(LuaString.of("k" + i), (long) i);
        for (int i = 0; i < 40; i++) assertEquals((long) i, t.get(LuaString.of("k" + i)));
        // 40 short keys in 128 slots: collisions are possible, but few; a flood it is not
        assertTrue(gas.used() - before < 40, "short keys charged " + (gas.used() - before));
        LuaTable u = new LuaTable(memory, 0, 4);
        LuaString k = LuaString.of("x");
        before = gas.used();
        u.put(k, 1L);
        assertEquals(1L, u.get(k));
        assertEquals(0, gas.used() - before);
    }

    @Test
    void everyProbeBeyondTheFreeOnesCostsOne() {
        int free = LuaTable.FREE_PROBES;
        LuaTable t = new LuaTable(memory, 0, 64); // 128 slots: no rehash for 40 keys
        long before = gas.used();
        for (int j = 0; j < 40; j++) t.put(collidingInt(j + 1), true);
        long expected = 0;
        for (int j = 0; j < 40; j++) expected += Math.max(0, j - free);
        assertEquals(expected, gas.used() - before, "key j passes the j keys before it, the first few for free");
        before = gas.used();
        assertNotNull(t.get(collidingInt(40)));
        assertEquals(39 - free, gas.used() - before);
        before = gas.used();
        assertNull(t.get(collidingInt(41)));
        assertEquals(40 - free, gas.used() - before, "a miss walks the whole chain");
        before = gas.used();
        assertNotNull(t.getInt(collidingInt(1)));
        assertEquals(0, gas.used() - before);
    }

    @Test
    void longStringKeysPayForTheirFirstHashAndForCompares() {
        byte[] bytes = new byte[100];
        Arrays.fill(bytes, (byte) 'a');
        LuaString stored = LuaString.wrap(bytes.clone());
        LuaString probe = LuaString.wrap(bytes.clone()); // equal, distinct, hash not yet computed
        LuaTable t = new LuaTable(memory, 0, 4);
        long before = gas.used();
        t.put(stored, 1L);
        assertEquals(13, gas.used() - before, "first hash of 100 bytes: ceil(100/8)");
        before = gas.used();
        assertEquals(1L, t.get(probe));
        assertEquals(13 + 13, gas.used() - before, "first hash of the probe, then a 100-byte compare");
        before = gas.used();
        assertEquals(1L, t.get(probe));
        assertEquals(13, gas.used() - before, "hash cached now; the compare is still paid");
        before = gas.used();
        assertEquals(1L, t.get(stored));
        assertEquals(0, gas.used() - before, "the same object needs no compare");
    }

    @Test
    void rehashPaysPerSlot() {
        LuaTable t = new LuaTable(memory, 1024, 0);
        for (int i = 1; i <= 1024; i++) t.putInt(i, true);
        long before = gas.used();
        t.put(intWithHash(0), true);
        // counting pass over 1024 array slots, then the move: 1024 + 0 old + 4 new hash slots
        assertEquals(128 + 129, gas.used() - before);
        t.put(intWithHash(1), true);
        t.put(intWithHash(2), true);
        before = gas.used();
        t.put(intWithHash(3), true); // the 4-slot part is full at 3 keys: rehash to 8 slots
        assertEquals(129 + 130, gas.used() - before);
        assertEquals(1024, t.arrayCapacity());
    }

    @Test
    void nextPaysForTheEmptySlotsItSkips() {
        LuaTable t = new LuaTable(memory, 1 << 16, 0);
        t.putInt(1 << 16, true);
        Object[] kv = new Object[2];
        long before = gas.used();
        assertTrue(t.next(null, kv));
        assertEquals((long) (1 << 16), kv[0]);
        assertEquals(((1 << 16) - 1) / 8, gas.used() - before);
        before = gas.used();
        assertTrue(!t.next(kv[0], kv));
        assertEquals(0, gas.used() - before);
        LuaTable dense = new LuaTable(memory, 64, 0);
        for (int i = 1; i <= 64; i++) dense.putInt(i, true);
        before = gas.used();
        Object k = null;
        while (dense.next(k, kv)) k = kv[0];
        assertEquals(0, gas.used() - before, "a dense traversal skips nothing");
    }

    @Test
    void borderSearchStaysLogarithmicOnAPlantedTable() {
        int n = 1 << 16;
        LuaTable t = new LuaTable(memory);
        // keys at (n+1) * 2^k defeat the doubling search; 5.3 then scanned 1, 2, 3, ... linearly
        for (long j = n + 1; ; j *= 2) {
            t.putInt(j, true);
            if (j > Long.MAX_VALUE / 2) break;
        }
        for (int i = 1; i <= n; i++) t.putInt(i, true);
        assertEquals(n, t.arrayCapacity());
        long before = gas.used();
        long b = t.length();
        long charged = gas.used() - before;
        assertNotNull(t.getInt(b), "border " + b + " must be present");
        assertTrue(b == Long.MAX_VALUE || t.getInt(b + 1) == null, "border " + b + " must be followed by nil");
        assertTrue(charged <= 1000, "border search charged " + charged);
    }

    @Test
    void aTableWithoutAGasLinkChargesNothing() {
        MemoryMeter scratch = MemoryMeter.unlimited();
        LuaTable t = new LuaTable(scratch);
        for (int j = 0; j < 300; j++) t.put(collidingInt(j + 1), true); // a flood: must not fail
        assertNotNull(t.get(collidingInt(300)));
    }

    @Test
    void aLimitHitDuringARehashLeavesTheTableIntact() {
        GasMeter small = new GasMeter(20_000);
        MemoryMeter m = new MemoryMeter(1L << 30);
        LuaTable t = new LuaTable(m);
        for (int j = 0; j < 150; j++) t.put(collidingInt(j + 1), (long) j); // uncharged: no link yet
        m.linkGas(small);
        try {
            for (int j = 150; j < 100_000; j++) t.put(collidingInt(j + 1), (long) j);
        } catch (dev.luavm.vm.LuaTermination expected) {
            // out of gas somewhere in the flood
        }
        m.linkGas(null);
        for (int j = 0; j < 150; j++) assertEquals((long) j, t.get(collidingInt(j + 1)));
    }

    @Test
    void longStringComparesAreChargedByBytesCompared() {
        byte[] a = new byte[10_000];
        Arrays.fill(a, (byte) 'x');
        byte[] b = a.clone();
        LuaString sa = LuaString.wrap(a);
        LuaString sb = LuaString.wrap(b);
        long before = gas.used();
        assertTrue(sa.equals(sb, gas));
        assertEquals(GasMeter.byteWork(10_000), gas.used() - before);
        byte[] c = a.clone();
        c[5000] = 'y';
        before = gas.used();
        assertTrue(sa.compareTo(LuaString.wrap(c), gas) < 0);
        // chunks of 64, 128, ... 4096 bytes: the difference at 5000 is in the seventh (bytes 4032..8127)
        assertEquals(GasMeter.byteWork(8128), gas.used() - before, "the chunks up to the difference");
        before = gas.used();
        assertTrue(!sa.equals(LuaString.wrap(new byte[9_999]), gas));
        assertTrue(LuaString.of("short").equals(LuaString.of("short"), gas));
        assertEquals(0, gas.used() - before, "different lengths and short strings are free");
    }
}
