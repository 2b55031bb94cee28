package dev.luavm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The benchmark programs and the output each must print: the shared set, read by path from the
 * shared directory at run time (never copied into this repository), and the user-shaped
 * programs this repository keeps in {@code benchmarks/programs} (JSON, OOP through
 * {@code __index} chains, patterns, {@code table.concat} builders, {@code utf8},
 * {@code string.pack}: the shapes of the code agents and tenants write). Both sets are run,
 * reported and checked alike; a name may be in only one of them.
 *
 * <p>Where the shared programs are: system property {@code bench.dir}; else the path baked in at
 * build time ({@code ${maven.multiModuleProjectDirectory}/../shared/bench}); else
 * {@code ../shared/bench} relative to the working directory. Where the user-shaped ones are:
 * system property {@code bench.programs}; else the path baked in at build time
 * ({@code ${project.basedir}/programs}); else {@code benchmarks/programs} relative to the
 * working directory.
 *
 * <p>Size: programs run with no {@code arg[1]} (their default size) unless system property
 * {@code bench.size} is set, which becomes {@code arg[1]}.
 *
 * <p>Expected output: for the default size, the resource {@code expected/<program>.txt},
 * written by {@code benchmarks/regen-expected.sh} with lua5.3; for another size,
 * {@code expected/<program>@<size>.txt} if that script was asked for it, else lua5.3 is run
 * once on the spot if it is on the PATH; else the run fails.
 */
public final class Programs {

    private Programs() {
    }

    /** The directory holding the {@code .lua} programs. */
    public static Path benchDir() {
        return locate("bench.dir", "../shared/bench");
    }

    /** The directory holding the user-shaped programs of this repository ({@code benchmarks/programs}). */
    public static Path ownDir() {
        return locate("bench.programs", "benchmarks/programs");
    }

    /** The directory named by system property {@code key}, else baked into bench.properties, else {@code fallback}. */
    private static Path locate(String key, String fallback) {
        String prop = System.getProperty(key);
        if (prop != null && !prop.isBlank()) {
            return Paths.get(prop).toAbsolutePath().normalize();
        }
        try (InputStream in = Programs.class.getResourceAsStream("/bench.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String baked = p.getProperty(key);
                if (baked != null && !baked.contains("${") && Files.isDirectory(Paths.get(baked))) {
                    return Paths.get(baked).toAbsolutePath().normalize();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bench.properties", e);
        }
        return Paths.get(fallback).toAbsolutePath().normalize();
    }

    /** Program names (file names without {@code .lua}) of both sets, sorted. */
    public static List<String> names() {
        List<String> shared = namesIn(benchDir(), "bench.dir");
        if (shared.isEmpty()) {
            throw new IllegalStateException("no .lua programs in " + benchDir() + " (set -Dbench.dir)");
        }
        List<String> own = Files.isDirectory(ownDir()) ? namesIn(ownDir(), "bench.programs") : List.of();
        List<String> out = new ArrayList<>(shared);
        for (String n : own) {
            if (shared.contains(n)) {
                throw new IllegalStateException("program '" + n + "' is in both " + benchDir() + " and " + ownDir());
            }
            out.add(n);
        }
        out.sort(null);
        return out;
    }

    /** The user-shaped programs' names (those of {@link #ownDir}), sorted; empty when it is absent. */
    public static List<String> ownNames() {
        return Files.isDirectory(ownDir()) ? namesIn(ownDir(), "bench.programs") : List.of();
    }

    private static List<String> namesIn(Path dir, String property) {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> out = new ArrayList<>();
            files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".lua"))
                    .sorted()
                    .forEach(n -> out.add(n.substring(0, n.length() - 4)));
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot list benchmark programs in " + dir + " (set -D" + property + ")", e);
        }
    }

    /** The file of program {@code name}: the user-shaped one if there is one, else the shared one. */
    public static Path file(String name) {
        Path own = ownDir().resolve(name + ".lua");
        return Files.isRegularFile(own) ? own : benchDir().resolve(name + ".lua");
    }

    /** The source bytes of program {@code name}. */
    public static byte[] source(String name) throws IOException {
        return Files.readAllBytes(file(name));
    }

    /** The {@code bench.size} override, or null for each program's default size. */
    public static String size() {
        String s = System.getProperty("bench.size");
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** {@code arg[1..n]} for a run: empty for the default size. */
    public static List<String> args(String size) {
        return size == null ? List.of() : List.of(size);
    }

    /** What program {@code name} must print at {@code size} (null: default size). */
    public static String expected(String name, String size) throws IOException, InterruptedException {
        String resource = "/expected/" + name + (size == null ? "" : "@" + size) + ".txt";
        try (InputStream in = Programs.class.getResourceAsStream(resource)) {
            if (in != null) {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
        }
        if (size == null) {
            throw new IllegalStateException("no expected output " + resource + " for program '" + name
                    + "': run benchmarks/regen-expected.sh and rebuild");
        }
        return runLua53(name, size);
    }

    /** Runs {@code lua5.3 <program> size} and returns its standard output. */
    static String runLua53(String name, String size) throws IOException, InterruptedException {
        Path script = file(name);
        List<String> cmd = new ArrayList<>(List.of("lua5.3", script.toString()));
        if (size != null) {
            cmd.add(size);
        }
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new IllegalStateException("no expected output for '" + name + "' at size " + size
                    + " and lua5.3 is not on the PATH to produce one", e);
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("lua5.3 " + script + " " + size + " failed (exit " + p.exitValue() + ")");
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }
}
