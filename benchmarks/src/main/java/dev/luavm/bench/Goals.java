package dev.luavm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals section of RESULTS.md: issue 26's targets (and issue 13's coroutine bound), each
 * with this run's figure and whether it is met, then one summary row per engine. The speed
 * goals are ratios to lua5.3 on the same machine in the same run: warm JMH seconds over the
 * median wall time of whole lua5.3 processes, and whole {@code ./luavm} processes over the same
 * lua5.3 processes. The embedder's path is a ratio to the JMH figure of {@link #SUBJECT} for the
 * same program; start-up is wall milliseconds; the compiler's goals are ratios to
 * {@code luac5.3} ({@link CompileVsLuac}). A goal whose measurement was not part of the run says
 * "not measured", never "met".
 */
final class Goals {

    /** The engine the warm goals are about: metered, compiled tier on (auto). */
    static final String SUBJECT = Engines.LUAVM_COMPILED;
    static final double WARM_MEAN = 0.6;
    static final double PER_PROGRAM = 1.2;
    static final double COROUTINES = 2.0;
    static final double PROCESS_MEAN = 1.4;
    static final String RIVAL = "luajc";
    /** The engine key {@code Report --embedder} files its {@link EmbedderBenchmark} scores under. */
    static final String EMBEDDER = "embedder";
    static final double EMBEDDER_WITHIN = 0.10;
    static final double START_UP_MS = 60;
    static final double COMPILE_MEMORY = 4;
    static final double COMPILE_TIME = 2;

    /** What the run measured beside the JMH programs; each part may be absent (empty map). */
    record Extras(Map<String, Double> startUp, Map<String, List<String>> compiler) {
    }

    private Goals() {
    }

    static void write(StringBuilder out, List<String> programs, Map<String, Report.Score> scores,
                      Map<String, Double> lua53, Map<String, Double> processes, List<String> engines, Extras extras) {
        out.append("| goal (issue 26; the coroutine bound is issue 13's) | this run | met? |\n|---|---|---|\n");
        if (engines.contains(SUBJECT)) {
            List<String> ran = ran(SUBJECT, programs, scores, lua53);
            double mean = mean(SUBJECT, ran, scores, lua53);
            row(out, "warm, metered, compiled tier (`" + SUBJECT + "`): geometric mean at most " + x(WARM_MEAN),
                    ran.isEmpty() ? "not run" : x(mean) + " (" + ran.size() + " programs)", !ran.isEmpty() && mean <= WARM_MEAN);
            List<String> above = new ArrayList<>();
            for (String p : ran) {
                double r = ratio(SUBJECT, p, scores, lua53);
                if (r > PER_PROGRAM) {
                    above.add(p + " " + x(r));
                }
            }
            row(out, "no program above " + x(PER_PROGRAM) + " (`" + SUBJECT + "`)",
                    above.size() + " of " + ran.size() + " above" + (above.isEmpty() ? "" : ": " + String.join(", ", above)),
                    !ran.isEmpty() && above.isEmpty());
            boolean co = ran.contains("coroutines");
            double cr = co ? ratio(SUBJECT, "coroutines", scores, lua53) : Double.NaN;
            row(out, "coroutines within " + x(COROUTINES) + " (`" + SUBJECT + "`)", co ? x(cr) : "not run", co && cr <= COROUTINES);
            if (engines.contains(RIVAL)) {
                List<String> both = ran(RIVAL, ran, scores, lua53);
                double ours = mean(SUBJECT, both, scores, lua53);
                double theirs = mean(RIVAL, both, scores, lua53);
                row(out, "ahead of " + RIVAL + "'s geometric mean, same run, same programs",
                        both.isEmpty() ? "not run" : x(ours) + " vs " + x(theirs) + " (the " + both.size() + " programs both ran)",
                        !both.isEmpty() && ours < theirs);
            } else {
                row(out, "ahead of " + RIVAL + "'s geometric mean", RIVAL + " not in this run", false);
            }
        } else {
            row(out, "warm goals (`" + SUBJECT + "`)", SUBJECT + " not in this run", false);
        }
        double logs = 0;
        int n = 0;
        for (String p : programs) {
            Double base = lua53.get(p);
            Double v = processes.get(p);
            if (base != null && v != null && base > 0 && v > 0) {
                logs += Math.log(v / base);
                n++;
            }
        }
        double pm = Math.exp(logs / Math.max(n, 1));
        row(out, "whole processes (`./luavm`, tier auto, start-up included): geometric mean at most " + x(PROCESS_MEAN),
                n == 0 ? "not run" : x(pm) + " (" + n + " programs)", n > 0 && pm <= PROCESS_MEAN);
        embedderRow(out, programs, scores);
        Double emptyRun = extras.startUp().get("luavm -e ''");
        Double emptyLua = extras.startUp().get("lua5.3 -e ''");
        row(out, "`./luavm -e ''` under " + (int) START_UP_MS + " ms (wall, median)",
                emptyRun == null ? "not measured" : ms(emptyRun) + (emptyLua == null ? "" : " (lua5.3: " + ms(emptyLua) + ")"),
                emptyRun != null && emptyRun * 1e3 < START_UP_MS);
        compilerRows(out, extras.compiler());

        out.append("\n| engine | warm geometric mean (x lua5.3) | programs | above ").append(x(PER_PROGRAM))
                .append(" | coroutines |\n|---|---|---|---|---|\n");
        for (String e : engines) {
            List<String> ran = ran(e, programs, scores, lua53);
            long above = ran.stream().filter(p -> ratio(e, p, scores, lua53) > PER_PROGRAM).count();
            out.append("| ").append(e).append(" | ").append(ran.isEmpty() ? "-" : x(mean(e, ran, scores, lua53)))
                    .append(" | ").append(ran.size()).append(" | ").append(ran.isEmpty() ? "-" : String.valueOf(above))
                    .append(" | ").append(ran.contains("coroutines") ? x(ratio(e, "coroutines", scores, lua53)) : "n/a")
                    .append(" |\n");
        }
        out.append("\nWarm: JMH seconds per run / median wall of whole lua5.3 processes; "
                + "a geometric mean covers the programs that engine ran (see the tables below for n/a).\n");
    }

