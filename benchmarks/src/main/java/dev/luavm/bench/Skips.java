package dev.luavm.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Engine/program pairs that are not run, each with its reason, all in one file: the
 * resource {@code skips.txt}, one {@code engine program reason...} per line, {@code #} comments.
 * A skipped pair shows in the tables as {@code n/a (reason)}, never as a time.
 *
 * <p>With {@code -Dbench.skipSlow=true} ({@code run-all.sh --core}) the pairs of {@code slow.txt}
 * (same format) are skipped too: pairs an engine runs correctly but so slowly that timing them
 * would take most of a run; their reason says so and gives the time.
 */
public final class Skips {

    private static final Map<String, String> REASONS = load();

    private Skips() {
    }

    /** Why {@code engine} does not run {@code program}, or null if it does. */
    public static String reason(String engine, String program) {
        return REASONS.get(engine + " " + program);
    }

    /** Every skip: key {@code "engine program"}, value the reason. */
    public static Map<String, String> all() {
        return java.util.Collections.unmodifiableMap(REASONS);
    }

    private static Map<String, String> load() {
        Map<String, String> out = new LinkedHashMap<>();
        load("skips.txt", out);
        if (Boolean.getBoolean("bench.skipSlow")) {
            load("slow.txt", out);
        }
        return out;
    }

    private static void load(String file, Map<String, String> out) {
        try (InputStream in = Skips.class.getResourceAsStream("/" + file)) {
            if (in == null) {
                return;
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\\s+", 3);
                if (f.length < 3) {
                    throw new IllegalStateException(file + ": a skip needs 'engine program reason': " + line);
                }
                if (!Engines.ALL.contains(f[0])) {
                    throw new IllegalStateException(file + ": unknown engine '" + f[0] + "'");
                }
                out.putIfAbsent(f[0] + " " + f[1], f[2]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
