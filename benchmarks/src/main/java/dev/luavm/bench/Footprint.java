package dev.luavm.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jol.info.GraphLayout;

/**
 * Retained bytes per sandbox: N sandboxes are created (each evaluates {@code return 1}) and
 * kept in a list; the heap in use after a full GC, minus the heap in use before, divided by
 * N. A second estimate walks the object graphs with JOL: (size of K sandboxes - size of 1)
 * / (K - 1), which counts only what each additional sandbox adds (shared, immutable
 * structures such as compiled library code are counted once).
 *
 * <p>Usage: {@code Footprint [-n N] [-e engine,...]}; prints a Markdown table.
 * Run with a fixed heap ({@code -Xms2g -Xmx2g}) so the GC does not resize it mid-measurement,
 * and with {@code -Djdk.attach.allowAttachSelf=true}, which JOL needs on JDK 17.
 */
public final class Footprint {

    private static final int JOL_SAMPLE = 20;

    private Footprint() {
    }

    public static void main(String[] argv) throws Exception {
        int n = 2000;
        List<String> engines = new ArrayList<>();
        for (String e : List.of(Engines.LUAVM, Engines.LUAJ, Engines.LUNA)) {
            if (Engines.available(e)) {
                engines.add(e);
            }
        }
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "-n" -> n = Integer.parseInt(argv[++i]);
                case "-e" -> engines = Arrays.asList(argv[++i].split(","));
                default -> {
                    System.err.println("usage: Footprint [-n N] [-e engine,...]");
                    System.exit(2);
                }
            }
        }
        System.out.println("| engine | sandboxes | retained bytes per sandbox (heap delta) | bytes per additional sandbox (JOL graph walk) |");
        System.out.println("|---|---|---|---|");
        for (String name : engines) {
            Engine engine = Engines.create(name);
            for (int i = 0; i < 200; i++) { // warm up: load classes, JIT the setup path
                try (Engine.Session s = engine.newSession()) {
                    s.eval("return 1");
                }
            }
            List<Engine.Session> kept = new ArrayList<>(n);
            long before = usedAfterGc();
            for (int i = 0; i < n; i++) {
                Engine.Session s = engine.newSession();
                s.eval("return 1");
                kept.add(s);
            }
            long after = usedAfterGc();
            long perSandbox = (after - before) / n;
            String jol;
            try {
                long one = GraphLayout.parseInstance(kept.get(0)).totalSize();
                long k = GraphLayout.parseInstance(kept.subList(0, JOL_SAMPLE).toArray()).totalSize();
                jol = String.valueOf((k - one) / (JOL_SAMPLE - 1));
            } catch (RuntimeException | Error e) {
                jol = "n/a (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
            }
            System.out.println("| " + name + " | " + n + " | " + perSandbox + " | " + jol + " |");
            for (Engine.Session s : kept) {
                s.close();
            }
            kept.clear();
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, rt.totalMemory() - rt.freeMemory());
        }
        return used;
    }
}
