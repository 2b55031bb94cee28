package dev.luavm.lib;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies of a template share its hash part until they write (LuaTable's "Copies share their hash
 * part until written"): every kind of write lands in the copy's own arrays, never in the template
 * or a sibling copy, and a copy looks, iterates and is charged exactly like a table built by
 * filling it in place and then written the same way.
 */
class TableTemplateTest {
    private static final int KEYS = 20;

    private static LuaString k(int i) {
        return LuaString.of("name" + i);
    }

    private static final Consumer<LuaTable> FILL = t -> {
        for (int i = 0; i < KEYS; i++) t.put(k(i), (long) i);
    };

    /** Every (key, value) in next order, and the hash layout. */
    private static List<String> view(LuaTable t) {
        List<String> out = new ArrayList<>();
        Object[] kv = new Object[2];
        Object key = null;
        while (t.next(key, kv)) {
            // a broken layout can make next cycle: fail, rather than fill the heap
            if (out.size() > 10_000) throw new AssertionError("next does not end: " + out.subList(0, 20));
            out.add(kv[0] + "=" + kv[1]);
            key = kv[0];
        }
        out.add("cap " + t.hashCapacity() + " used " + t.hashUsed() + " array " + t.arrayCapacity());
        for (int i = 0; i < t.hashCapacity(); i++) out.add(i + ":" + t.hashKeyAt(i) + "=" + t.hashValueAt(i));
        return out;
    }

    /** The table a template copy must behave as: built in place, with the copy's charge. */
    private static LuaTable builtInPlace() {
        LuaTable t = new LuaTable(MemoryMeter.unlimited());
        FILL.accept(t);
        return t;
    }

    private interface Write {
        void apply(LuaTable t);
    }

    private static final List<Write> WRITES = List.of(
            t -> t.put(k(3), LuaString.of("changed")),          // an existing key (hashPut)
            t -> t.putStr(k(4), 44L),                           // an existing key (putStr's fast path)
            t -> assertTrue(t.replaceStr(hashed(k(5)), 55L)),   // replaceStr (the compiled tier's field store)
            t -> t.put(k(6), null),                             // a dead key
            t -> t.put(LuaString.of("fresh"), true),            // a new key into a free slot
            t -> t.putInt(1, 1.5),                              // an integer key (hash part: no array part)
            t -> { for (int i = 0; i < 40; i++) t.put(LuaString.of("more" + i), (long) i); }, // rehashes
            t -> t.clearAt(t.arrayCapacity() + firstLive(t)));  // the collector clearing a weak entry

    /** A key whose hash is known, as a constant of compiled code is (replaceStr's fast path needs it). */
    private static LuaString hashed(LuaString s) {
        s.hashCode();
        return s;
    }

    private static int firstLive(LuaTable t) {
        for (int i = 0; i < t.hashCapacity(); i++) if (t.hashValueAt(i) != null) return i;
        throw new AssertionError("empty");
    }

    @Test
    void everyWriteLandsInTheCopyAlone() {
        TableTemplate template = TableTemplate.of(FILL);
        LuaTable pristine = template.copy(MemoryMeter.unlimited());
        List<String> original = view(pristine);
        for (int w = 0; w < WRITES.size(); w++) {
            LuaTable copy = template.copy(MemoryMeter.unlimited());
            LuaTable sibling = template.copy(MemoryMeter.unlimited());
            LuaTable reference = builtInPlace();
            WRITES.get(w).apply(copy);
            WRITES.get(w).apply(reference);
            assertEquals(view(reference), view(copy), "write " + w + ": the copy differs from a table built in place");
            assertEquals(original, view(sibling), "write " + w + " reached a sibling copy");
            assertEquals(original, view(template.copy(MemoryMeter.unlimited())), "write " + w + " reached the template");
        }
    }

    @Test
    void writesAccumulateInTheCopy() {
        TableTemplate template = TableTemplate.of(FILL);
        LuaTable copy = template.copy(MemoryMeter.unlimited());
        LuaTable reference = builtInPlace();
        for (Write w : WRITES) {
            w.apply(copy);
            w.apply(reference);
            assertEquals(view(reference), view(copy));
        }
        assertNull(template.copy(MemoryMeter.unlimited()).get(LuaString.of("fresh")));
    }

    @Test
    void aCopyIsChargedWhatBuildingItCharged() {
        MemoryMeter built = new MemoryMeter(1L << 30);
        FILL.accept(new LuaTable(built));
        MemoryMeter copied = new MemoryMeter(1L << 30);
        TableTemplate.of(FILL).copy(copied);
        // the template's charge also counts the key strings, which the memory walk counts per sandbox
        long strings = 0;
        for (int i = 0; i < KEYS; i++) strings += dev.luavm.meter.Sizes.string(k(i).length());
        assertEquals(built.totalCharged() + strings, copied.totalCharged());
    }

    @Test
    void aFirstWriteUnderAGasMeterChargesWhatACopyDid() {
        GasMeter gasA = new GasMeter(1L << 40);
        GasMeter gasB = new GasMeter(1L << 40);
        MemoryMeter a = new MemoryMeter(1L << 30);
        MemoryMeter b = new MemoryMeter(1L << 30);
        a.linkGas(gasA);
        b.linkGas(gasB);
        LuaTable copy = TableTemplate.of(FILL).copy(a);
        LuaTable reference = new LuaTable(b);
        FILL.accept(reference);
        long gasBefore = gasB.used();
        long memA = a.totalCharged();
        long memB = b.totalCharged();
        for (Write w : WRITES) {
            w.apply(copy);
            w.apply(reference);
        }
        assertEquals(gasB.used() - gasBefore, gasA.used());
        assertEquals(b.totalCharged() - memB, a.totalCharged() - memA);
    }

    /** Puts {@code n} new string keys named {@code prefix1..n}, as installing bundles or a host's setGlobal does (no gas linked). */
    private static void putNames(LuaTable t, String prefix, int n) {
        for (int i = 1; i <= n; i++) t.put(LuaString.of(prefix + i), (long) i);
    }

    @Test
    void newKeysTakeTheLearnedStepsAndGiveThePutsLayout() {
        TableTemplate template = TableTemplate.of(FILL);
        LuaTable reference = builtInPlace();
        putNames(reference, "lib", 40); // two rehashes on the way
        for (int copy = 0; copy < 4; copy++) { // the first learns the steps, the others take them
            MemoryMeter m = new MemoryMeter(1L << 30);
            LuaTable t = template.copy(m);
            long before = m.totalCharged();
            putNames(t, "lib", 40);
            assertEquals(view(reference), view(t), "copy " + copy);
            MemoryMeter r = new MemoryMeter(1L << 30);
            LuaTable fresh = new LuaTable(r);
            FILL.accept(fresh);
            long rBefore = r.totalCharged();
            putNames(fresh, "lib", 40);
            assertEquals(r.totalCharged() - rBefore, m.totalCharged() - before, "copy " + copy + ": charged");
        }
        assertEquals(view(builtInPlace()), view(template.copy(MemoryMeter.unlimited())), "the template changed");
    }

    @Test
    void aDeadKeyBeforeARehashTakesTheOrdinaryPath() {
        TableTemplate template = TableTemplate.of(FILL);
        LuaTable warm = template.copy(MemoryMeter.unlimited());
        putNames(warm, "lib", 40); // learn the steps with every key alive
        LuaTable t = template.copy(MemoryMeter.unlimited());
        LuaTable reference = builtInPlace();
        for (LuaTable x : List.of(t, reference)) {
            x.put(k(2), null); // dead: the rehash drops it
            putNames(x, "lib", 40);
        }
        assertEquals(view(reference), view(t));
    }

    @Test
    void stepsAreBoundedAndTheLayoutStaysRight() {
        TableTemplate template = TableTemplate.of(FILL);
        for (int round = 0; round < 3 * 64; round++) { // far past the budget of learned layouts
            LuaTable t = template.copy(MemoryMeter.unlimited());
            LuaTable reference = builtInPlace();
            putNames(t, "r" + round + "_", 6);
            putNames(reference, "r" + round + "_", 6);
            assertEquals(view(reference), view(t), "round " + round);
        }
    }

    @Test
    void aTemplateWithIntegerKeysLeavesArrayPartsToTheOrdinaryPath() {
        Consumer<LuaTable> fill = t -> {
            for (int i = 0; i < 6; i++) t.put(k(i), (long) i);
            t.put(3L, "three"); // an integer key in the hash part: a rehash may make an array part
            t.put(1L, "one");
        };
        TableTemplate template = TableTemplate.of(fill);
        for (int copy = 0; copy < 3; copy++) {
            LuaTable t = template.copy(MemoryMeter.unlimited());
            LuaTable reference = new LuaTable(MemoryMeter.unlimited());
            fill.accept(reference);
            putNames(t, "x", 20);
            putNames(reference, "x", 20);
            assertEquals(view(reference), view(t), "copy " + copy);
        }
    }

    @Test
    void copiesOnManyThreadsLearnAndShareSafely() throws Exception {
        TableTemplate template = TableTemplate.of(FILL);
        LuaTable reference = builtInPlace();
        putNames(reference, "g", 30);
        List<String> want = view(reference);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<String>> results = new ArrayList<>();
            for (int task = 0; task < 8; task++) {
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 300; i++) {
                        LuaTable t = template.copy(MemoryMeter.unlimited());
                        putNames(t, "g", 30);
                        t.put(k(1), LuaString.of("mine")); // a write after the steps: the copy's own
                        t.put(k(1), 1L);
                        if (!view(t).equals(want)) return "differs: " + view(t);
                    }
                    return "ok";
                }));
            }
            for (java.util.concurrent.Future<String> f : results) assertEquals("ok", f.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void duringARunNewKeysTakeTheOrdinaryPathAndItsGas() {
        TableTemplate template = TableTemplate.of(FILL);
        putNames(template.copy(MemoryMeter.unlimited()), "lib", 40); // steps learned
        GasMeter gasA = new GasMeter(1L << 40);
        GasMeter gasB = new GasMeter(1L << 40);
        MemoryMeter a = new MemoryMeter(1L << 30);
        MemoryMeter b = new MemoryMeter(1L << 30);
        LuaTable t = template.copy(a);
        LuaTable reference = new LuaTable(b);
        FILL.accept(reference);
        a.linkGas(gasA);
        b.linkGas(gasB);
        long gasBefore = gasB.used();
        putNames(t, "lib", 40);
        putNames(reference, "lib", 40);
        assertEquals(view(reference), view(t));
        assertEquals(gasB.used() - gasBefore, gasA.used());
        assertTrue(gasA.used() > 0, "rehashes charge gas during a run");
    }
}
