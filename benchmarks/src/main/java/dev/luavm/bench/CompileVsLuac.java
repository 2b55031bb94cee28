package dev.luavm.bench;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The compiler against {@code luac5.3}, source by source: memory (the sandbox memory meter's peak
 * while {@code load} compiles, against {@code luac5.3 -p}'s maximum resident set size) and speed
 * (source lines per second of a warm {@code LuaVM.compile}, against {@code luac5.3 -p} given the
 * file K times in one process, K chosen for about 4 MB of source, its process start-up, measured
 * on an empty file, taken off). The goals of issue 26 are a meter peak within 4x of luac's RSS
 * and lines per second within 2x.
 *
 * <p>Usage: {@code CompileVsLuac [--reps N] [--warmup SECONDS] [--generated] [--summary FILE]
 * file-or-directory...}; prints a Markdown table and the geometric means. {@code --generated}
 * adds the parse-heavy chunks of issue 26 and a 1 MB {@link GeneratedChunk}, each also loaded in
 * a sandbox of 64 MiB (the third compile goal). {@code --summary} writes the figures
 * the goals table of RESULTS.md needs, one {@code name<TAB>value} per line.
 *
 * <p>Before any source is timed, every source is compiled round after round for
 * {@code --warmup} seconds (10 by default): timing each file right after its own few warm-ups
 * measured HotSpot's progress through the compiler's code more than the compiler, and the first
 * files of a run came out several times slower than the same files timed later. A file starting with '#' is compiled from its second
 * line on by both (as luac skips it). Needs {@code luac5.3} and GNU {@code /usr/bin/time}.
 */
public final class CompileVsLuac {
    private CompileVsLuac() {
    }

    private record Source(String name, Path file, byte[] bytes) {
        int lines() {
            int n = 0;
            for (byte b : bytes) if (b == '\n') n++;
            return bytes.length > 0 && bytes[bytes.length - 1] != '\n' ? n + 1 : n;
        }
    }

    public static void main(String[] argv) throws Exception {
        int reps = 20;
        double warmupSeconds = 10;
        Path summary = null;
        boolean generated = false;
        int generatedCount = 0;
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            switch (argv[i]) {
                case "--reps" -> reps = Integer.parseInt(argv[++i]);
                case "--generated" -> generated = true;
                case "--warmup" -> warmupSeconds = Double.parseDouble(argv[++i]);
                case "--summary" -> summary = Paths.get(argv[++i]);
                default -> inputs.add(Paths.get(argv[i]));
            }
        }
        Path tmp = Files.createTempDirectory("compile-vs-luac");
        List<Source> sources = new ArrayList<>();
        for (Path in : inputs) {
            try (Stream<Path> s = Files.isDirectory(in) ? Files.list(in) : Stream.of(in)) {
                for (Path p : s.filter(p -> p.toString().endsWith(".lua")).sorted().toList()) {
                    sources.add(source(tmp, p.getFileName().toString(), Files.readAllBytes(p)));
                }
            }
        }
        if (generated) {
            for (String[] g : generatedChunks()) {
                sources.add(source(tmp, g[0], g[1].getBytes(StandardCharsets.ISO_8859_1)));
                generatedCount++;
            }
        }
        Path empty = Files.write(tmp.resolve("empty.lua"), new byte[0]);
        double luacStart = luacSeconds(empty, 1, reps);
        long emptyRss = luacMaxRssKb(empty);

        LuaVM vm = LuaVM.builder().compileMemory(4L << 30).build();
        warmUp(vm, sources, warmupSeconds);
        System.out.println("luac5.3 -p of an empty file: max RSS " + emptyRss + " KB, "
            + String.format(Locale.ROOT, "%.1f ms", luacStart * 1e3) + " (taken off its times below)\n");
        System.out.println("| source | bytes | lines | luac max RSS (KB) | luavm meter peak (KB) | memory ratio | luac lines/s | luavm lines/s | time ratio |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        double memLog = 0;
        double speedLog = 0;
        int n = 0;
        double worstMem = 0;
        String worstMemName = "-";
        for (Source s : sources) {
            long rss = luacMaxRssKb(s.file);
            int k = Math.max(1, (4 << 20) / Math.max(1, s.bytes.length));
            double luac = Math.max(1e-7, (luacSeconds(s.file, k, reps) - luacStart) / k);
            long peak = meterPeak(s.bytes) / 1024;
            double ours = luavmSeconds(vm, s.bytes, reps);
            double mem = (double) peak / rss;
            double speed = ours / luac;
            if (mem > worstMem) {
                worstMem = mem;
                worstMemName = s.name;
            }
            memLog += Math.log(mem);
            speedLog += Math.log(speed);
            n++;
            System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %.2fx | %.0f | %.0f | %.2fx |%n", s.name, s.bytes.length,
                s.lines(), rss, peak, mem, s.lines() / luac, s.lines() / ours, speed);
        }
        System.out.printf(Locale.ROOT, "%nGeometric means over %d sources: memory %.2fx luac's RSS, compile time %.2fx luac's.%n",
            n, Math.exp(memLog / n), Math.exp(speedLog / n));
        List<String> tooBig = new ArrayList<>();
        int heavy = 0;
        if (generated) {
            for (Source s : sources.subList(sources.size() - generatedCount, sources.size())) {
                heavy++;
                String failure = loadsIn64MiB(s.bytes);
                if (failure != null) tooBig.add(s.name + " (" + failure + ")");
            }
            System.out.println(tooBig.isEmpty()
                ? "\nEach of the " + heavy + " generated inputs loads in a sandbox of 64 MiB."
                : "\nIn a sandbox of 64 MiB, these do not load: " + String.join(", ", tooBig) + ".");
        }
        if (summary != null) {
            List<String> lines = new ArrayList<>();
            lines.add("sources\t" + n);
            lines.add(String.format(Locale.ROOT, "memory_mean\t%.4f", Math.exp(memLog / n)));
            lines.add(String.format(Locale.ROOT, "memory_worst\t%.4f\t%s", worstMem, worstMemName));
            lines.add(String.format(Locale.ROOT, "time_mean\t%.4f", Math.exp(speedLog / n)));
            if (generated) {
                lines.add("heavy_inputs\t" + heavy);
                lines.add("heavy_failed\t" + tooBig.size() + "\t" + String.join(", ", tooBig));
            }
            Files.write(summary, lines, StandardCharsets.UTF_8);
        }
    }

    /** Compiles every source, round after round, until {@code seconds} have passed (at least one round). */
    private static void warmUp(LuaVM vm, List<Source> sources, double seconds) {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        do {
            for (Source s : sources) vm.compile("=x", s.bytes);
        } while (System.nanoTime() < end);
    }

    /** Null if {@code load} compiles the source in a sandbox of 64 MiB, else why not. */
    private static String loadsIn64MiB(byte[] source) {
        String text = new String(source, StandardCharsets.ISO_8859_1);
        Limits small = Limits.defaults().withMemory(64L << 20).withGas(Long.MAX_VALUE).withTimeout(Duration.ofMinutes(10));
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), small)) {
            Object ok = sb.eval("load", "local s = ... local f, msg = load(s, '=x') return f ~= nil or msg", text);
            return Boolean.TRUE.equals(ok) ? null : String.valueOf(ok);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    private static Source source(Path tmp, String name, byte[] bytes) throws IOException {
        if (bytes.length > 0 && bytes[0] == '#') { // as luaL_loadfile: the first line is skipped
            byte[] b = bytes.clone();
            b[0] = '-';
            if (b.length > 1) b[1] = '-';
            bytes = b;
        }
        Path f = Files.write(tmp.resolve(name), bytes);
        return new Source(name, f, bytes);
    }

    /** The parse-heavy inputs of issue 26 and a 1 MB generated chunk. */
    private static List<String[]> generatedChunks() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"plus-1.2MB.lua", "return 1" + "+1".repeat(600_000) + "\n"});
        StringBuilder k = new StringBuilder("local t = {");
        for (int i = 0; i < 300_000; i++) k.append(i).append(".5,");
        out.add(new String[] {"constants-300k.lua", k.append("}\nreturn t\n").toString()});
        StringBuilder l = new StringBuilder();
        for (int i = 0; i < 30_000; i++) l.append("goto l").append(i).append(" ::l").append(i).append(":: x = ").append(i).append('\n');
        out.add(new String[] {"labels-30k.lua", l.toString()});
        StringBuilder d = new StringBuilder("return {\n");
        for (int i = 0; i < 6_000; i++) {
            d.append("  {id = ").append(i).append(", name = \"item").append(i).append("\", price = ").append(i % 997)
                .append('.').append(i % 89).append(", tags = {\"a").append(i % 13).append("\", \"b").append(i % 7)
                .append("\"}, ok = ").append(i % 2 == 0).append("},\n");
        }
        out.add(new String[] {"data-500KB.lua", d.append("}\n").toString()});
        out.add(new String[] {"generated-1MB.lua", new String(GeneratedChunk.source(44), StandardCharsets.ISO_8859_1)});
        return out;
    }

    /** The sandbox meter's peak while {@code load} compiles the source, less the same run without it. */
    private static long meterPeak(byte[] source) {
        String text = new String(source, StandardCharsets.ISO_8859_1);
        Limits roomy = Limits.defaults().withMemory(4L << 30).withGas(Long.MAX_VALUE).withTimeout(Duration.ofMinutes(10));
        long base;
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), roomy)) {
            sb.eval("base", "local s = ... return #s", text);
            base = sb.usage().peakMemoryBytes();
        }
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), roomy)) {
            Object ok = sb.eval("load", "local s = ... local f, msg = load(s, '=x') return f ~= nil or msg", text);
            if (!Boolean.TRUE.equals(ok)) throw new IllegalStateException("does not compile: " + ok);
            return sb.usage().peakMemoryBytes() - base;
        }
    }

    /** Seconds per warm {@code LuaVM.compile} (the fastest of {@code reps} after as many warm-ups). */
    private static double luavmSeconds(LuaVM vm, byte[] source, int reps) {
        for (int i = 0; i < reps; i++) vm.compile("=x", source);
        long best = Long.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            vm.compile("=x", source);
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best / 1e9;
    }

    /** Seconds per {@code luac5.3 -p file file ...} ({@code k} times), the fastest of {@code reps}. */
    private static double luacSeconds(Path file, int k, int reps) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("luac5.3", "-p"));
        for (int i = 0; i < k; i++) cmd.add(file.toString());
        long best = Long.MAX_VALUE;
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            int exit = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            best = Math.min(best, System.nanoTime() - t0);
            if (exit != 0) throw new IllegalStateException("luac5.3 failed on " + file);
        }
        return best / 1e9;
    }

    private static long luacMaxRssKb(Path file) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/time", "-f", "%M", "luac5.3", "-p", file.toString())
            .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor() != 0) throw new IllegalStateException("luac5.3 failed on " + file + ": " + out);
        String[] lines = out.split("\n");
        return Long.parseLong(lines[lines.length - 1].strip());
    }
}
