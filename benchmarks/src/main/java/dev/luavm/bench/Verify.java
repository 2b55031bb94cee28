package dev.luavm.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs every program once on each engine and checks its output against lua5.3's; prints a
 * table of ok/wrong/error cells with the time of that single (cold) run. Not a benchmark:
 * it answers "which engine can run which program". Exits 1 if any pair that is not in
 * {@code skips.txt} fails.
 *
 * <p>Usage: {@code Verify [-e engine,...] [-p program,...] [-t timeoutSeconds]}, with
 * {@code -Dbench.dir} and {@code -Dbench.size} as for the benchmarks. With
 * {@code --ignore-skips} skipped pairs are run too (to check a skip is still needed).
 */
public final class Verify {

    private Verify() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> engines = Engines.availableEngines();
        List<String> programs = Programs.names();
        long timeout = 600;
        boolean ignoreSkips = false;
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "-e" -> engines = Arrays.asList(argv[++i].split(","));
                case "-p" -> programs = Arrays.asList(argv[++i].split(","));
                case "-t" -> timeout = Long.parseLong(argv[++i]);
                case "--ignore-skips" -> ignoreSkips = true;
                default -> {
                    System.err.println("usage: Verify [-e engine,...] [-p program,...] [-t seconds] [--ignore-skips]");
                    System.exit(2);
                }
            }
        }
        String size = Programs.size();
        System.err.println("bench.dir=" + Programs.benchDir() + " size=" + (size == null ? "default" : size));

        Map<String, Map<String, String>> cells = new LinkedHashMap<>();
        int failures = 0;
        ExecutorService pool = newPool();
        for (String program : programs) {
            Map<String, String> row = new LinkedHashMap<>();
            cells.put(program, row);
            String expected = Programs.expected(program, size);
            for (String engine : engines) {
                String skip = Skips.reason(engine, program);
                if (skip != null && !ignoreSkips) {
                    row.put(engine, "n/a (" + skip + ")");
                    continue;
                }
                long t0 = System.nanoTime();
                Future<String> f = pool.submit(() -> Engines.create(engine)
                        .compile("@" + program + ".lua", Programs.source(program))
                        .run(Programs.file(program).toString(), Programs.args(size)));
                String cell;
                try {
                    String out = f.get(timeout, TimeUnit.SECONDS);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (out.equals(expected)) {
                        cell = "ok " + ms + " ms";
                    } else {
                        cell = "WRONG OUTPUT";
                        System.err.println(new WrongOutputException(engine, program, expected, out).getMessage());
                    }
                } catch (TimeoutException e) {
                    f.cancel(true);
                    pool.shutdownNow();
                    pool = newPool(); // the stuck thread is a daemon; it dies with the JVM
                    cell = "TIMEOUT >" + timeout + " s";
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable c = e.getCause();
                    cell = "ERROR " + oneLine(c);
                    System.err.println(engine + " " + program + ": " + c);
                } catch (StackOverflowError | OutOfMemoryError e) {
                    cell = "ERROR " + e;
                }
                if (!cell.startsWith("ok") && (skip == null)) {
                    failures++;
                }
                if (skip != null) {
                    cell += " [skipped: " + skip + "]";
                }
                row.put(engine, cell);
                System.err.println(program + " / " + engine + ": " + cell);
            }
        }
        pool.shutdownNow();

        StringBuilder sb = new StringBuilder();
        sb.append("| program |");
        for (String e : engines) {
            sb.append(' ').append(e).append(" |");
        }
        sb.append("\n|---|").append("---|".repeat(engines.size())).append('\n');
        for (Map.Entry<String, Map<String, String>> r : cells.entrySet()) {
            sb.append("| ").append(r.getKey()).append(" |");
            for (String e : engines) {
                sb.append(' ').append(r.getValue().get(e).replace("|", "/")).append(" |");
            }
            sb.append('\n');
        }
        System.out.print(sb);
        System.out.println(failures == 0 ? "all outputs match lua5.3" : failures + " failing pairs");
        System.exit(failures == 0 ? 0 : 1);
    }

    private static ExecutorService newPool() {
        return Executors.newSingleThreadExecutor(r -> {
            // a big stack: some engines recurse on the Java stack
            Thread t = new Thread(null, r, "verify", 256L << 20);
            t.setDaemon(true);
            return t;
        });
    }

    private static String oneLine(Throwable t) {
        String m = t.getClass().getSimpleName() + ": " + t.getMessage();
        m = m.replace('\n', ' ');
        return m.length() > 120 ? m.substring(0, 120) + "..." : m;
    }
}
