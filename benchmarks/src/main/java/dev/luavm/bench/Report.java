package dev.luavm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns JMH CSV results (and lua5.3 process times) into the Markdown tables of RESULTS.md.
 *
 * <p>Usage: {@code Report [--programs jmh.csv]... [--embedding jmh.csv]... [--embedder jmh.csv]
 * [--lua53 times.tsv] [--startup times.tsv] [--compiler summary.tsv] [--engines e1,e2,...]
 * [--only p1,p2,...] [--goals] [--chart ratios.svg]}. {@code --embedder}, {@code --startup} and
 * {@code --compiler} feed the goals only ({@link Goals}): {@link EmbedderBenchmark}'s scores, one
 * {@code name<TAB>seconds} per start-up command, and {@code CompileVsLuac --summary}. With {@code --chart}, the
 * warm-run ratios are also drawn as an SVG picture ({@link RatioChart}) into that file. {@code times.tsv} has one {@code program<TAB>seconds} per line
 * (what {@code compare-processes.sh --tsv} writes; extra columns are ignored). A pair with
 * no JMH score shows as {@code n/a (reason)} if {@code skips.txt} skips it, else as
 * {@code no result} (the benchmark failed, e.g. wrong output: see the JMH log).
 */
public final class Report {

    /** One JMH score, in seconds. */
    record Score(double seconds, double errorSeconds, int samples) {
    }

    private Report() {
    }

