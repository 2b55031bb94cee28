package dev.luavm.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * VM rule 6 and style rule 13, enforced: the runtime and the standard library reach the outside
 * world only through the injected {@code HostEnvironment}. No class of the stdlib module or of the
 * interpreter's runtime packages touches {@code System.*} (other than arraycopy), files, threads,
 * processes or reflection. The public API package, which builds the default host environment, is
 * the one place allowed to. And VM rule 7: no main source at all reads
 * {@code System.identityHashCode}, which would make tostring ids or pairs order differ between
 * runs ({@code dev.luavm.value.Identity} numbers values per sandbox instead).
 */
class HostAccessTest {
    private static final Pattern FORBIDDEN = Pattern.compile(
            "System\\.(?!arraycopy)\\w+|java\\.io\\.File\\b|java\\.nio\\.file|new Thread\\b|Thread\\.|"
                    + "Runtime\\.getRuntime|ProcessBuilder|java\\.lang\\.reflect|Class\\.forName|getDeclared\\w+\\(");

    /**
     * Files allowed a thread of their own: RoomyStack runs the library's deep work (class
     * initialisation, compiling) on a helper thread with a large stack for host threads with a
     * small one; the caller waits for it, so nothing a script observes depends on it.
     */
    static final java.util.Set<String> ALLOWED = java.util.Set.of("interpreter/src/main/java/dev/luavm/vm/RoomyStack.java");

    static final List<String> CHECKED = List.of(
            "stdlib/src/main/java",
            "interpreter/src/main/java/dev/luavm/vm",
            "interpreter/src/main/java/dev/luavm/value",
            "interpreter/src/main/java/dev/luavm/compiler",
            "interpreter/src/main/java/dev/luavm/bytecode",
            "interpreter/src/main/java/dev/luavm/lib",
            "interpreter/src/main/java/dev/luavm/meter",
            "interpreter/src/main/java/dev/luavm/replay");

    @Test
    void runtimeAndLibrariesUseOnlyTheHostEnvironment() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent(); // surefire runs in conformance-tests/
        List<String> offences = new ArrayList<>();
        int files = 0;
        for (String dir : CHECKED) {
            Path d = root.resolve(dir);
            assertTrue(Files.isDirectory(d), "missing source directory " + d);
            try (Stream<Path> s = Files.walk(d)) {
                for (Path p : s.filter(x -> x.toString().endsWith(".java")).toList()) {
                    files++;
                    String[] lines = Files.readString(p, StandardCharsets.UTF_8).split("\n");
                    for (int i = 0; i < lines.length; i++) {
                        String code = stripComment(lines[i]);
                        Matcher m = FORBIDDEN.matcher(code);
                        if (m.find() && !ALLOWED.contains(root.relativize(p).toString())) {
                            offences.add(root.relativize(p) + ":" + (i + 1) + ": " + m.group());
                        }
                    }
                }
            }
        }
        assertTrue(files > 50, "scanned only " + files + " files");
        assertTrue(offences.isEmpty(), "host access outside HostEnvironment:\n" + String.join("\n", offences));
    }

    @Test
    void nothingReadsIdentityHashes() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> offences = new ArrayList<>();
        for (String module : List.of("interpreter", "stdlib", "audit-jsonl", "cli")) {
            try (Stream<Path> s = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                for (Path p : s.filter(x -> x.toString().endsWith(".java")).toList()) {
                    String[] lines = Files.readString(p, StandardCharsets.UTF_8).split("\n");
                    for (int i = 0; i < lines.length; i++) {
                        if (stripComment(lines[i]).contains("identityHashCode")) offences.add(root.relativize(p) + ":" + (i + 1));
                    }
                }
            }
        }
        assertTrue(offences.isEmpty(), "identity hashes reach what scripts observe:\n" + String.join("\n", offences));
    }

    /** The line without a trailing // comment or javadoc/comment text (good enough for this scan). */
    private static String stripComment(String line) {
        String t = line.strip();
        if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("//")) return "";
        int c = line.indexOf("//");
        return c >= 0 ? line.substring(0, c) : line;
    }
}
