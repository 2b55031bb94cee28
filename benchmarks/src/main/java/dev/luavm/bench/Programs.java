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
 * The benchmark programs, read by path from the shared directory at run time (never copied
 * into this repository), and the output each must print.
 *
 * <p>Where the programs are: system property {@code bench.dir}; else the path baked in at
 * build time ({@code ${maven.multiModuleProjectDirectory}/../shared/bench}); else
 * {@code ../shared/bench} relative to the working directory.
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
        String prop = System.getProperty("bench.dir");
        if (prop != null && !prop.isBlank()) {
            return Paths.get(prop).toAbsolutePath().normalize();
        }
        try (InputStream in = Programs.class.getResourceAsStream("/bench.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String baked = p.getProperty("bench.dir");
                if (baked != null && !baked.contains("${") && Files.isDirectory(Paths.get(baked))) {
                    return Paths.get(baked).toAbsolutePath().normalize();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bench.properties", e);
        }
        return Paths.get("../shared/bench").toAbsolutePath().normalize();
    }

    /** Program names (file names without {@code .lua}), sorted. */
    public static List<String> names() {
        Path dir = benchDir();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> out = new ArrayList<>();
            files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".lua"))
                    .sorted()
                    .forEach(n -> out.add(n.substring(0, n.length() - 4)));
            if (out.isEmpty()) {
                throw new IllegalStateException("no .lua programs in " + dir + " (set -Dbench.dir)");
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot list benchmark programs in " + dir + " (set -Dbench.dir)", e);
        }
    }

    /** The file of program {@code name}. */
    public static Path file(String name) {
        return benchDir().resolve(name + ".lua");
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
