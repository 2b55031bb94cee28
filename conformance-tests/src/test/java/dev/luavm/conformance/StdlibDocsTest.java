package dev.luavm.conformance;

import dev.luavm.Capabilities;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Keeps docs/STDLIB.md true. Reads every table whose header is
 * {@code function | bundle | status | notes} and checks, through the public API only:
 * <ol>
 *   <li>a name marked {@code full} or {@code partial} exists, with the documented type, in a
 *       sandbox granted its bundle (plus {@code base}, whose {@code type} and {@code rawget} the
 *       probe uses, an input stream and a file system), and is not there without that bundle;</li>
 *   <li>a name marked {@code absent} is nil in a sandbox granted every bundle;</li>
 *   <li>every global and every field of a documented library table in that sandbox has a row;</li>
 *   <li>the documented bundles are exactly the bundles the runtime offers.</li>
 * </ol>
 * So adding a function without documenting it, or documenting one that is gone, fails the build.
 */
class StdlibDocsTest {
    /** One row of a function table. */
    record Row(String name, String type, String bundle, String status, String notes, int line) {
        @Override
        public String toString() {
            return "STDLIB.md:" + line + " `" + name + "`";
        }
    }

    private static final Set<String> STATUSES = Set.of("full", "partial", "absent");
    private static final String NO_BUNDLE = "—";
    /** {@code `math.pi` (number)}: the name in backticks, then the type of a non-function value. */
    private static final Pattern NAME_CELL = Pattern.compile("`([A-Za-z_][A-Za-z0-9_.]*)`(?:\\s*\\((\\w+)\\))?");

    static final LuaVM VM = LuaVM.create();
    static Path doc;
    static List<Row> rows;

    @BeforeAll
    static void parse() throws IOException {
        doc = findDoc();
        rows = parseTables(Files.readAllLines(doc, StandardCharsets.UTF_8));
        assertTrue(rows.size() > 100, "expected the whole standard library in " + doc + ", found " + rows.size() + " rows");
    }

