package dev.luavm.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The official Lua 5.3.6 test suite as luavm runs it: which files, which lines are skipped and
 * why ({@code official/skips.txt}), the globals {@code all.lua} sets, and the return values it
 * checks. The suite itself is never part of this repository: it is read at run time from the
 * directory given by {@code -Dlua.suite.dir} (the {@code testes/} folder of lua/lua at v5.3.6).
 */
final class OfficialSuite {
    /** The files all.lua runs, in its order. */
    static final List<String> FILES = List.of("main.lua", "gc.lua", "db.lua", "calls.lua", "strings.lua",
            "literals.lua", "tpack.lua", "attrib.lua", "locals.lua", "constructs.lua", "code.lua", "big.lua",
            "nextvar.lua", "pm.lua", "utf8.lua", "api.lua", "events.lua", "vararg.lua", "closure.lua",
            "coroutine.lua", "goto.lua", "errors.lua", "math.lua", "sort.lua", "bitwise.lua", "verybig.lua",
            "files.lua");

    /** Class A and B files (../shared/conformance/README.md): they must pass with the skips. */
    static final List<String> MUST_PASS = List.of("calls.lua", "strings.lua", "literals.lua", "tpack.lua",
            "attrib.lua", "locals.lua", "constructs.lua", "nextvar.lua", "pm.lua", "utf8.lua", "events.lua",
            "vararg.lua", "closure.lua", "coroutine.lua", "goto.lua", "errors.lua", "math.lua", "sort.lua",
            "bitwise.lua", "verybig.lua");

    /**
     * Globals as all.lua sets them in the portable "user" mode: _soft and _port true, no C test
     * library, debug absent, a fixed random seed and the Message function for skip notes.
     */
    static final String PRELUDE = "_soft = true; _port = true; _nomsg = false; T = nil; debug = nil; "
            + "math.randomseed(0); function Message (m) if not _nomsg then print(m) end end";

    /** Banners printed by files that return at once when their facility is missing. */
    static final Map<String, String> SELF_SKIP_BANNERS = Map.of(
            "api.lua", "testing C API",
            "code.lua", "testing code generation",
            "main.lua", "testing stand-alone interpreter",
            "big.lua", "testing large tables");

    /** One skip entry. */
    record Skip(String file, int from, int to, boolean all, String category, String reason) {}

    static List<Skip> loadSkips() {
        List<Skip> skips = new ArrayList<>();
        try (InputStream in = OfficialSuite.class.getResourceAsStream("/official/skips.txt")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] f = line.split("\\s+", 4);
                if (f.length < 4) throw new IllegalStateException("bad skip line: " + line);
                boolean all = f[1].equals("all");
                int from = 0, to = 0;
                if (!all) {
                    String[] r = f[1].split("-");
                    from = Integer.parseInt(r[0]);
                    to = r.length > 1 ? Integer.parseInt(r[1]) : from;
                }
                skips.add(new Skip(f[0], from, to, all, f[2], f[3]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return skips;
    }

    /** The file's text with skipped lines replaced by comments (line numbers preserved), or null if skipped whole. */
    static byte[] applySkips(String file, byte[] source, List<Skip> skips) {
        TreeMap<Integer, Integer> ranges = new TreeMap<>();
        for (Skip s : skips) {
            if (!s.file().equals(file)) continue;
            if (s.all()) return null;
            ranges.put(s.from(), s.to());
        }
        if (ranges.isEmpty()) return source;
        String text = new String(source, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\n", -1);
        for (var r : ranges.entrySet()) {
            for (int n = r.getKey(); n <= r.getValue() && n <= lines.length; n++) {
                lines[n - 1] = "-- [skipped by luavm: see official/skips.txt]";
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Lua code that checks the value a file returns, as all.lua does; empty when none is checked. */
    static String returnCheck(String file) {
        return switch (file) {
            case "calls.lua" -> "assert(__r == rawget(_G, 'deep') and __r, 'calls.lua must return deep')";
            case "attrib.lua" -> "assert(__r == 27, 'attrib.lua must return 27')";
            case "locals.lua" -> "assert(__r == 5, 'locals.lua must return 5')";
            case "events.lua" -> "assert(__r == 12, 'events.lua must return 12')";
            case "verybig.lua" -> "assert(__r == 10, 'verybig.lua must return 10')";
            default -> "";
        };
    }

    private OfficialSuite() {}
}
