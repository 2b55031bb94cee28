package dev.luavm.stdlib.table;

import static dev.luavm.stdlib.libs.FakeSandbox.list;
import static dev.luavm.stdlib.libs.FakeSandbox.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.libs.FakeSandbox;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.LuaValues;
import dev.luavm.vm.LuaError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values and messages come from lua5.3 (5.3.6). */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class TableLibraryTest {
    private final FakeSandbox box = new FakeSandbox().install(new TableLibrary());

    private LuaTable withMeta(String event, Builtin handler) {
        LuaTable t = box.table();
        LuaTable mt = box.table();
        mt.put(s(event), handler);
        t.setMetatable(mt);
        return t;
    }

    private LuaTable fakeLen(long n) {
        return withMeta("__len", Builtin.of("len", c -> c.ret(n)));
    }

    // ---- concat

    @Test
    void concatJoinsStringsAndNumbers() {
        assertEquals(s("1, 2, x, 3.5, 1e+100"),
                box.call1("table.concat", box.table(1L, 2L, s("x"), 3.5, 1e100), s(", ")));
        assertEquals(s(""), box.call1("table.concat", box.table(), s("x")));
        assertEquals(s("2-3"), box.call1("table.concat", box.table(1L, 2L, 3L), s("-"), 2L, 3L));
        assertEquals(s(""), box.call1("table.concat", box.table(1L, 2L, 3L), s(""), 3L, 2L));
        assertEquals(s("3"), box.call1("table.concat", box.table(1L, 2L, 3L), s(","), 3L));
        assertEquals(s("1.02.0"), box.call1("table.concat", box.table(1.0, 2.0)));
        assertEquals(s("a1b"), box.call1("table.concat", box.table(s("a"), s("b")), 1L));
    }

    @Test
    void concatErrors() {
        assertEquals("invalid value (table) at index 3 in table for 'concat'",
                box.error("table.concat", box.table(1L, 2L, box.table()), s(",")));
        assertEquals("invalid value (nil) at index 1 in table for 'concat'",
                box.error("table.concat", box.table(), s(""), 4294967297L, 4294967297L));
        assertEquals("bad argument #1 to 'table.concat' (table expected, got number)",
                box.error("table.concat", 1L));
        assertEquals("bad argument #2 to 'table.concat' (string expected, got table)",
                box.error("table.concat", box.table(), box.table()));
    }

    @Test
    void concatUsesIndexAndLenMetamethods() {
        LuaTable proxy = withMeta("__index", Builtin.of("idx", c -> c.ret(c.checkInteger(2) * 10)));
        proxy.getMetatable().put(s("__len"), Builtin.of("len", c -> c.ret(3L)));
        assertEquals(s("10 20 30"), box.call1("table.concat", proxy, s(" ")));
    }

    @Test
    void concatChargesPerElementAndPerByte() {
        LuaTable small = box.table();
        LuaTable big = box.table();
        for (int i = 1; i <= 1000; i++) small.putInt(i, s("ab"));
        for (int i = 1; i <= 10000; i++) big.putInt(i, s("ab"));
        box.gasUsed = 0;
        box.call("table.concat", small);
        long g1 = box.gasUsed;
        box.gasUsed = 0;
        box.call("table.concat", big);
        long g2 = box.gasUsed;
        assertTrue(g1 >= 1000, "at least one unit per element: " + g1);
        assertEquals(10 * g1, g2, 10 * 20);
        // output bytes count too: long strings cost more than short ones
        LuaTable wide = box.table();
        LuaString kb = LuaString.wrap(new byte[1600]);
        for (int i = 1; i <= 1000; i++) wide.putInt(i, kb);
        box.gasUsed = 0;
        box.call("table.concat", wide);
        assertTrue(box.gasUsed >= 1000 * 1600 / 8, "per byte: " + box.gasUsed);
    }

    @Test
    void concatStopsAtMemoryCap() {
        MemoryMeter meter = new MemoryMeter(1_000_000);
        meter.setLiveSizer(meter::totalCharged); // nothing is ever collected in this test
        FakeSandbox capped = new FakeSandbox(meter).install(new TableLibrary());
        LuaTable t = capped.table();
        LuaString chunk = LuaString.wrap(new byte[100_000]);
        for (int i = 1; i <= 20; i++) t.putInt(i, chunk);
        assertEquals("not enough memory", capped.error("table.concat", t));
    }

    @Test
    void concatStopsAtGasBudget() {
        LuaTable t = fakeLen(Long.MAX_VALUE / 2);
        t.getMetatable().put(s("__index"), Builtin.of("idx", c -> c.ret(s("x"))));
        box.gasBudget = 100_000;
        assertThrows(FakeSandbox.OutOfGas.class, () -> box.call("table.concat", t));
    }

    // ---- insert

    @Test
    void insertAppendsAndShifts() {
        LuaTable t = box.table(1L, 2L, 3L);
        box.call("table.insert", t, 4L);
        box.call("table.insert", t, 1L, 0L);
        box.call("table.insert", t, 3L, s("x"));
        assertEquals(List.of(0L, 1L, s("x"), 2L, 3L, 4L), list(t));
        box.call("table.insert", t, 7L, 9L);
        assertEquals(9L, t.getInt(7));
    }

    @Test
    void insertErrors() {
        assertEquals("wrong number of arguments to 'insert'", box.error("table.insert", box.table(), 1L, 2L, 3L));
        assertEquals("wrong number of arguments to 'insert'", box.error("table.insert", box.table()));
        assertEquals("bad argument #2 to 'table.insert' (position out of bounds)",
                box.error("table.insert", box.table(), 0L, s("x")));
        assertEquals("bad argument #2 to 'table.insert' (position out of bounds)",
                box.error("table.insert", box.table(1L), 3L, s("x")));
        assertEquals("bad argument #2 to 'table.insert' (number has no integer representation)",
                box.error("table.insert", box.table(), 1.5, s("x")));
        assertEquals("bad argument #1 to 'table.insert' (table expected, got number)",
                box.error("table.insert", 1L, 2L));
        // __len = maxinteger makes the first empty slot wrap to mininteger
        assertEquals("bad argument #2 to 'table.insert' (position out of bounds)",
                box.error("table.insert", fakeLen(Long.MAX_VALUE), 1L, s("x")));
    }

    @Test
    void insertWithHugeFakeLengthIsStoppedByGasBeforeMoving() {
        LuaTable t = fakeLen(1L << 62);
        box.gasBudget = 1_000_000;
        assertThrows(FakeSandbox.OutOfGas.class, () -> box.call("table.insert", t, 1L, s("x")));
        assertNull(t.getInt(1L << 62)); // nothing was moved
    }

    @Test
    void insertChargesPerMovedElement() {
        LuaTable t = box.table();
        for (int i = 1; i <= 100; i++) t.putInt(i, (long) i);
        box.gasUsed = 0;
        box.call("table.insert", t, 1L, 0L);
        assertEquals(100 * TableCosts.ELEMENT, box.gasUsed);
    }

    @Test
    void insertOnProxyWithOnlyMetamethods() {
        List<String> log = new ArrayList<>();
        LuaTable proxy = withMeta("__len", Builtin.of("len", c -> c.ret(2L)));
        proxy.getMetatable().put(s("__index"), Builtin.of("idx", c -> c.ret(c.checkInteger(2) * 10)));
        proxy.getMetatable().put(s("__newindex"), Builtin.of("nidx", c -> {
            log.add(c.arg(2) + "=" + c.arg(3));
            return 0;
        }));
        box.call("table.insert", proxy, 1L, s("x"));
        assertEquals(List.of("3=20", "2=10", "1=x"), log);
    }

    // ---- remove

    @Test
    void removeShiftsDown() {
        LuaTable t = box.table(1L, 2L, 3L, 4L);
        assertArrayEquals(new Object[] {4L}, box.call("table.remove", t));
        assertArrayEquals(new Object[] {1L}, box.call("table.remove", t, 1L));
        assertEquals(List.of(2L, 3L), list(t));
        assertArrayEquals(new Object[] {null}, box.call("table.remove", box.table()));
        assertArrayEquals(new Object[] {null}, box.call("table.remove", box.table(), 0L));
        assertArrayEquals(new Object[] {null}, box.call("table.remove", box.table(), 1L));
        LuaTable u = box.table(1L, 2L);
        assertArrayEquals(new Object[] {null}, box.call("table.remove", u, 3L));
    }

    @Test
    void removeErrors() {
        assertEquals("bad argument #1 to 'table.remove' (position out of bounds)",
                box.error("table.remove", box.table(1L, 2L, 3L), 7L));
        assertEquals("bad argument #1 to 'table.remove' (position out of bounds)",
                box.error("table.remove", box.table(), -1L));
        assertEquals("bad argument #1 to 'table.remove' (position out of bounds)",
                box.error("table.remove", fakeLen(Long.MAX_VALUE), Long.MIN_VALUE));
    }

    @Test
    void removeWithHugeFakeLengthIsStoppedByGas() {
        LuaTable t = fakeLen(1L << 62);
        box.gasBudget = 1_000_000;
        assertThrows(FakeSandbox.OutOfGas.class, () -> box.call("table.remove", t, 1L));
    }

    // ---- move

    @Test
    void moveCopiesInTheRightDirection() {
        LuaTable a = box.table(1L, 2L, 3L, 4L, 5L);
        assertSame(a, box.call1("table.move", a, 1L, 3L, 2L));
        assertEquals(List.of(1L, 1L, 2L, 3L, 5L), list(a));
        LuaTable b = box.table(1L, 2L, 3L, 4L, 5L);
        box.call("table.move", b, 2L, 5L, 1L);
        assertEquals(List.of(2L, 3L, 4L, 5L, 5L), list(b));
        LuaTable dst = box.table();
        assertSame(dst, box.call1("table.move", box.table(7L, 8L), 1L, 2L, 3L, dst));
        assertEquals(7L, dst.getInt(3));
        assertEquals(8L, dst.getInt(4));
        LuaTable same = box.table();
        assertSame(same, box.call1("table.move", box.table(), 3L, 1L, 1L, same));
    }

    @Test
    void moveErrors() {
        assertEquals("bad argument #3 to 'table.move' (too many elements to move)",
                box.error("table.move", box.table(), Long.MIN_VALUE, 1L, 1L));
        assertEquals("bad argument #4 to 'table.move' (destination wrap around)",
                box.error("table.move", box.table(), 1L, Long.MAX_VALUE, 2L));
        assertEquals("bad argument #2 to 'table.move' (number expected, got no value)",
                box.error("table.move", box.table()));
        assertEquals("bad argument #5 to 'table.move' (table expected, got number)",
                box.error("table.move", box.table(), 1L, 1L, 1L, 5L));
    }

    @Test
    void moveOfHugeRangeIsStoppedByGas() {
        box.gasBudget = 1_000_000;
        assertThrows(FakeSandbox.OutOfGas.class,
                () -> box.call("table.move", box.table(), 1L, Long.MAX_VALUE - 1, 1L, box.table()));
    }

    // ---- pack / unpack

    @Test
    void packAndUnpack() {
        LuaTable t = (LuaTable) box.call1("table.pack", 1L, null, s("x"));
        assertEquals(3L, t.get(s("n")));
        assertEquals(s("x"), t.getInt(3));
        assertEquals(0L, ((LuaTable) box.call1("table.pack")).get(s("n")));
        assertArrayEquals(new Object[] {1L, 2L, 3L}, box.call("table.unpack", box.table(1L, 2L, 3L)));
        assertArrayEquals(new Object[] {2L, 3L}, box.call("table.unpack", box.table(1L, 2L, 3L), 2L));
        assertArrayEquals(new Object[] {null, 1L, 2L}, box.call("table.unpack", box.table(1L, 2L), 0L, 2L));
        assertArrayEquals(new Object[] {}, box.call("table.unpack", box.table(1L), 3L, 2L));
        LuaTable edge = box.table();
        edge.putInt(Long.MAX_VALUE, 20L);
        assertArrayEquals(new Object[] {null, 20L}, box.call("table.unpack", edge, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        assertArrayEquals(new Object[] {}, box.call("table.unpack", box.table(), Long.MAX_VALUE, Long.MIN_VALUE));
    }

    @Test
    void unpackLimits() {
        long maxi = Integer.MAX_VALUE;
        for (long[] r : new long[][] {{1, 1_000_000}, {0, maxi}, {1, maxi}, {1, Long.MAX_VALUE},
                {Long.MIN_VALUE, Long.MAX_VALUE}, {-maxi, maxi}}) {
            assertEquals("too many results to unpack", box.error("table.unpack", box.table(), r[0], r[1]));
        }
        assertEquals("attempt to get length of a nil value", box.error("table.unpack"));
        box.gasUsed = 0;
        assertEquals(1000, box.call("table.unpack", box.table(), 1L, 1000L).length);
        assertEquals(1000 * TableCosts.ELEMENT, box.gasUsed);
    }

    // ---- sort

    /** The same deterministic shuffle as the Lua script used to take the expectations. */
    private LuaTable perm(int n, long seed) {
        LuaTable a = box.table();
        for (long i = 1; i <= n; i++) a.putInt(i, i);
        long x = seed;
        for (long i = n; i >= 2; i--) {
            x = (x * 1103515245L + 12345L) % 2147483648L;
            long j = x % i + 1;
            Object ai = a.getInt(i);
            a.putInt(i, a.getInt(j));
            a.putInt(j, ai);
        }
        return a;
    }

    private Builtin counting(int[] calls, List<String> log, boolean descending) {
        return Builtin.of("cmp", c -> {
            calls[0]++;
            long x = c.checkInteger(1);
            long y = c.checkInteger(2);
            if (log != null) log.add(x + ":" + y);
            return c.ret(descending ? x > y : x < y);
        });
    }

    @Test
    void sortMakesExactlyPucsComparisons() {
        int[][] expected = {{10, 27}, {200, 1485}, {1000, 10305}};
        for (int[] e : expected) {
            LuaTable a = perm(e[0], 7);
            int[] calls = {0};
            box.gasUsed = 0;
            box.call("table.sort", a, counting(calls, null, false));
            assertEquals(e[1], calls[0], "comparisons for n=" + e[0]);
            assertEquals(e[1] * TableCosts.COMPARISON, box.gasUsed, "gas per comparison");
            for (int i = 1; i <= e[0]; i++) assertEquals((long) i, a.getInt(i));
        }
    }

    @Test
    void sortCallsComparatorInPucsOrder() {
        LuaTable d = perm(15, 5);
        List<String> log = new ArrayList<>();
        box.call("table.sort", d, counting(new int[1], log, true));
        assertEquals("15:9 6:15 9:6 11:9 5:9 9:10 2:9 9:13 7:9 9:3 9:12 14:9 4:9 9:1 9:8 9:4 9:14 14:15 10:15 "
                + "14:10 11:14 14:13 14:12 14:11 14:15 10:12 13:12 11:12 12:11 12:13 10:11 6:8 3:8 6:3 1:6 6:5 "
                + "6:2 6:4 6:7 1:6 6:7 7:8 3:4 5:4 2:4 4:1 4:2 4:5 3:1 2:3 1:2", String.join(" ", log));
        assertEquals(List.of(15L, 14L, 13L, 12L, 11L, 10L, 9L, 8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L), list(d));
    }

    @Test
    void sortDetectsInvalidOrderFunctionsLikePuc() {
        Builtin lessOrEqual = Builtin.of("le", c -> c.ret(c.checkInteger(1) <= c.checkInteger(2)));
        LuaTable a = box.table(3L, 1L, 2L, 3L, 1L, 2L, 3L, 1L, 2L, 5L, 5L, 4L);
        assertEquals("invalid order function for sorting", box.error("table.sort", a, lessOrEqual));
        assertEquals(List.of(1L, 2L, 1L, 1L, 2L, 2L, 3L, 3L, 3L, 4L, 5L, 5L), list(a));

        Builtin always = Builtin.of("true", c -> c.ret(true));
        LuaTable p = perm(30, 3);
        assertEquals("invalid order function for sorting", box.error("table.sort", p, always));
        long[] garbage = {13, 10, 6, 21, 18, 26, 9, 25, 4, 14, 20, 17, 16, 11, 19, 3, 28, 22, 30, 24, 8, 27, 12,
            29, 15, 1, 5, 7, 23, 2};
        for (int i = 0; i < garbage.length; i++) assertEquals(garbage[i], p.getInt(i + 1));
    }

    @Test
    void sortWithoutComparatorUsesLessThan() {
        LuaTable t = box.table(s("b"), s("a"), s("c"), s("A"));
        box.call("table.sort", t);
        assertEquals(List.of(s("A"), s("a"), s("b"), s("c")), list(t));
        LuaTable n = box.table(3L, 1.5, -2L, 10L);
        box.call("table.sort", n);
        assertEquals(List.of(-2L, 1.5, 3L, 10L), list(n));
    }

    @Test
    void sortErrors() {
        assertEquals("attempt to compare string with number", box.error("table.sort", box.table(1L, s("x"))));
        assertEquals("bad argument #1 to 'table.sort' (array too big)",
                box.error("table.sort", fakeLen(Long.MAX_VALUE)));
        assertEquals("bad argument #2 to 'table.sort' (function expected, got number)",
                box.error("table.sort", box.table(3L, 2L, 1L), 3L));
        Builtin failing = Builtin.of("cmp", c -> {
            throw LuaError.of("boom");
        });
        assertEquals("boom", box.error("table.sort", box.table(2L, 1L), failing));
        // trivial lengths need no comparator check, as in PUC
        box.call("table.sort", box.table(1L), 3L);
    }

    @Test
    void sortIsStoppedByGas() {
        LuaTable big = perm(100_000, 11);
        box.gasBudget = 10_000;
        assertThrows(FakeSandbox.OutOfGas.class, () -> box.call("table.sort", big));
    }

    @Test
    void sortOfLargeSortedAndReversedArrays() {
        for (boolean reversed : new boolean[] {false, true}) {
            LuaTable t = box.table();
            int n = 50_000;
            for (int i = 1; i <= n; i++) t.putInt(i, (long) (reversed ? n - i : i));
            box.call("table.sort", t);
            for (int i = 1; i < n; i++) assertTrue((Long) t.getInt(i) <= (Long) t.getInt(i + 1));
        }
        LuaTable same = box.table();
        for (int i = 1; i <= 10_000; i++) same.putInt(i, 7L);
        box.call("table.sort", same);
        assertEquals("number", LuaValues.typeName(same.getInt(1)));
    }
}
