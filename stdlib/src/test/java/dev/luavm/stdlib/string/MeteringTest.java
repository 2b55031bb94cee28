package dev.luavm.stdlib.string;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.stdlib.TestContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import static dev.luavm.stdlib.string.OracleTestBase.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Gas and memory: builtins pay for their work and their results before doing it (threats T4, T5, T6, T9). */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class MeteringTest {
    private static final long MB = 1 << 20;

    private static TestContext ctx(Builtin f, long memCap, long gas, Object... args) {
        return new TestContext(f, new MemoryMeter(memCap), gas, args);
    }

    private static long gasOf(Builtin f, Object... args) {
        TestContext c = new TestContext(f, args);
        c.run();
        return c.gasUsed();
    }

    private static String errorOf(TestContext c) {
        return assertThrows(LuaError.class, c::run).getMessage();
    }

    // ---- gas

    @Test
    void catastrophicBacktrackingRunsOutOfGas() {
        LuaString subject = s("a".repeat(30) + "b");
        LuaString pattern = s("a*".repeat(30) + "c");
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> {
            TestContext c = ctx(OracleTestBase.FIND, 64 * MB, 1_000_000, subject, pattern);
            assertThrows(TestContext.OutOfGas.class, c::run);
            assertTrue(c.gasUsed() <= 1_000_000 + 2 * PatternMatcher.GAS_BATCH, "overshoot bounded by a batch: " + c.gasUsed());
        });
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(5), () -> {
            TestContext c = ctx(OracleTestBase.GSUB, 64 * MB, 1_000_000, s("a".repeat(25)), s("a-a-a-a-a-a-a-a-b"), s("x"));
            assertThrows(TestContext.OutOfGas.class, c::run);
        });
    }

    @Test
    void longSetsAndBalancesAreChargedPerByteScanned() {
        String set = "[" + "b".repeat(1000) + "]";
        TestContext c = ctx(OracleTestBase.FIND, 64 * MB, 1_000_000, s("a".repeat(10_000)), s(set));
        assertThrows(TestContext.OutOfGas.class, c::run, "10^4 positions x 10^3 set bytes");
        long balance = gasOf(OracleTestBase.MATCH, s("(" + "x".repeat(100_000)), s("%b()"));
        assertTrue(balance >= 100_000, "%b scan charged: " + balance);
        long backref = gasOf(OracleTestBase.MATCH, s("x".repeat(50_000) + "=" + "x".repeat(50_000)), s("^(x*)=%1$"));
        assertTrue(backref >= 50_000 + 50_000 / 8, "x* steps and the back-reference compare (1 per 8 bytes) charged: " + backref);
    }

    @Test
    void matchGasGrowsWithWork() {
        long small = gasOf(OracleTestBase.FIND, s("a".repeat(1_000) + "b"), s("a-b"));
        long large = gasOf(OracleTestBase.FIND, s("a".repeat(100_000) + "b"), s("a-b"));
        assertTrue(small >= 1_000 && large >= 100_000 && large < 100 * small + 10_000, small + " " + large);
    }

    @Test
    void bulkOperationsChargeProportionallyToBytes() {
        assertEquals(125_000, gasOf(OracleTestBase.REP, s("x"), 1_000_000L));
        assertEquals(250_000, gasOf(OracleTestBase.REP, s("x"), 2_000_000L));
        assertEquals(125_000, gasOf(OracleTestBase.REP, s("ab"), 400_000L, s("--")) - 75_000);
        assertEquals(12_500, gasOf(OracleTestBase.UPPER, s("x".repeat(100_000))));
        assertEquals(12_500, gasOf(OracleTestBase.REVERSE, s("x".repeat(100_000))));
        assertEquals(6_250, gasOf(OracleTestBase.SUB, s("x".repeat(100_000)), 2L, 50_001L));
        assertEquals(100_000, gasOf(OracleTestBase.BYTE, s("x".repeat(100_000)), 1L, -1L));
        long plain = gasOf(OracleTestBase.FIND, s("x".repeat(1_000_000)), s("y"), 1L, true);
        assertTrue(plain >= 125_000 && plain < 130_000, "plain find charged per subject byte: " + plain);
        long gsub = gasOf(OracleTestBase.GSUB, s("x".repeat(100_000)), s("x"), s("yy"));
        assertTrue(gsub >= 200_000 / 8, "gsub charged per output byte: " + gsub);
        long format = gasOf(OracleTestBase.FORMAT, s("%s%s"), s("x".repeat(100_000)), s("y".repeat(100_000)));
        assertTrue(format >= 200_000 / 8, "format charged per output byte: " + format);
        long pack = gasOf(OracleTestBase.PACK, s("c100000"), s(""));
        assertTrue(pack >= 100_000 / 8, "pack charged per output byte: " + pack);
    }

    @Test
    void replacementTemplatesAreChargedEvenWhenTheyProduceNothing() {
        // each match expands a 10^4-byte template of empty captures
        TestContext c = ctx(OracleTestBase.GSUB, 64 * MB, 100_000, s("a".repeat(10_000)), s("()"), s("%1".repeat(5_000)));
        assertThrows(TestContext.OutOfGas.class, c::run);
    }

    @Test
    void aHugeRepFailsByGasOrMemoryBeforeAllocating() {
        TestContext c = ctx(OracleTestBase.REP, Long.MAX_VALUE / 4, 1_000, s("x"), 100_000_000L);
        assertThrows(TestContext.OutOfGas.class, c::run);
        assertEquals(0, c.meter().totalCharged(), "gas is checked before the allocation is charged");
    }

    // ---- memory

    @Test
    void repOfTwoToTheFortyIsTooLargeNotEmpty() {
        TestContext c = ctx(OracleTestBase.REP, 64 * MB, Long.MAX_VALUE, s("x"), 1L << 40);
        assertEquals("resulting string too large", errorOf(c));
        assertEquals(0, c.meter().totalCharged());
        assertEquals(0, c.gasUsed());
        assertEquals("resulting string too large", errorOf(ctx(OracleTestBase.REP, 64 * MB, Long.MAX_VALUE, s("x"), 1L << 30, s("yy"))));
        assertEquals("resulting string too large", errorOf(ctx(OracleTestBase.REP, 64 * MB, Long.MAX_VALUE, s("abc"), Long.MAX_VALUE)));
        assertEquals("resulting string too large", errorOf(ctx(OracleTestBase.REP, 64 * MB, Long.MAX_VALUE, s(""), Long.MAX_VALUE, s(","))));
    }

    @Test
    void resultsAreChargedExactlyBeforeAllocation() {
        TestContext c = new TestContext(OracleTestBase.REP, s("ab"), 500L);
        c.run();
        assertEquals(Sizes.string(1000), c.meter().totalCharged());
        TestContext up = new TestContext(OracleTestBase.UPPER, s("abc"));
        up.run();
        assertEquals(Sizes.string(3), up.meter().totalCharged());
    }

    @Test
    void resultsOverTheCapRaiseNotEnoughMemory() {
        long cap = MB;
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.REP, cap, Long.MAX_VALUE, s("x"), 2 * MB)));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.REP, cap, Long.MAX_VALUE, s("x"), 200_000_000L)));
        LuaString half = s("x".repeat((int) (cap / 2)));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.FORMAT, cap, Long.MAX_VALUE, s("%s%s%s"), half, half, half)));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.GSUB, cap, Long.MAX_VALUE, half, s("x"), s("xxx"))));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.PACK, cap, Long.MAX_VALUE, s("c214748364"), s(""))));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.UPPER, cap, Long.MAX_VALUE, s("x".repeat((int) cap)))));
        assertEquals("not enough memory", errorOf(ctx(OracleTestBase.SUB, cap, Long.MAX_VALUE, s("x".repeat((int) cap)), 2L)));
    }

    @Test
    void capturesAreChargedAsStrings() {
        TestContext c = new TestContext(OracleTestBase.MATCH, s("hello world"), s("(%w+) (%w+)"));
        c.run();
        assertEquals(Sizes.string(5) * 2, c.meter().totalCharged());
    }
}
