package dev.luavm.cli;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The VFS beside lua5.3 on a real directory: each script of {@code src/test/resources/vfs-diff}
 * runs under {@code lua5.3} with a fresh copy of the same tree as its working directory, and
 * under {@code luavm --mount /=COPY:rw --mount /tmp=mem:8m}; the standard output, the error
 * output, the exit status and the files the script left must be the same. Only what cannot be
 * the same is normalised: the hexadecimal addresses {@code tostring} shows, the program name
 * before an uncaught error, and the function name in "bad argument" messages (PUC names a
 * method called through {@code pcall} '?'). Skipped where lua5.3 is not installed.
 */
@Timeout(300)
class VfsDifferentialTest {
    static final List<String> SCRIPTS = List.of("basic_rw", "formats", "seek", "modes", "errors", "rename_remove",
            "io_default", "closed", "buffering", "csv_report", "append_log", "binary", "gc_close", "tmp_and_require",
            "wordcount", "overwrite", "uncaught", "uncaught_lines", "large");

    @TempDir
    Path dir;

    static Stream<String> scripts() {
        return SCRIPTS.stream();
    }

    /** The tree every script starts from. */
    static void setUp(Path root) throws IOException {
        Path data = Files.createDirectories(root.resolve("data"));
        Files.writeString(data.resolve("plain.txt"), "alpha\nbeta\ngamma\n");
        Files.writeString(data.resolve("sales.csv"), "region,amount\nnorth,10.5\nsouth,3\nnorth,2.25\neast,7\nsouth,1\n");
        Files.createDirectories(data.resolve("sub"));
        Files.createDirectories(data.resolve("empty"));
        Files.writeString(Files.createDirectories(data.resolve("nonempty")).resolve("x"), "x");
        Files.createDirectories(root.resolve("out"));
        Path lib = Files.createDirectories(root.resolve("lib"));
        Files.writeString(lib.resolve("helper.lua"), "local M = {}\nfunction M.greet(n) return 'hello, ' .. n end\nreturn M\n");
        Files.writeString(Files.createDirectories(lib.resolve("pkg")).resolve("init.lua"), "return { name = 'pkg from init.lua' }\n");
    }

    @ParameterizedTest
    @MethodSource("scripts")
    void matchesLua53OnARealDirectory(String name) throws Exception {
        Path script = dir.resolve("scripts").resolve(name + ".lua");
        Files.createDirectories(script.getParent());
        try (InputStream in = VfsDifferentialTest.class.getResourceAsStream("/vfs-diff/" + name + ".lua")) {
            Files.write(script, in.readAllBytes());
        }
        Path ref = Files.createDirectories(dir.resolve("ref"));
        Path ours = Files.createDirectories(dir.resolve("ours"));
        setUp(ref);
        setUp(ours);
        Ran lua = lua53(ref, script.toString());
        assumeTrue(lua != null, "lua5.3 is not installed");
        MainTest.Outcome o = MainTest.luavm("", false, "--mount", "/=" + ours + ":rw", "--mount", "/tmp=mem:8m",
                script.toString());
        assertEquals(normalise(lua.out), normalise(o.out()), name + ": standard output");
        assertEquals(normalise(lua.err), normalise(o.err()), name + ": error output");
        assertEquals(lua.status, o.status(), name + ": exit status");
        assertEquals(tree(ref), tree(ours), name + ": the files left");
    }

    record Ran(int status, String out, String err) {}

    static Ran lua53(Path cwd, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("lua5.3"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(cwd.toFile()).start();
        } catch (IOException e) {
            return null;
        }
        try {
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            if (!p.waitFor(60, TimeUnit.SECONDS)) throw new AssertionError("lua5.3 did not finish");
            return new Ran(p.exitValue(), out, err);
        } finally {
            p.destroyForcibly();
        }
    }

    static String normalise(String s) {
        return s.replaceAll("0x[0-9a-f]+", "0xADDR")
                .replaceAll("(?m)^(lua5\\.3|luavm): ", "LUA: ")
                .replaceAll("bad argument #(\\d+) to '[^']*'", "bad argument #$1 to 'F'");
    }

    /** Every file (its bytes as Latin-1) and directory (as "/") below {@code root}. */
    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.equals(root)) continue;
                String rel = root.relativize(p).toString();
                out.put(rel, Files.isDirectory(p) ? "/" : new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return out;
    }
}
