package dev.luavm.docs;

import dev.luavm.Capabilities;
import dev.luavm.Capabilities.Grant;
import dev.luavm.host.ArgConstraint;
import dev.luavm.host.Param;
import dev.luavm.host.Safety;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The documentation of what a sandbox may use, made from its {@link Capabilities} alone: every
 * granted host function (description, parameters with types and constraints, results, safety
 * class, effects, example) and every granted bundle. Two renderings of the same content:
 * <ul>
 *   <li>{@link #markdown(Capabilities)}, for a model's system prompt or a reviewer;</li>
 *   <li>plain text for a script's {@code docs} function: {@link #overview()} for {@code docs()},
 *       {@link #text(String)} for {@code docs("invoice")} (a module: every function under that
 *       dotted prefix), {@code docs("invoice.lookup_vendor")} (one function) or
 *       {@code docs("string")} (a bundle).</li>
 * </ul>
 * Immutable and safe to share between threads and sandboxes.
 */
public final class HostDocs {
    /** The name {@code docs} answers with the mounts of a granted file system. */
    public static final String FILESYSTEM = "filesystem";

    private final Capabilities caps;

    private HostDocs(Capabilities caps) {
        this.caps = Objects.requireNonNull(caps, "capabilities");
    }

    /** The documentation of {@code caps}. */
    public static HostDocs of(Capabilities caps) {
        return new HostDocs(caps);
    }

    /** Markdown for a system prompt: how to call, the libraries, then the host functions by module. */
    public static String markdown(Capabilities caps) {
        return of(caps).markdown();
    }

    /** A bundle's one-line summary (a bundle outside the standard set is only named). */
    public static String librarySummary(String bundle) {
        return BundleCatalog.of(bundle).summary();
    }

    /** The names a standard bundle puts in a sandbox, as a script writes them ({@code "string.format"}); empty for others. */
    public static List<String> libraryFunctions(String bundle) {
        return BundleCatalog.of(bundle).functions();
    }

    /** The capabilities documented. */
    public Capabilities capabilities() {
        return caps;
    }

    /** The modules (dotted prefixes of granted paths, outermost first), in grant order: {@code invoice}, {@code a}, {@code a.b}. */
    public List<String> modules() {
        Set<String> out = new LinkedHashSet<>();
        for (String path : caps.hostFunctions().keySet()) {
            for (int dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) out.add(path.substring(0, dot));
        }
        return List.copyOf(out);
    }

    /**
     * Every name {@link #text(String)} answers: the granted functions, the modules, the granted
     * bundles and their functions ({@code "string.format"}).
     */
    public Set<String> names() {
        Set<String> out = new LinkedHashSet<>(caps.hostFunctions().keySet());
        out.addAll(modules());
        if (caps.filesystem() != null) out.add(FILESYSTEM);
        for (String b : caps.bundles()) {
            out.add(b);
            out.addAll(BundleCatalog.of(b).functions());
        }
        return out;
    }

    /** The grants whose path starts with {@code module + "."}, in grant order. */
    public List<Grant> functionsIn(String module) {
        List<Grant> out = new ArrayList<>();
        for (Grant g : caps.hostFunctions().values()) {
            if (g.path().startsWith(module + ".")) out.add(g);
        }
        return out;
    }

    // ------------------------------------------------------------------ Markdown

    /** The whole documentation as Markdown. */
    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Lua sandbox\n\n");
        sb.append("Scripts are Lua 5.3. Only what is listed here exists. Calls may be limited by gas, memory, "
                + "time and output; a host function's refusal is a Lua error (`permission denied: ...`) "
                + "that `pcall` can catch.\n");
        if (!caps.bundles().isEmpty()) {
            sb.append("\n## Libraries\n\n");
            for (String b : caps.bundles()) {
                BundleCatalog.BundleDoc d = BundleCatalog.of(b);
                sb.append("- `").append(b).append("`: ").append(d.summary()).append('.');
                if (!d.functions().isEmpty()) sb.append(" Names: ").append(String.join(", ", d.functions())).append('.');
                sb.append('\n');
            }
        }
        if (caps.filesystem() != null) {
            sb.append("\n## Files\n\n");
            sb.append("`io.open`, `io.lines`, `os.remove`, `os.rename` and the rest work as in Lua 5.3 on Linux, "
                    + "inside these mounts only; anything else does not exist (`No such file or directory`). "
                    + "Writes, removes and renames may be refused by the host's policy (`Permission denied`); "
                    + "a full quota is `No space left on device`.\n\n");
            for (dev.luavm.vfs.Vfs.Mount m : caps.filesystem().mounts()) sb.append("- ").append(mountLine(m)).append('\n');
            sb.append("- relative names start at ").append(caps.filesystem().workingDirectory()).append('\n');
            sb.append("- ").append(limitsLine(caps.filesystem())).append('\n');
        }
        if (!caps.hostFunctions().isEmpty()) {
            sb.append("\n## Host functions\n\n");
            sb.append("Safety classes: `SAFE` always runs; `UNSAFE` runs when the host's policy allows it; "
                    + "`FORBIDDEN` never runs.\n");
            // grouped by module, modules in the order of their first grant
            java.util.Map<String, List<Grant>> byModule = new java.util.LinkedHashMap<>();
            for (Grant g : caps.hostFunctions().values()) {
                String m = moduleOf(g.path());
                byModule.computeIfAbsent(m == null ? "" : m, k -> new ArrayList<>()).add(g);
            }
            byModule.forEach((m, grants) -> {
                sb.append("\n### ").append(m.isEmpty() ? "Globals" : "`" + m + "`").append('\n');
                for (Grant g : grants) markdownFunction(sb, g);
            });
        }
        return sb.toString();
    }

    private static void markdownFunction(StringBuilder sb, Grant g) {
        sb.append("\n#### `").append(signature(g)).append("`\n\n");
        sb.append(sentence(g.description())).append('\n');
        sb.append("\nSafety: `").append(g.safety()).append("`");
        if (!g.effects().isEmpty()) sb.append(". Effects: ").append(String.join(", ", g.effects()));
        sb.append(".\n");
        if (!g.params().isEmpty()) {
            sb.append("\n| parameter | type | description |\n|---|---|---|\n");
            for (Param p : g.params()) {
                sb.append("| `").append(p.name()).append("` | `").append(typeWithConstraints(p)).append("` | ")
                        .append(cell(p.description())).append(" |\n");
            }
        }
        if (!g.returns().isEmpty()) {
            sb.append("\nReturns:");
            if (g.returns().size() == 1) {
                sb.append(' ').append(returnLine(g.returns().get(0))).append('\n');
            } else {
                sb.append('\n');
                for (Param r : g.returns()) sb.append("- ").append(returnLine(r)).append('\n');
            }
        }
        if (g.example() != null) sb.append("\nExample:\n\n```lua\n").append(g.example()).append("\n```\n");
    }

    private static String returnLine(Param r) {
        return "`" + r.type() + "`" + (r.description().isEmpty() ? "" : " - " + r.description());
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    private static String sentence(String s) {
        return s.isEmpty() || s.endsWith(".") ? s : s + ".";
    }

    // ------------------------------------------------------------------ plain text

    /** What {@code docs()} prints: the libraries, then one line per host function. */
    public String overview() {
        StringBuilder sb = new StringBuilder();
        if (!caps.bundles().isEmpty()) {
            sb.append("Libraries: ").append(String.join(", ", caps.bundles())).append('\n');
        }
        if (caps.filesystem() != null) {
            sb.append("Files:");
            for (dev.luavm.vfs.Vfs.Mount m : caps.filesystem().mounts()) sb.append(' ').append(m.path());
            sb.append(" (docs(\"filesystem\") for details)\n");
        }
        if (caps.hostFunctions().isEmpty()) {
            sb.append("Host functions: none\n");
        } else {
            sb.append("Host functions:\n");
            for (Grant g : caps.hostFunctions().values()) {
                sb.append("  ").append(signature(g)).append("  [").append(g.safety()).append("]");
                if (!g.description().isEmpty()) sb.append(" ").append(g.description());
                sb.append('\n');
            }
        }
        sb.append("docs(\"name\") shows one function, module or library.\n");
        return sb.toString();
    }

    /**
     * What {@code docs(name)} prints: a host function, a module (its functions in full), or a
     * bundle (its summary and functions, with the host functions granted under it, if any).
     * Empty when nothing granted has that name.
     */
    public Optional<String> text(String name) {
        Objects.requireNonNull(name, "name");
        Grant g = caps.hostFunctions().get(name);
        if (g != null) return Optional.of(functionText(g));
        if (name.equals(FILESYSTEM) && caps.filesystem() != null) return Optional.of(filesystemText(caps.filesystem()));
        StringBuilder sb = new StringBuilder();
        if (caps.bundles().contains(name)) {
            BundleCatalog.BundleDoc d = BundleCatalog.of(name);
            sb.append("library ").append(name).append(": ").append(d.summary()).append('\n');
            if (!d.functions().isEmpty()) sb.append("  ").append(String.join(", ", d.functions())).append('\n');
        } else {
            String lib = libraryOf(name);
            if (lib != null) {
                return Optional.of(name + ": the standard Lua 5.3 function (library " + lib
                        + "; see the Lua 5.3 reference manual)\n");
            }
        }
        List<Grant> in = functionsIn(name);
        if (!in.isEmpty()) {
            if (sb.length() > 0) sb.append('\n');
            sb.append("module ").append(name).append(": ").append(in.size())
                    .append(in.size() == 1 ? " function\n" : " functions\n");
            for (Grant f : in) sb.append('\n').append(functionText(f));
        }
        return sb.length() == 0 ? Optional.empty() : Optional.of(sb.toString());
    }

    /** What {@code docs("filesystem")} prints: the mounts, one a line, and the handle and file quotas. */
    public static String filesystemText(dev.luavm.vfs.Vfs vfs) {
        StringBuilder sb = new StringBuilder("filesystem: files as in Lua 5.3 on Linux, inside these mounts only\n");
        for (dev.luavm.vfs.Vfs.Mount m : vfs.mounts()) sb.append("  ").append(mountLine(m)).append('\n');
        sb.append("  ").append(limitsLine(vfs)).append('\n');
        return sb.toString();
    }

    /** {@code /tmp: memory (this sandbox's own, kept between runs), quota 8 MiB}; never the host's directory. */
    private static String mountLine(dev.luavm.vfs.Vfs.Mount m) {
        String what = switch (m.mode()) {
            case READ_ONLY -> "read-only";
            case READ_WRITE -> "read-write";
            case MEMORY -> "memory (this sandbox's own, kept between runs)";
            case OVERLAY -> "overlay (readable as it is; changes kept in memory and dropped after each run)";
        };
        String d = m.describe();
        int quota = d.indexOf(", quota ");
        return m.path() + ": " + what + (quota >= 0 ? d.substring(quota) : "");
    }

    private static String limitsLine(dev.luavm.vfs.Vfs vfs) {
        return "at most " + vfs.maxOpenFiles() + " files open at once and " + vfs.maxFiles() + " files created";
    }

    /** The granted bundle listing {@code name} among its functions, or null. */
    private String libraryOf(String name) {
        for (String b : caps.bundles()) {
            if (BundleCatalog.of(b).functions().contains(name)) return b;
        }
        return null;
    }

    /** One host function in full, as {@code docs("invoice.lookup_vendor")} prints it. */
    public static String functionText(Grant g) {
        StringBuilder sb = new StringBuilder(signature(g)).append('\n');
        if (!g.description().isEmpty()) sb.append("  ").append(g.description()).append('\n');
        sb.append("  safety: ").append(g.safety()).append(" (").append(safetyMeaning(g.safety())).append(")\n");
        if (!g.effects().isEmpty()) sb.append("  effects: ").append(String.join(", ", g.effects())).append('\n');
        if (!g.params().isEmpty()) {
            sb.append("  parameters:\n");
            for (Param p : g.params()) {
                sb.append("    ").append(p.name()).append(": ").append(typeWithConstraints(p));
                if (!p.description().isEmpty()) sb.append(" - ").append(p.description());
                sb.append('\n');
            }
        }
        if (!g.returns().isEmpty()) {
            sb.append("  returns:\n");
            for (Param r : g.returns()) {
                sb.append("    ").append(r.type());
                if (!r.description().isEmpty()) sb.append(" - ").append(r.description());
                sb.append('\n');
            }
        }
        if (g.example() != null) {
            sb.append("  example:\n");
            for (String line : g.example().split("\n", -1)) sb.append("    ").append(line).append('\n');
        }
        return sb.toString();
    }

    /** {@code "payments.refund(invoice: string, amount: integer) -> string"}; undeclared parameters show as {@code ...}. */
    public static String signature(Grant g) {
        StringBuilder sb = new StringBuilder(g.path()).append('(');
        if (g.params().isEmpty() && g.safety() == Safety.UNSAFE && g.returns().isEmpty() && g.effects().isEmpty()) {
            sb.append("...");  // a plain grant: its parameters were not declared
        }
        for (int i = 0; i < g.params().size(); i++) {
            Param p = g.params().get(i);
            if (i > 0) sb.append(", ");
            sb.append(p.name()).append(": ").append(p.type());
        }
        sb.append(')');
        if (!g.returns().isEmpty()) {
            List<String> r = new ArrayList<>();
            for (Param p : g.returns()) r.add(p.type());
            sb.append(" -> ").append(String.join(", ", r));
        }
        return sb.toString();
    }

    private static String typeWithConstraints(Param p) {
        StringBuilder sb = new StringBuilder(p.type());
        for (ArgConstraint c : p.constraints()) sb.append(' ').append(c.describe());
        return sb.toString();
    }

    private static String safetyMeaning(Safety s) {
        return switch (s) {
            case SAFE -> "always runs";
            case UNSAFE -> "runs when the host's policy allows it";
            case FORBIDDEN -> "never runs: calls are refused";
        };
    }

    /** The module of a path: everything before its last dot, or null for a global. */
    private static String moduleOf(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? null : path.substring(0, dot);
    }
}