    /** The repository root from surefire's shared.dir (= root/../shared), else walking up from the working directory. */
    static Path findDoc() {
        String shared = System.getProperty("shared.dir");
        List<Path> starts = new ArrayList<>();
        if (shared != null && shared.endsWith("/../shared")) {
            starts.add(Path.of(shared.substring(0, shared.length() - "/../shared".length())));
        }
        starts.add(Path.of(System.getProperty("user.dir")));
        for (Path start : starts) {
            for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
                Path candidate = p.resolve("docs/STDLIB.md");
                if (Files.isRegularFile(candidate)) return candidate;
            }
        }
        throw new AssertionError("docs/STDLIB.md not found from " + starts);
    }

    static List<Row> parseTables(List<String> lines) {
        List<Row> out = new ArrayList<>();
        boolean inTable = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = cells(line);
            if (cells.equals(List.of("function", "bundle", "status", "notes"))) {
                inTable = true;
                continue;
            }
            if (!inTable || line.startsWith("|---")) continue;
            int lineNo = i + 1;
            if (cells.size() != 4) fail("STDLIB.md:" + lineNo + ": expected 4 cells, got " + cells);
            Matcher m = NAME_CELL.matcher(cells.get(0));
            if (!m.matches()) fail("STDLIB.md:" + lineNo + ": bad function cell '" + cells.get(0) + "'");
            String type = m.group(2) == null ? "function" : m.group(2);
            out.add(new Row(m.group(1), type, cells.get(1), cells.get(2), cells.get(3), lineNo));
        }
        return out;
    }

    private static List<String> cells(String line) {
        String body = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
        List<String> cells = new ArrayList<>();
        for (String c : body.split("\\|", -1)) cells.add(c.trim());
        return cells;
    }

    @Test
    void rowsAreWellFormed() {
        Set<String> bundles = VM.availableBundles();
        Set<String> seen = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (Row r : rows) {
            if (!seen.add(r.name())) problems.add(r + " is listed twice");
            if (!STATUSES.contains(r.status())) problems.add(r + ": status '" + r.status() + "' is not one of " + STATUSES);
            if (!r.bundle().equals(NO_BUNDLE) && !bundles.contains(r.bundle())) {
                problems.add(r + ": unknown bundle '" + r.bundle() + "' (available: " + bundles + ")");
            }
            if (r.bundle().equals(NO_BUNDLE) && !r.status().equals("absent")) {
                problems.add(r + ": only an absent name may have no bundle");
            }
            if (!r.status().equals("full") && r.notes().isEmpty()) {
                problems.add(r + ": a " + r.status() + " name must say " + (r.status().equals("absent") ? "why" : "what differs"));
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyBundleIsDocumented() {
        Set<String> documented = new TreeSet<>();
        for (Row r : rows) if (!r.bundle().equals(NO_BUNDLE) && !r.status().equals("absent")) documented.add(r.bundle());
        assertEquals(new TreeSet<>(VM.availableBundles()), documented, "bundles with documented functions vs bundles offered");
    }

    @Test
    void presentNamesExistInTheirBundle() {
        Map<String, List<Row>> byBundle = new LinkedHashMap<>();
        for (Row r : rows) {
            if (!r.status().equals("absent")) byBundle.computeIfAbsent(r.bundle(), b -> new ArrayList<>()).add(r);
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<Row>> e : byBundle.entrySet()) {
            String bundle = e.getKey();
            try (Sandbox with = sandbox(Capabilities.builder().bundle("base", bundle).build());
                 Sandbox baseOnly = sandbox(Capabilities.builder().bundle("base").build())) {
                for (Row r : e.getValue()) {
                    String type = typeOf(with, r.name());
                    if (!type.equals(r.type())) {
                        problems.add(r + " is " + type + " with bundle '" + bundle + "', documented as " + r.type());
                    } else if (!bundle.equals("base") && !typeOf(baseOnly, r.name()).equals("nil")) {
                        problems.add(r + " exists without bundle '" + bundle + "': it belongs to another bundle");
                    }
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void absentNamesAreAbsentEverywhere() {
        List<String> problems = new ArrayList<>();
        try (Sandbox all = sandbox(everyBundle())) {
            for (Row r : rows) {
                if (!r.status().equals("absent")) continue;
                String type = typeOf(all, r.name());
                if (!type.equals("nil")) problems.add(r + " is marked absent but is a " + type + " in a sandbox granted every bundle");
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void everyExistingNameIsDocumented() {
        Set<String> documented = new TreeSet<>();
        Set<String> libraries = new TreeSet<>();
        for (Row r : rows) {
            if (r.status().equals("absent")) continue;
            documented.add(r.name());
            int dot = r.name().indexOf('.');
            if (dot > 0) libraries.add(r.name().substring(0, dot));
        }
        StringBuilder libs = new StringBuilder("{");
        for (String l : libraries) libs.append('"').append(l).append("\",");
        libs.append('}');
        // globals, and one level into each documented library table (not into package.loaded and the like)
        String enumerate = """
                local libs, out = {}, {}
                for _, l in ipairs(%s) do libs[l] = true end
                for k, v in pairs(_G) do
                  k = tostring(k)
                  if libs[k] and type(v) == "table" then
                    for k2 in pairs(v) do out[#out + 1] = k .. "." .. tostring(k2) end
                  else
                    out[#out + 1] = k
                  end
                end
                return table.concat(out, "\\n")
                """.formatted(libs);
        Set<String> existing = new TreeSet<>();
        try (Sandbox all = sandbox(everyBundle())) {
            for (String name : ((String) all.eval("enumerate", enumerate)).split("\n")) existing.add(name);
        }
        Set<String> undocumented = new TreeSet<>(existing);
        undocumented.removeAll(documented);
        assertEquals(Set.of(), undocumented, "names a sandbox granted every bundle holds, with no full/partial row in " + doc);
        Set<String> missing = new TreeSet<>(documented);
        missing.removeAll(existing);
        assertEquals(Set.of(), missing, "documented as present but missing from a sandbox granted every bundle");
    }

    /** Every bundle the runtime offers (the sandbox installs {@code package} after the others). */
    static Capabilities everyBundle() {
        return Capabilities.builder().bundles(new TreeSet<>(VM.availableBundles())).build();
    }

    static Sandbox sandbox(Capabilities caps) {
        // with an input stream and a file system, so io's input names (io.read, io.stdin, ...) and
        // the names that need files (io.open, os.remove, ...) exist
        Capabilities withFiles = caps.toBuilder().filesystem(dev.luavm.vfs.Vfs.create().mountMemory("/tmp", 1 << 20)).build();
        return VM.sandbox().capabilities(withFiles).input(java.io.InputStream.nullInputStream()).build();
    }

    /** The Lua type of a dotted name, read raw from the globals ("nil" when any step is missing). */
    static String typeOf(Sandbox sb, String dotted) {
        StringBuilder path = new StringBuilder("{");
        for (String part : dotted.split("\\.")) path.append('"').append(part).append("\",");
        path.append('}');
        String code = """
                local v = _ENV
                for _, k in ipairs(%s) do
                  if type(v) ~= "table" then return "nil" end
                  v = rawget(v, k)
                end
                return type(v)
                """.formatted(path);
        return (String) sb.eval("probe", code);
    }
}