    /** The embedder's path ({@link EmbedderBenchmark}) against {@link #SUBJECT}'s JMH figure, per program. */
    private static void embedderRow(StringBuilder out, List<String> programs, Map<String, Report.Score> scores) {
        List<String> figures = new ArrayList<>();
        boolean all = true;
        for (String p : programs) {
            Report.Score e = scores.get(EMBEDDER + " " + p);
            Report.Score j = scores.get(SUBJECT + " " + p);
            if (e == null || j == null) continue;
            double r = e.seconds() / j.seconds();
            all &= r <= 1 + EMBEDDER_WITHIN;
            figures.add(p + " " + x(r));
        }
        row(out, "the embedder's path (`dev.luavm:luavm`, public API, fresh sandbox per run) within "
                        + Math.round(EMBEDDER_WITHIN * 100) + "% of the JMH figure (`" + SUBJECT + "`)",
                figures.isEmpty() ? "not measured" : String.join(", ", figures), !figures.isEmpty() && all);
    }

    /** The compiler against luac5.3, from {@link CompileVsLuac}'s summary. */
    private static void compilerRows(StringBuilder out, Map<String, List<String>> c) {
        List<String> sources = c.get("sources");
        String over = sources == null ? "" : " over " + sources.get(0) + " sources";
        List<String> mem = c.get("memory_mean");
        List<String> worst = c.get("memory_worst");
        boolean memMet = mem != null && worst != null && Double.parseDouble(worst.get(0)) <= COMPILE_MEMORY;
        row(out, "compiling: at most " + x(COMPILE_MEMORY) + " the memory of `luac5.3 -p` (meter peak / max RSS)",
                mem == null ? "not measured" : "geometric mean " + x(Double.parseDouble(mem.get(0))) + over
                        + (worst == null ? "" : "; highest " + x(Double.parseDouble(worst.get(0))) + " (" + worst.get(1) + ")"),
                memMet);
        List<String> time = c.get("time_mean");
        double t = time == null ? Double.NaN : Double.parseDouble(time.get(0));
        row(out, "compiling: within " + x(COMPILE_TIME) + " of `luac5.3 -p`'s time (geometric mean)",
                time == null ? "not measured" : x(t) + over, time != null && t <= COMPILE_TIME);
        List<String> heavy = c.get("heavy_inputs");
        List<String> failed = c.get("heavy_failed");
        boolean heavyMet = heavy != null && failed != null && Integer.parseInt(failed.get(0)) == 0;
        row(out, "the parse-heavy inputs load in a sandbox of 64 MiB",
                heavy == null || failed == null ? "not measured"
                        : heavyMet ? "all " + heavy.get(0) : failed.get(0) + " of " + heavy.get(0) + " do not: " + failed.get(1),
                heavyMet);
    }

    private static String ms(double seconds) {
        return String.format(Locale.ROOT, "%.0f ms", seconds * 1e3);
    }

    private static void row(StringBuilder out, String goal, String figure, boolean met) {
        out.append("| ").append(goal).append(" | ").append(figure).append(" | ").append(met ? "**yes**" : "no").append(" |\n");
    }

    private static List<String> ran(String engine, List<String> programs, Map<String, Report.Score> scores,
                                    Map<String, Double> lua53) {
        return programs.stream().filter(p -> scores.containsKey(engine + " " + p) && lua53.getOrDefault(p, 0.0) > 0).toList();
    }

    private static double ratio(String engine, String program, Map<String, Report.Score> scores, Map<String, Double> lua53) {
        return scores.get(engine + " " + program).seconds() / lua53.get(program);
    }

    private static double mean(String engine, List<String> programs, Map<String, Report.Score> scores,
                               Map<String, Double> lua53) {
        double logs = 0;
        for (String p : programs) {
            logs += Math.log(ratio(engine, p, scores, lua53));
        }
        return programs.isEmpty() ? Double.NaN : Math.exp(logs / programs.size());
    }

    private static String x(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
