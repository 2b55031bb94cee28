package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Is gas fair? For every case of {@link GasFairnessCases} (every library function and every
 * opcode) and every scale of its input (1x, 10x, 100x, 1000x), the CPU nanoseconds the current
 * thread spends per unit of gas charged, over warm repetitions of the case's loop. A fair meter
 * gives every path about the same figure; a path whose work grows faster than its gas shows as a
 * figure that grows with the scale. The verdict: the median over all measurements, each case's
 * worst ratio to it, and exit status 1 when any exceeds {@link #DEFAULT_LIMIT} (20x).
 *
 * <p>usage: {@code GasFairness [--results RESULTS.md] [--only REGEX] [--quick] [--limit X]}.
 * With {@code --results}, the table replaces the section between the gas-fairness markers of
 * that file (appended when absent); the rest of the file is kept.
 */
public final class GasFairness {
    static final double DEFAULT_LIMIT = 20;
    static final long[] SCALES = {1, 10, 100, 1000};
    static final String BEGIN = "<!-- gas-fairness: begin (written by benchmarks/gas-fairness) -->";
    static final String END = "<!-- gas-fairness: end -->";

    /** Gas a measured run must reach at least (repetitions are raised until it does). */
    static final long MIN_GAS_PER_RUN = 100_000;
    static final long MAX_K = 10_000_000;

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** CPU time spent warming each case at each scale, and measuring it, in nanoseconds. */
    private final long warmNanos;
    private final long measureNanos;
    private final long windowNanos;
    /** A run longer than this stops the case's larger scales (a quadratic path would take minutes). */
    private final long giveUpNanos;
    private final LuaVM vm = LuaVM.create();
    private final Capabilities caps = Capabilities.standard().toBuilder().bundle("debug", "package").build();

    GasFairness(boolean quick) {
        warmNanos = quick ? 10_000_000L : 40_000_000L;
        measureNanos = quick ? 20_000_000L : 100_000_000L;
        windowNanos = measureNanos / 5;
        giveUpNanos = quick ? 1_000_000_000L : 2_000_000_000L;
    }

    /** ns/gas at each scale (NaN: not measured), and the gas of one repetition of the statement at each scale. */
    record Row(GasFairnessCases.Case c, double[] nsPerGas, long[] gasPerRun, String note) {
        double worst() {
            double w = 0;
            for (double v : nsPerGas) if (!Double.isNaN(v)) w = Math.max(w, v);
            return w;
        }
    }

    public static void main(String[] args) throws Exception {
        Path results = null;
        Pattern only = null;
        boolean quick = false;
        double limit = DEFAULT_LIMIT;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--results" -> results = Path.of(args[++i]);
                case "--only" -> only = Pattern.compile(args[++i]);
                case "--quick" -> quick = true;
                case "--limit" -> limit = Double.parseDouble(args[++i]);
                default -> {
                    System.err.println("usage: GasFairness [--results RESULTS.md] [--only REGEX] [--quick] [--limit X]");
                    System.exit(2);
                }
            }
        }
        if (!CPU.isCurrentThreadCpuTimeSupported()) throw new IllegalStateException("no thread CPU time on this JVM");
        GasFairness bench = new GasFairness(quick);
        List<Row> rows = new ArrayList<>();
        long start = System.nanoTime();
        bench.prewarm(only);
        for (GasFairnessCases.Case c : GasFairnessCases.all()) {
            if (only != null && !only.matcher(c.name()).find()) continue;
            Row r = bench.measure(c, quick);
            rows.add(r);
            System.err.printf(Locale.ROOT, "%-55s %s%s%n", c.name(), format(r.nsPerGas()), r.note().isEmpty() ? "" : "  " + r.note());
        }
        double median = median(rows);
        String table = report(rows, median, limit, quick, (System.nanoTime() - start) / 1e9);
        System.out.println(table);
        if (results != null) writeSection(results, table);
        double bound = limit * median;
        long over = rows.stream().filter(r -> r.worst() > bound).count();
        if (over > 0) {
            System.err.printf(Locale.ROOT, "%d case(s) above %.0fx the median (%.2f ns/gas)%n", over, limit, median);
            System.exit(1);
        }
    }

    private static String format(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) b.append(String.format(Locale.ROOT, "%9s", Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.2f", x)));
        return b.toString();
    }

    /**
     * Runs every case briefly at 1x before anything is measured, so the dispatch loop is compiled
     * with a profile that has seen every opcode and library path: otherwise the first case to use
     * an opcode pays a deoptimisation and a recompilation of the loop.
     */
    void prewarm(Pattern only) {
        for (int round = 0; round < 2; round++) {
            for (GasFairnessCases.Case c : GasFairnessCases.all()) {
                if (only != null && !only.matcher(c.name()).find()) continue;
                try (Sandbox sb = sandbox()) {
                    if (!c.setup().isEmpty()) sb.eval("setup", c.setupAt(c.n0()));
                    sb.run(vm.compile(c.name(), c.chunkAt(c.n0(), Math.max(1, c.k0() / 10))));
                } catch (RuntimeException e) {
                    // reported when the case is measured
                }
            }
        }
    }

    private Sandbox sandbox() {
        return vm.sandbox().capabilities(caps)
                .limits(Limits.unlimited().withGas(1L << 62).withMemory(1L << 40))
                .output(OutputStream.nullOutputStream())
                .modules(name -> "return {}")
                .build();
    }

    Row measure(GasFairnessCases.Case c, boolean quick) {
        long[] scales = c.sized() ? (quick ? new long[] {1, 10} : SCALES) : new long[] {1};
        double[] ns = new double[SCALES.length];
        long[] gas = new long[SCALES.length];
        Arrays.fill(ns, Double.NaN);
        String note = "";
        for (int i = 0; i < scales.length; i++) {
            long n = c.sized() ? c.n0() * scales[i] : 0;
            long k = Math.max(1, c.k0() / scales[i]);
            try (Sandbox sb = sandbox()) {
                if (!c.setup().isEmpty()) sb.eval("setup", c.setupAt(n));
                CompiledChunk chunk = vm.compile(c.name(), c.chunkAt(n, k));
                // calibrate: enough repetitions that a run's fixed cost (entering the sandbox) is noise
                long t0 = CPU.getCurrentThreadCpuTime();
                sb.run(chunk);
                long first = CPU.getCurrentThreadCpuTime() - t0;
                long runGas = Math.max(1, sb.usage().gas());
                if (first > giveUpNanos) {
                    note = "gave up after " + (first / 1_000_000_000L) + " s CPU at " + scales[i] + "x";
                    break;
                }
                if (runGas < MIN_GAS_PER_RUN) {
                    k = Math.min(MAX_K, k * ((MIN_GAS_PER_RUN + runGas - 1) / runGas));
                    chunk = vm.compile(c.name(), c.chunkAt(n, k));
                }
                long[] m = run(sb, chunk);
                if (m == null) {
                    note = "gave up after " + (giveUpNanos / 1_000_000_000L) + " s CPU at " + scales[i] + "x";
                    break;
                }
                gas[i] = m[2] / k; // per repetition of the case's statement
                ns[i] = m[1] == 0 ? Double.NaN : (double) m[0] / m[1];
            } catch (RuntimeException e) {
                note = "failed at " + scales[i] + "x: " + e;
                break;
            }
        }
        return new Row(c, ns, gas, note);
    }

    /**
     * Warm runs, then measured runs in windows: {cpu nanos, gas} of the window with the fewest
     * nanoseconds per gas, and the gas of one run; null when a warm run takes longer than
     * {@link #giveUpNanos}.
     */
    private long[] run(Sandbox sb, CompiledChunk chunk) {
        long spent = 0;
        while (spent < warmNanos) { // the calibration run came first: at least two runs before measuring
            long t0 = CPU.getCurrentThreadCpuTime();
            sb.run(chunk);
            long dt = CPU.getCurrentThreadCpuTime() - t0;
            if (dt > giveUpNanos) return null;
            spent += dt;
        }
        // windows of at least WINDOW each; the cheapest counts: interference (another process, a
        // collection, a deoptimisation) only ever adds time
        long cpu = 0;
        long gas = 0;
        long one = 0;
        long bestCpu = 0;
        long bestGas = 0;
        long total = 0;
        while (total < measureNanos || bestGas == 0) {
            long t0 = CPU.getCurrentThreadCpuTime();
            sb.run(chunk);
            long dt = CPU.getCurrentThreadCpuTime() - t0;
            one = sb.usage().gas();
            cpu += dt;
            gas += one;
            total += dt;
            if (cpu >= windowNanos || total >= measureNanos) {
                if (bestGas == 0 || (double) cpu / gas < (double) bestCpu / bestGas) {
                    bestCpu = cpu;
                    bestGas = gas;
                }
                cpu = 0;
                gas = 0;
            }
        }
        return new long[] {bestCpu, bestGas, one};
    }

    static double median(List<Row> rows) {
        List<Double> all = new ArrayList<>();
        for (Row r : rows) for (double v : r.nsPerGas()) if (!Double.isNaN(v)) all.add(v);
        if (all.isEmpty()) return Double.NaN;
        all.sort(null);
        int n = all.size();
        return n % 2 == 1 ? all.get(n / 2) : (all.get(n / 2 - 1) + all.get(n / 2)) / 2;
    }

    static String report(List<Row> rows, double median, double limit, boolean quick, double seconds) {
        StringBuilder b = new StringBuilder();
        b.append(BEGIN).append('\n');
        b.append("## Gas fairness: CPU nanoseconds per unit of gas\n\n");
        String commit = System.getProperty("gasfairness.commit", "");
        b.append(String.format(Locale.ROOT, "Written by `benchmarks/gas-fairness`%s on %s%s (%.0f s; %d processors, Java %s). ",
                quick ? " --quick (not a measurement)" : "",
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                commit.isEmpty() ? "" : " at commit " + commit, seconds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version")));
        b.append("Thread CPU time per unit of gas over warm runs of each case's loop, at 1x, 10x, 100x and 1000x ")
                .append("its input (see benchmarks/README.md); gas/rep is the gas of one repetition of the case's statement. ");
        b.append(String.format(Locale.ROOT, "**Median: %.2f ns/gas.** A path may not exceed %.0fx the median ", median, limit))
                .append(String.format(Locale.ROOT, "(%.1f ns/gas); rows above are marked **over**. ", median * limit))
                .append("Area: VM work (tables, string compares, value copies, numerals), compiler, library, ")
                .append("or VM (plain opcodes).\n\n");
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort((x, y) -> Double.compare(y.worst(), x.worst()));
        Row top = sorted.isEmpty() ? null : sorted.get(0);
        if (top != null) {
            b.append(String.format(Locale.ROOT, "Worst: %s (%s), %.1fx the median.\n\n", top.c().name(), top.c().owner(),
                    top.worst() / median));
        }
        b.append("| case | kind | area | gas/rep 1x | gas/rep 1000x | ns/gas 1x | 10x | 100x | 1000x | worst / median | |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : sorted) {
            double ratio = r.worst() / median;
            b.append("| ").append(r.c().name().replace("|", "\\|")).append(" | ").append(r.c().group())
                    .append(" | ").append(r.c().owner())
                    .append(" | ").append(r.gasPerRun()[0])
                    .append(" | ").append(r.c().sized() && r.gasPerRun()[3] > 0 ? Long.toString(r.gasPerRun()[3]) : "")
                    .append(" |");
            for (double v : r.nsPerGas()) b.append(' ').append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2f", v)).append(" |");
            b.append(String.format(Locale.ROOT, " %.1f | %s%s |\n", ratio, ratio > limit ? "**over**" : "",
                    r.note().isEmpty() ? "" : (ratio > limit ? "; " : "") + r.note()));
        }
        b.append('\n').append(END).append('\n');
        return b.toString();
    }

    /** Replaces the marked section of {@code file} with {@code section}, or appends it. */
    static void writeSection(Path file, String section) throws IOException {
        String old = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        int a = old.indexOf(BEGIN);
        int z = old.indexOf(END);
        String text;
        if (a >= 0 && z > a) {
            text = old.substring(0, a) + section.strip() + old.substring(z + END.length());
        } else {
            text = old + (old.isEmpty() || old.endsWith("\n\n") ? "" : old.endsWith("\n") ? "\n" : "\n\n") + section;
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