    public static void main(String[] argv) throws IOException {
        Map<String, Score> programScores = new HashMap<>();   // engine + " " + program
        Map<String, Score> embeddingScores = new HashMap<>(); // method + " " + engine
        Map<String, Double> lua53 = new HashMap<>();
        Map<String, Double> processes = new HashMap<>(); // program -> ./luavm whole-process seconds
        Map<String, Double> startUp = new HashMap<>();
        Map<String, List<String>> compiler = new HashMap<>();
        boolean goalsOnly = false;
        Path chart = null;
        List<String> engines = new ArrayList<>(Engines.ALL);
        List<String> programs = Programs.names();
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--programs" -> readCsv(Paths.get(argv[++i]), programScores, false);
                case "--embedding" -> readCsv(Paths.get(argv[++i]), embeddingScores, true);
                case "--lua53" -> {
                    Path tsv = Paths.get(argv[++i]);
                    readTsv(tsv, 1, lua53);
                    readTsv(tsv, 2, processes);
                }
                case "--embedder" -> readCsv(Paths.get(argv[++i]), programScores, false);
                case "--startup" -> readTsv(Paths.get(argv[++i]), 1, startUp);
                case "--compiler" -> readSummary(Paths.get(argv[++i]), compiler);
                case "--goals" -> goalsOnly = true;
                case "--chart" -> chart = Paths.get(argv[++i]);
                case "--engines" -> engines = Arrays.asList(argv[++i].split(","));
                case "--only" -> {
                    List<String> only = Arrays.asList(argv[++i].split(","));
                    programs = programs.stream().filter(only::contains).toList();
                }
                default -> {
                    System.err.println("usage: Report [--programs csv]... [--embedding csv]... [--embedder csv] [--lua53 tsv] [--startup tsv] [--compiler tsv] [--engines list] [--only programs] [--goals] [--chart svg]");
                    System.exit(2);
                }
            }
        }
        StringBuilder out = new StringBuilder();
        if (goalsOnly) {
            Goals.write(out, programs, programScores, lua53, processes, engines, new Goals.Extras(startUp, compiler));
            System.out.print(out);
            return;
        }
        if (chart != null) {
            String svg = RatioChart.svg(programs, programScores, lua53, engines, Programs.ownNames());
            if (svg != null) {
                Files.writeString(chart, svg, StandardCharsets.UTF_8);
            }
        }
        Notes notes = new Notes();
        programTables(out, programs, programScores, lua53, engines, notes);
        notes.appendTo(out);
        embeddingTables(out, embeddingScores);
        System.out.print(out);
    }

    private static void programTables(StringBuilder out, List<String> programs, Map<String, Score> scores,
                                      Map<String, Double> lua53, List<String> engines, Notes notes) {
        out.append("### Warm runs: seconds per run (JMH single-shot, mean ± 99.9% error)\n\n");
        out.append("Each program compiled once, then run in a fresh environment per sample; output checked against lua5.3 on every run.\n");
        out.append("`lua5.3` is the median wall time of whole `lua5.3` processes (from compare-processes.sh).\n\n");
        header(out, "program", "lua5.3", engines);
        for (String p : programs) {
            out.append("| ").append(p).append(" | ").append(lua53.containsKey(p) ? fmt(lua53.get(p)) : "-").append(" |");
            for (String e : engines) {
                Score s = scores.get(e + " " + p);
                out.append(' ').append(s == null ? missing(e, p, notes) : fmt(s.seconds) + errText(s)).append(" |");
            }
            out.append('\n');
        }
        if (lua53.isEmpty()) {
            return;
        }
        out.append("\n### Warm runs: ratio to lua5.3 (engine seconds / lua5.3 seconds; lower is better)\n\n");
        header(out, "program", null, engines);
        Map<String, double[]> logSums = new HashMap<>(); // engine -> {sum of logs, count}
        for (String p : programs) {
            out.append("| ").append(p).append(" |");
            for (String e : engines) {
                Score s = scores.get(e + " " + p);
                Double base = lua53.get(p);
                if (s == null || base == null || base <= 0) {
                    out.append(' ').append(s == null ? missing(e, p, notes) : "-").append(" |");
                    continue;
                }
                double r = s.seconds / base;
                double[] acc = logSums.computeIfAbsent(e, k -> new double[2]);
                acc[0] += Math.log(r);
                acc[1]++;
                out.append(' ').append(String.format(Locale.ROOT, "%.2f", r)).append(" |");
            }
            out.append('\n');
        }
        out.append("| **geometric mean** |");
        for (String e : engines) {
            double[] acc = logSums.get(e);
            out.append(' ').append(acc == null ? "-" : String.format(Locale.ROOT, "**%.2f** (%d programs)",
                    Math.exp(acc[0] / acc[1]), (int) acc[1])).append(" |");
        }
        out.append('\n');
        commonMean(out, programs, scores, lua53, engines);
        out.append("\nGeometric means over different sets of programs are not directly comparable.\n\n");
    }

    /** A geometric-mean row over the programs every engine ran, when some engine skipped some. */
    private static void commonMean(StringBuilder out, List<String> programs, Map<String, Score> scores,
                                   Map<String, Double> lua53, List<String> engines) {
        List<String> common = programs.stream().filter(p -> lua53.getOrDefault(p, 0.0) > 0
                && engines.stream().allMatch(e -> scores.containsKey(e + " " + p))).toList();
        boolean partial = programs.stream().anyMatch(p -> !common.contains(p)
                && engines.stream().anyMatch(e -> scores.containsKey(e + " " + p)));
        if (common.isEmpty() || !partial || engines.size() < 2) {
            return;
        }
        out.append("| **geometric mean, the ").append(common.size()).append(" programs every engine ran** |");
        for (String e : engines) {
            double logs = 0;
            for (String p : common) {
                logs += Math.log(scores.get(e + " " + p).seconds / lua53.get(p));
            }
            out.append(' ').append(String.format(Locale.ROOT, "**%.2f**", Math.exp(logs / common.size()))).append(" |");
        }
        out.append('\n');
    }

    private static void embeddingTables(StringBuilder out, Map<String, Score> scores) {
        if (scores.isEmpty()) {
            return;
        }
        byte[] chunk = GeneratedChunk.source();
        int bytes = chunk.length;
        int lines = 0;
        for (byte b : chunk) if (b == '\n') lines++;
        out.append("### Compile speed (generated chunk of ").append(bytes).append(" bytes, ").append(lines)
                .append(" lines of Lua 5.3 source)\n\n");
        out.append("| engine | ms per compile | source MB/s | lines/s |\n|---|---|---|---|\n");
        final int nlines = lines;
        scores.forEach((k, s) -> {
            if (k.startsWith("compile ")) {
                out.append("| ").append(k.substring(8)).append(" | ")
                        .append(withError(s.seconds * 1e3, s.errorSeconds * 1e3)).append(" | ")
                        .append(String.format(Locale.ROOT, "%.2f", bytes / s.seconds / 1e6)).append(" | ")
                        .append(String.format(Locale.ROOT, "%.0f", nlines / s.seconds)).append(" |\n");
            }
        });
        out.append("\n### Sandbox latency: newSandbox + eval(\"return 1\") + close, warm JVM\n\n");
        out.append("| engine | µs per sandbox |\n|---|---|\n");
        scores.forEach((k, s) -> {
            if (k.startsWith("newSandboxEval ")) {
                out.append("| ").append(k.substring(15)).append(" | ")
                        .append(withError(s.seconds * 1e6, s.errorSeconds * 1e6)).append(" |\n");
            }
        });
        out.append('\n');
    }

    private static void header(StringBuilder out, String first, String second, List<String> engines) {
        out.append("| ").append(first).append(" |");
        if (second != null) {
            out.append(' ').append(second).append(" |");
        }
        engines.forEach(e -> out.append(' ').append(e).append(" |"));
        out.append("\n|---|").append(second != null ? "---|" : "").append("---|".repeat(engines.size())).append('\n');
    }

    private static String missing(String engine, String program, Notes notes) {
        String why = Skips.reason(engine, program);
        return why != null ? "n/a [" + notes.number(why) + "]" : "no result";
    }

    /** The reasons behind n/a cells, numbered in order of first use. */
    static final class Notes {
        private final List<String> reasons = new ArrayList<>();

        int number(String reason) {
            int i = reasons.indexOf(reason);
            if (i < 0) {
                reasons.add(reason);
                i = reasons.size() - 1;
            }
            return i + 1;
        }

        void appendTo(StringBuilder out) {
            if (reasons.isEmpty()) {
                return;
            }
            out.append(Boolean.getBoolean("bench.skipSlow")
                    ? "Not run (n/a), from benchmarks/src/main/resources/skips.txt and slow.txt (`--core`):\n\n"
                    : "Not run (n/a), from benchmarks/src/main/resources/skips.txt:\n\n");
            for (int i = 0; i < reasons.size(); i++) {
                out.append("- [").append(i + 1).append("] ").append(reasons.get(i)).append('\n');
            }
            out.append('\n');
        }
    }

    private static String withError(double value, double error) {
        return Double.isNaN(error) ? String.format(Locale.ROOT, "%.1f", value)
                : String.format(Locale.ROOT, "%.1f ± %.1f", value, error);
    }

    private static String errText(Score s) {
        return Double.isNaN(s.errorSeconds) ? "" : " ± " + fmt(s.errorSeconds);
    }

    private static String fmt(double seconds) {
        return String.format(Locale.ROOT, seconds >= 10 ? "%.2f" : "%.3f", seconds);
    }

    /** Reads a JMH CSV; keys are engine+program (programs) or method+engine (embedding). */
    private static void readCsv(Path csv, Map<String, Score> into, boolean embedding) throws IOException {
        if (!Files.exists(csv)) {
            return;
        }
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return;
        }
        List<String> head = split(lines.get(0));
        int bench = head.indexOf("Benchmark");
        int samples = head.indexOf("Samples");
        int score = head.indexOf("Score");
        int error = head.indexOf("Score Error (99.9%)");
        int unit = head.indexOf("Unit");
        int engine = head.indexOf("Param: engine"); // absent for EmbedderBenchmark: filed as Goals.EMBEDDER
        int program = head.indexOf("Param: program");
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = split(line);
            if (f.size() < head.size()) {
                continue;
            }
            double scale = unitSeconds(f.get(unit));
            String method = f.get(bench).substring(f.get(bench).lastIndexOf('.') + 1);
            String engineName = engine < 0 || f.get(engine).isEmpty() ? Goals.EMBEDDER : f.get(engine);
            String key = embedding ? method + " " + engineName : engineName + " " + f.get(program);
            into.put(key, new Score(parse(f.get(score)) * scale, parse(f.get(error)) * scale, Integer.parseInt(f.get(samples))));
        }
    }

    /** Reads column {@code column} (seconds) of compare-processes.sh's TSV; "-" or failures are left out. */
    /** {@code name<TAB>value<TAB>...} lines ({@code CompileVsLuac --summary}), if the file exists. */
    private static void readSummary(Path tsv, Map<String, List<String>> into) throws IOException {
        if (!Files.exists(tsv)) {
            return;
        }
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            if (f.length >= 2) {
                into.put(f[0], List.of(f).subList(1, f.length));
            }
        }
    }

    private static void readTsv(Path tsv, int column, Map<String, Double> into) throws IOException {
        if (!Files.exists(tsv)) {
            return;
        }
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f.length > column && !line.startsWith("#")) {
                try {
                    into.put(f[0], Double.parseDouble(f[column]));
                } catch (NumberFormatException e) {
                    // "-" or a header: no time for this program
                }
            }
        }
    }

    private static double parse(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static double unitSeconds(String unit) {
        return switch (unit) {
            case "s/op" -> 1;
            case "ms/op" -> 1e-3;
            case "us/op" -> 1e-6;
            case "ns/op" -> 1e-9;
            default -> throw new IllegalArgumentException("unexpected JMH unit " + unit + " (use a time-per-op mode)");
        };
    }

    private static List<String> split(String csvLine) {
        List<String> out = new ArrayList<>();
        for (String f : csvLine.split(",", -1)) {
            out.add(f.length() >= 2 && f.startsWith("\"") && f.endsWith("\"") ? f.substring(1, f.length() - 1) : f);
        }
        return out;
    }
}
