package dev.luavm.stdlib.work;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.TestContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The byte rule's helpers: what ByteWork and the charged string compares charge, and that they charge before the work. */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class WorkHelpersTest {
    private static final Builtin NONE = Builtin.of("none", c -> 0);

    /** A library's string equality: {@code LuaString.equals} paying through the call's context. */
    private static boolean eq(TestContext c, LuaString a, LuaString b) {
        return a.equals(b, c::chargeGas);
    }

    private static int cmp(TestContext c, LuaString a, LuaString b) {
        return a.compareTo(b, c::chargeGas);
    }

    private static TestContext ctx(long gas) {
        return new TestContext(NONE, new MemoryMeter(1L << 30), gas, new Object[0]);
    }

    private static LuaString bytes(int n, int fill) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) fill);
        return LuaString.wrap(b);
    }

    @Test
    void chargeBytesRoundsUpToEightByteUnits() {
        TestContext c = ctx(1_000);
        c.chargeBytes(0);
        assertEquals(0, c.gasUsed());
        c.chargeBytes(1);
        assertEquals(1, c.gasUsed());
        c.chargeBytes(16);
        assertEquals(3, c.gasUsed());
        c.chargeBytes(17);
        assertEquals(6, c.gasUsed());
    }

    @Test
    void aKnownRangeIsPaidExactlyInChunks() {
        TestContext c = ctx(1L << 40);
        ByteWork w = ByteWork.upTo(c, 200_000);
        w.step();
        assertEquals(ByteWork.CHUNK / 8, c.gasUsed(), "the first chunk is paid before the first byte");
        for (int i = 1; i < 200_000; i++) w.step();
        assertEquals(200_000 / 8, c.gasUsed());
    }

    @Test
    void aScanOfUnknownLengthPaysAtMostAboutTwiceItsBytes() {
        TestContext c = ctx(1L << 40);
        ByteWork w = ByteWork.scan(c);
        w.step();
        assertEquals(ByteWork.FIRST / 8, c.gasUsed());
        for (int i = 1; i < 1_000_000; i++) w.step();
        assertTrue(c.gasUsed() >= 1_000_000 / 8 && c.gasUsed() <= 2 * 1_000_000 / 8 + ByteWork.CHUNK / 8, "" + c.gasUsed());
    }

    @Test
    void longEqualStringsPayTheirLengthAndEarlyDifferencesLittle() {
        TestContext c = ctx(1L << 40);
        assertTrue(eq(c, bytes(1 << 20, 'a'), bytes(1 << 20, 'a')));
        assertEquals((1 << 20) / 8, c.gasUsed());
        TestContext d = ctx(1L << 40);
        assertTrue(cmp(d, bytes(1 << 20, 'a'), bytes(1 << 20, 'b')) < 0);
        assertEquals(LuaString.FIRST_COMPARE_CHUNK / 8, d.gasUsed(), "a difference in the first chunk pays that chunk");
        TestContext e = ctx(1L << 40);
        assertFalse(eq(e, bytes(10, 'a'), bytes(11, 'a')));
        assertEquals(0, e.gasUsed(), "different lengths are never compared");
    }

    @Test
    void compareOrdersAsUnsignedBytesThenLength() {
        TestContext c = ctx(1L << 40);
        assertTrue(cmp(c, LuaString.of("a"), LuaString.of("ab")) < 0);
        assertTrue(cmp(c, LuaString.wrap(new byte[] {(byte) 0xFF}), LuaString.of("a")) > 0);
        assertEquals(0, cmp(c, LuaString.of("abc"), LuaString.of("abc")));
    }

    @Test
    void aCompareBeyondTheBudgetStopsBeforeComparingEverything() {
        TestContext c = ctx(10_000);
        assertThrows(TestContext.OutOfGas.class, () -> eq(c, bytes(1 << 24, 'a'), bytes(1 << 24, 'a')));
        assertTrue(c.gasUsed() < 10_000 + LuaString.COMPARE_CHUNK / 8 + 1, "stopped within a chunk: " + c.gasUsed());
    }
}
