package dev.luavm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The goals section of RESULTS.md: issue 13's targets, each with this run's figure and whether
 * it is met, then one summary row per engine. Everything is a ratio to lua5.3 on the same
 * machine in the same run: warm JMH seconds over the median wall time of whole lua5.3
 * processes, and whole {@code ./luavm} processes over the same lua5.3 processes.
 */
final class Goals {

    /** The engine the warm goals are about: metered, compiled tier on (auto). */
    static final String SUBJECT = Engines.LUAVM_COMPILED;
    static final double WARM_MEAN = 0.8;
    static final double PER_PROGRAM = 1.5;
    static final double COROUTINES = 2.0;
    static final double PROCESS_MEAN = 1.5;
    static final String RIVAL = "luajc";

    private Goals() {
    }

    static void write(StringBuilder out, List<String> programs, Map<String, Report.Score> scores,
                      Map<String, Double> lua53, Map<String, Double> processes, List<String> engines) {
        out.append("| goal (issue 13) | this run | met? |\n|---|---|---|\n");
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
