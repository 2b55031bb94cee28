package dev.luavm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * A quick side-by-side for iterating on the engine (not a substitute for JMH): runs each program
 * {@code -n} times per engine in this JVM, checks the output every time, and prints the best
 * thread-CPU seconds of the last half of the runs next to lua5.3's CPU seconds, with ratios.
 * Thread CPU leaves out the JVM's compiler and GC threads, so it flatters a JVM engine; use it to
 * compare two versions of luavm measured in the same minute on a busy machine, where wall time
 * is noise.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.luavm.bench.Quick [-n 6] [programs] [engines]
 * java -cp ... dev.luavm.bench.Quick -n 6 fib,nbody luavm-compiled,luavm-metered
 * </pre>
 * Engines: the names of {@link Engines}, plus {@code luavm-compile-all} (metered, every
 * function compiled at its first call) and {@code luavm-interp} (metered, interpreted).
 */
public final class Quick {
    private Quick() {}

    public static void main(String[] argv) throws Exception {
        int n = 6;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            if (argv[i].equals("-n")) n = Integer.parseInt(argv[++i]);
            else rest.add(argv[i]);
        }
        List<String> programs = rest.size() > 0 && !rest.get(0).equals("all")
                ? List.of(rest.get(0).split(",")) : Programs.names();
        List<String> engines = rest.size() > 1 ? List.of(rest.get(1).split(",")) : List.of("luavm-compiled");
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        String size = Programs.size();
        System.out.printf("%-14s %8s", "program", "lua5.3");
        for (String e : engines) System.out.printf(" %18s", e);
        System.out.println();
        List<List<Double>> ratios = new ArrayList<>();
        for (int e = 0; e < engines.size(); e++) ratios.add(new ArrayList<>());
        for (String p : programs) {
            String expected = Programs.expected(p, size);
            double lua = lua53Cpu(p, size);
            System.out.printf("%-14s %8.3f", p, lua);
            for (int e = 0; e < engines.size(); e++) {
                Engine engine = create(engines.get(e));
                Engine.Program prog = engine.compile("@" + p + ".lua", Programs.source(p));
                double best = Double.MAX_VALUE;
                for (int r = 0; r < n; r++) {
                    long t0 = cpu.getCurrentThreadCpuTime();
                    String out = prog.run(p + ".lua", Programs.args(size));
                    double s = (cpu.getCurrentThreadCpuTime() - t0) / 1e9;
                    if (!out.equals(expected)) throw new WrongOutputException(engines.get(e), p, expected, out);
                    if (r >= n / 2) best = Math.min(best, s);
                }
                ratios.get(e).add(best / lua);
                System.out.printf(" %8.3f (%5.2fx)", best, best / lua);
            }
            System.out.println();
        }
        System.out.printf("%-14s %8s", "geomean", "");
        for (List<Double> r : ratios) {
            double g = Math.exp(r.stream().mapToDouble(Math::log).average().orElse(0));
            System.out.printf(" %8s (%5.2fx)", "", g);
        }
        System.out.println();
    }

    private static Engine create(String name) {
        return switch (name) {
            case "luavm-compile-all" -> new LuavmEngine(true, "compile-all");
            case "luavm-interp" -> new LuavmEngine(true, "interp");
            default -> Engines.create(name);
        };
    }

    /** User+system CPU seconds of one whole lua5.3 process (best of three). */
    private static double lua53Cpu(String p, String size) throws Exception {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                    "TIMEFORMAT='%U %S'; { time lua5.3 \"$0\" $1 >/dev/null; } 2>&1", Programs.file(p).toString(),
                    size == null ? "" : size));
            Process pr = new ProcessBuilder(cmd).start();
            String[] t = new String(pr.getInputStream().readAllBytes()).trim().split("\\s+");
            pr.waitFor();
            best = Math.min(best, Double.parseDouble(t[t.length - 2]) + Double.parseDouble(t[t.length - 1]));
        }
        return best;
    }
}
