package dev.luavm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The warm-run comparison as a picture: an SVG chart of every engine's time on every program
 * divided by lua5.3's, on one logarithmic axis with lua5.3 at 1.0, one row per program and one
 * marker per engine, and a last row for each engine's geometric mean. A marker left of the 1.0
 * line is faster than lua5.3, right of it slower. Written by {@link Report} ({@code --chart}) with
 * the tables, so the picture and the tables of a run of record always come from the same figures.
 * Programs marked {@code *} are the user-shaped ones of {@code benchmarks/programs}.
 */
final class RatioChart {
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
    private static final String[] SHAPES = {"circle", "square", "diamond", "triangle", "circle", "square", "diamond"};
    private static final int LEFT = 170;
    private static final int PLOT = 640;
    private static final int ROW = 22;
    private static final int TOP = 64;

    private RatioChart() {
    }

    /** The chart, or null when there is no ratio to draw (no lua5.3 times or no scores). */
    static String svg(List<String> programs, Map<String, Report.Score> scores, Map<String, Double> lua53,
                      List<String> engines, List<String> userShaped) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (String p : programs) {
            for (String e : engines) {
                double r = ratio(scores, lua53, e, p);
                if (r > 0) {
                    min = Math.min(min, r);
                    max = Math.max(max, r);
                }
            }
        }
        if (max == 0) {
            return null;
        }
        double lo = Math.pow(10, Math.floor(Math.log10(Math.min(min, 0.9))));
        double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(max, 1.1))));
        int rows = programs.size() + 1;
        int height = TOP + rows * ROW + 40;
        int width = LEFT + PLOT + 30;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\" font-weight=\"bold\">"
                + "Warm runs: time / lua5.3's time (log scale; left of 1.0 is faster than lua5.3)</text>\n", LEFT));
        // legend
        int x = LEFT;
        for (int i = 0; i < engines.size(); i++) {
            marker(s, i, x + 6, 38);
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"42\">%s</text>\n", x + 16, esc(engines.get(i))));
            x += 22 + 8 * engines.get(i).length();
        }
        // row stripes first, so the grid and the markers are drawn over them
        int bottom = TOP + rows * ROW;
        for (int r = 0; r < rows; r += 2) {
            s.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f6f6f6\"/>\n",
                    TOP + r * ROW, width, ROW));
        }
        // grid: 1, 2, 5 times each power of ten
        for (double decade = lo; decade < hi * 1.001; decade *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                double v = decade * m;
                if (v > hi * 1.001) {
                    break;
                }
                double gx = xOf(v, lo, hi);
                boolean one = Math.abs(v - 1) < 1e-9;
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                        gx, TOP - 6, gx, bottom, one ? "#000" : "#ddd", one ? "1.5" : "1"));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"%s>%s</text>\n",
                        gx, bottom + 16, one ? " font-weight=\"bold\"" : "", label(v)));
            }
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">lua5.3 = 1.0</text>\n",
                xOf(1, lo, hi), bottom + 32));
        // rows
        List<String> labels = new ArrayList<>(programs);
        labels.add("geometric mean");
        for (int r = 0; r < labels.size(); r++) {
            int y = TOP + r * ROW + ROW / 2;
            boolean mean = r == programs.size();
            String name = labels.get(r) + (userShaped.contains(labels.get(r)) ? " *" : "");
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"%s>%s</text>\n",
                    LEFT - 10, y + 4, mean ? " font-weight=\"bold\"" : "", esc(name)));
            for (int i = 0; i < engines.size(); i++) {
                double v = mean ? geometricMean(programs, scores, lua53, engines.get(i)) : ratio(scores, lua53, engines.get(i), labels.get(r));
                if (v > 0) {
                    marker(s, i, xOf(v, lo, hi), y);
                }
            }
        }
        if (!userShaped.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">* user-shaped program "
                    + "(benchmarks/programs)</text>\n", 10, bottom + 32));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    /** An engine's time over lua5.3's on a program, or 0 when either is missing. */
    private static double ratio(Map<String, Report.Score> scores, Map<String, Double> lua53, String engine, String program) {
        Report.Score sc = scores.get(engine + " " + program);
        Double base = lua53.get(program);
        return sc == null || base == null || base <= 0 || !(sc.seconds() > 0) ? 0 : sc.seconds() / base;
    }

    private static double geometricMean(List<String> programs, Map<String, Report.Score> scores, Map<String, Double> lua53,
                                        String engine) {
        double logs = 0;
        int n = 0;
        for (String p : programs) {
            double r = ratio(scores, lua53, engine, p);
            if (r > 0) {
                logs += Math.log(r);
                n++;
            }
        }
        return n == 0 ? 0 : Math.exp(logs / n);
    }

    private static double xOf(double v, double lo, double hi) {
        return LEFT + PLOT * (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
    }

    private static void marker(StringBuilder s, int engine, double x, double y) {
        String c = COLOURS[engine % COLOURS.length];
        String fill = String.format(Locale.ROOT, "fill=\"%s\" fill-opacity=\"0.8\" stroke=\"%s\"", c, c);
        switch (SHAPES[engine % SHAPES.length]) {
            case "square" -> s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" %s/>\n", x - 4, y - 4, fill));
            case "diamond" -> s.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l5 5 l-5 5 l-5 -5 z\" %s/>\n", x, y - 5, fill));
            case "triangle" -> s.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1f l5 9 l-10 0 z\" %s/>\n", x, y - 5, fill));
            default -> s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" %s/>\n", x, y, fill));
        }
    }

    private static String label(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", trim(v));
    }

    private static String trim(double v) {
        String t = String.format(Locale.ROOT, "%.3f", v);
        return t.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
