package dev.luavm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.vm.tier.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's smoke run (a few thousand runs, every kind) and its verdict, without the million. */
class SoakTest {

    @Test
    void aSmallSoakRunsEveryKindAndEachEndsAsItMust() throws Exception {
        Soak.Report r = new Soak(new Soak.Settings(1_500, 16, 3, Tier.AUTO, 4, 7)).run(null);
        assertEquals(0, r.unexpected(), r.examples().toString());
        for (Soak.Kind k : Soak.Kind.values()) assertTrue(r.counts().get(k) > 0, k + " never ran");
        assertEquals(1_500, r.counts().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(5, r.samples().size());
        String md = Soak.markdown(r);
        assertTrue(md.startsWith(Soak.BEGIN) && md.strip().endsWith(Soak.END), md);
        assertTrue(md.contains("| heap (after GC) |") && md.contains("| file handles |") && md.contains("| cancel |"), md);
    }

    @Test
    void eachAttackEndsAsItMustInOneSandbox() {
        Soak soak = new Soak(new Soak.Settings(1, 1, 1, Tier.INTERP, 4, 1));
        try (dev.luavm.Sandbox sb = soak.newSandboxForTest()) {
            for (Soak.Kind k : Soak.Kind.values()) {
                for (long n = 1; n <= 3; n++) assertNull(soak.runOne(sb, k, n), k + " n=" + n);
            }
        }
    }

    private static List<Soak.Sample> series(long... heaps) {
        List<Soak.Sample> out = new ArrayList<>();
        for (int i = 0; i < heaps.length; i++) out.add(new Soak.Sample(i * 1000L, heaps[i], 50 << 20, 5000, 20, 12, i));
        return out;
    }

    @Test
    void aFigureThatKeepsGrowingFailsAndAStepDoesNot() {
        long mib = 1 << 20;
        // a leak: 10 MiB per checkpoint, steadily
        Soak.Trend leak = Soak.Trend.of("heap", series(100 * mib, 110 * mib, 120 * mib, 130 * mib, 140 * mib, 150 * mib, 160 * mib,
                170 * mib, 180 * mib), Soak.Sample::heapBytes, 24 * mib, 0.05);
        assertTrue(leak.growing(), leak.toString());
        // one step early (a cache filled once), then flat
        Soak.Trend step = Soak.Trend.of("heap", series(100 * mib, 150 * mib, 180 * mib, 181 * mib, 180 * mib, 182 * mib, 181 * mib,
                183 * mib, 182 * mib), Soak.Sample::heapBytes, 24 * mib, 0.05);
        assertFalse(step.growing(), step.toString());
        // noise within the slack
        Soak.Trend noise = Soak.Trend.of("heap", series(100 * mib, 200 * mib, 190 * mib, 205 * mib, 195 * mib, 210 * mib, 200 * mib,
                198 * mib, 207 * mib), Soak.Sample::heapBytes, 24 * mib, 0.05);
        assertFalse(noise.growing(), noise.toString());
        // threads: one more each checkpoint
        List<Soak.Sample> threads = new ArrayList<>();
        for (int i = 0; i < 9; i++) threads.add(new Soak.Sample(i, 1, 1, 1, 20 + i, 12, i));
        assertTrue(Soak.Trend.of("threads", threads, s -> s.threads(), 2, 0).growing());
    }

    @Test
    void theSectionIsReplacedAndTheRestKept(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("RESULTS.md");
        Files.writeString(f, "# Results\n\nbefore\n\n" + Soak.BEGIN + "\nold\n" + Soak.END + "\n\nafter\n");
        Soak.writeSection(f, Soak.BEGIN + "\nnew\n" + Soak.END + "\n");
        assertEquals("# Results\n\nbefore\n\n" + Soak.BEGIN + "\nnew\n" + Soak.END + "\n\nafter\n", Files.readString(f));
        Path g = dir.resolve("empty.md");
        Soak.writeSection(g, Soak.BEGIN + "\nx\n" + Soak.END + "\n");
        assertEquals(Soak.BEGIN + "\nx\n" + Soak.END + "\n", Files.readString(g));
    }
}
