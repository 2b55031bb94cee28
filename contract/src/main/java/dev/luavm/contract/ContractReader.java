package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.luavm.host.Safety;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a {@link LocatedTree} into a {@link Contract}, checking every field on its own: unknown
 * fields, missing required ones, types and values. Each error names the file, the line and the
 * field. What needs the host (function names, effects, bundles) is checked by
 * {@link ContractRunner#bind}.
 */
final class ContractReader {
    static final Set<String> FIELDS = Set.of("purpose", "input", "output", "functions", "libraries", "forbidden",
            "data_boundary", "error_detail", "limits", "audit", "approval_owner", "rollback", "modules", "filesystem");
    static final Set<String> REQUIRED = Set.of("purpose", "input", "output", "functions", "libraries", "limits",
            "approval_owner", "rollback");
    static final Set<String> FUNCTION_FIELDS = Set.of("name", "safety", "max_calls");
    static final Set<String> MODULE_FIELDS = Set.of("source", "functions");
    /** The longest module source a contract carries. */
    static final int MAX_MODULE_SOURCE = 256 << 10;
    static final Set<String> LIMIT_FIELDS = Set.of("gas", "memory", "time", "output", "depth", "audit");
    /** The smallest memory limit: below it not even the libraries fit, so no run could start. */
    static final long MIN_MEMORY = 64 << 10;
    static final Set<String> AUDIT_ITEMS = Set.of("arguments", "results", "output");
    /** The effects the runtime knows by name; a host may add its own tags. */
    static final List<String> KNOWN_EFFECTS = List.of("network", "filesystem", "environment", "process", "cross-tenant");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
    private static final Pattern EFFECT = Pattern.compile("[a-z0-9][a-z0-9_:.-]*");
    private static final Pattern SIZE = Pattern.compile("(\\d[\\d_]*)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern DURATION = Pattern.compile("(\\d[\\d_]*)\\s*(ms|s|m|min|h)", Pattern.CASE_INSENSITIVE);

    private final LocatedTree tree;
    private final String file;

    private ContractReader(LocatedTree tree) {
        this.tree = tree;
        this.file = tree.file;
    }

    static Contract read(LocatedTree tree) {
        ContractReader reader = new ContractReader(tree);
        Contract c = reader.read();
        JsonNode modules = tree.root.get("modules");
        if (modules != null && !modules.isNull()) c.modules(reader.modules(modules, c.functions()));
        JsonNode filesystem = tree.root.get("filesystem");
        if (filesystem != null && !filesystem.isNull()) c.filesystem(reader.filesystem(filesystem));
        return c;
    }

    /**
     * {@code filesystem:}: {@code mounts} (a list of {path, mode, quota}), optional
     * {@code max_open_files} and {@code max_files}. What the host offers is checked by
     * {@link ContractRunner#bind}.
     */
    private FilesystemRule filesystem(JsonNode n) {
        if (!n.isObject()) throw error("filesystem", "expected a mapping of mounts, max_open_files, max_files, got " + kind(n));
        checkFields(n, "filesystem", Set.of("mounts", "max_open_files", "max_files"));
        JsonNode ms = n.get("mounts");
        if (ms == null || !ms.isArray()) throw error("filesystem.mounts", "expected a list of {path, mode, quota}, got " + kind(ms));
        List<FilesystemRule.MountRule> mounts = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < ms.size(); i++) {
            String at = "filesystem.mounts[" + i + "]";
            JsonNode m = ms.get(i);
            if (!m.isObject()) throw error(at, "expected {path, mode, quota}, got " + kind(m));
            checkFields(m, at, Set.of("path", "mode", "quota"));
            for (String f : List.of("path", "mode")) if (!m.has(f)) throw error(at, "'" + f + "' missing");
            String path = scalarText(m.get("path"), at + ".path");
            if (!seen.add(path)) throw error(at + ".path", "'" + path + "' is listed twice");
            String word = scalarText(m.get("mode"), at + ".mode");
            dev.luavm.vfs.Vfs.Mode mode = FilesystemRule.mode(word);
            if (mode == null) throw error(at + ".mode", "'" + word + "' is not one of: read-only, read-write, memory, overlay");
            Long quota = null;
            if (m.has("quota") && !m.get("quota").isNull()) {
                if (mode == dev.luavm.vfs.Vfs.Mode.READ_ONLY) throw error(at + ".quota", "a read-only mount is never written: it has no quota");
                quota = size(m.get("quota"), at + ".quota", 0);
            }
            mounts.add(new FilesystemRule.MountRule(path, mode, quota));
        }
        Integer open = n.has("max_open_files") ? (int) count(n.get("max_open_files"), "filesystem.max_open_files", 0, Integer.MAX_VALUE) : null;
        Long files = n.has("max_files") ? count(n.get("max_files"), "filesystem.max_files", 0, Long.MAX_VALUE) : null;
        return new FilesystemRule(mounts, open, files);
    }

    private ContractException error(String field, String problem) {
        return new ContractException(file, tree.line(field), field, problem);
    }

    private Contract read() {
        JsonNode root = tree.root;
        if (root.isMissingNode()) throw new ContractException(file, 0, null, "empty contract");
        if (!root.isObject()) throw error("", "a contract is a mapping of fields (purpose, input, output, ...)");
        checkFields(root, "", FIELDS);
        for (String f : List.of("purpose", "input", "output", "functions", "libraries", "limits", "approval_owner", "rollback")) {
            if (!root.has(f) || root.get(f).isNull()) {
                throw new ContractException(file, tree.line(""), f, "required field missing");
            }
        }
        String purpose = text(root, "purpose", true);
        JsonSchema input = schema(root, "input");
        JsonSchema output = schema(root, "output");
        List<FunctionRule> functions = functions(root.get("functions"), "functions");
        List<String> libraries = libraries(root.get("libraries"));
        List<String> forbidden = root.has("forbidden") && !root.get("forbidden").isNull()
                ? forbidden(root.get("forbidden")) : List.of();
        String dataBoundary = root.has("data_boundary") && !root.get("data_boundary").isNull()
                ? text(root, "data_boundary", false) : null;
        ErrorDetail errorDetail = ErrorDetail.LOCATION;
        if (root.has("error_detail") && !root.get("error_detail").isNull()) {
            String d = scalarText(root.get("error_detail"), "error_detail");
            errorDetail = ErrorDetail.of(d);
            if (errorDetail == null) throw error("error_detail", "'" + d + "' is not one of: none, location, full");
        }
        ContractLimits limits = limits(root.get("limits"));
        AuditRule audit = root.has("audit") && !root.get("audit").isNull() ? audit(root.get("audit")) : AuditRule.ALL;
        String owner = text(root, "approval_owner", true);
        String rollbackText = scalarText(root.get("rollback"), "rollback");
        Rollback rollback = Rollback.of(rollbackText);
        if (rollback == null) throw error("rollback", "'" + rollbackText + "' is not one of: manual-review, last-approved");
        return new Contract(file, purpose, input, output, functions, libraries, forbidden, dataBoundary, errorDetail, limits,
                audit, owner, rollback, tree);
    }

    private void checkFields(JsonNode obj, String path, Set<String> allowed) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                String field = path.isEmpty() ? name : path + "." + name;
                throw error(field, "unknown field (known: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }

    private String text(JsonNode obj, String field, boolean oneLine) {
        String s = scalarText(obj.get(field), field).strip();
        if (s.isEmpty()) throw error(field, "must not be empty");
        if (oneLine && s.indexOf('\n') >= 0) throw error(field, "must be one line");
        if (s.length() > 4096) throw error(field, "longer than 4096 characters");
        return s;
    }

    private String scalarText(JsonNode n, String field) {
        if (n == null || !n.isTextual()) throw error(field, "expected text, got " + kind(n));
        return n.textValue();
    }

    static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) return "nothing";
        if (n.isNull()) return "null";
        if (n.isTextual()) return "text";
        if (n.isIntegralNumber()) return "an integer";
        if (n.isNumber()) return "a number";
        if (n.isBoolean()) return "a boolean";
        if (n.isArray()) return "a list";
        return "a mapping";
    }

    private JsonSchema schema(JsonNode root, String field) {
        JsonNode n = root.get(field);
        if (!n.isObject()) throw error(field, "expected a JSON Schema (a mapping), got " + kind(n));
        try {
            return JsonSchema.of(n);
        } catch (IllegalArgumentException e) {
            throw error(field, e.getMessage());
        }
    }

    private List<FunctionRule> functions(JsonNode n, String field) {
        if (!n.isArray()) throw error(field, "expected a list of function names or {name, safety, max_calls}, got " + kind(n));
        List<FunctionRule> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < n.size(); i++) {
            String at = field + "[" + i + "]";
            JsonNode e = n.get(i);
            String name;
            Safety safety = null;
            long maxCalls = Long.MAX_VALUE;
            if (e.isTextual()) {
                name = e.textValue();
            } else if (e.isObject()) {
                checkFields(e, at, FUNCTION_FIELDS);
                if (!e.has("name")) throw error(at, "'name' missing");
                name = scalarText(e.get("name"), at + ".name");
                if (e.has("safety")) {
                    String s = scalarText(e.get("safety"), at + ".safety");
                    safety = switch (s.toLowerCase(Locale.ROOT)) {
                        case "safe" -> Safety.SAFE;
                        case "unsafe" -> Safety.UNSAFE;
                        case "forbidden" -> Safety.FORBIDDEN;
                        default -> throw error(at + ".safety", "'" + s + "' is not one of: safe, unsafe, forbidden");
                    };
                }
                if (e.has("max_calls")) {
                    JsonNode m = e.get("max_calls");
                    if (!m.isIntegralNumber() || !m.canConvertToLong() || m.longValue() < 0) {
                        throw error(at + ".max_calls", "expected a non-negative integer, got " + kind(m));
                    }
                    maxCalls = m.longValue();
                }
            } else {
                throw error(at, "expected a function name or {name, safety, max_calls}, got " + kind(e));
            }
            String nameField = e.isObject() ? at + ".name" : at;
            if (!NAME.matcher(name).matches()) throw error(nameField, "'" + name + "' is not a function name (a Lua name or dotted path)");
            if (!seen.add(name)) throw error(nameField, "'" + name + "' is listed twice");
            out.add(new FunctionRule(name, safety, maxCalls));
        }
        return out;
    }

    /**
     * {@code modules:}: a mapping of module names to {@code {source, functions}}; a function is
     * granted once, to the script ({@code functions:}) or to one module.
     */
    private List<ModuleRule> modules(JsonNode n, List<FunctionRule> scriptFunctions) {
        if (!n.isObject()) throw error("modules", "expected a mapping of module names to {source, functions}, got " + kind(n));
        Map<String, String> grantedTo = new java.util.HashMap<>();
        for (FunctionRule f : scriptFunctions) grantedTo.put(f.name(), "functions");
        List<ModuleRule> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            String at = "modules." + name;
            if (!dev.luavm.host.ModuleIdentity.isName(name)) {
                throw error(at, "'" + name + "' is not a module name (dotted words of letters, digits, '_', '-')");
            }
            JsonNode m = e.getValue();
            if (!m.isObject()) throw error(at, "expected {source, functions}, got " + kind(m));
            checkFields(m, at, MODULE_FIELDS);
            if (!m.has("source")) throw error(at, "'source' missing (the module's Lua source, reviewed with the contract)");
            String source = scalarText(m.get("source"), at + ".source");
            if (source.isBlank()) throw error(at + ".source", "must not be empty");
            if (source.length() > MAX_MODULE_SOURCE) throw error(at + ".source", "longer than " + MAX_MODULE_SOURCE + " characters");
            List<FunctionRule> fns = m.has("functions") && !m.get("functions").isNull()
                    ? functions(m.get("functions"), at + ".functions") : List.of();
            for (int i = 0; i < fns.size(); i++) {
                String before = grantedTo.putIfAbsent(fns.get(i).name(), at);
                if (before != null) {
                    throw error(at + ".functions[" + i + "]", "'" + fns.get(i).name() + "' is granted already (in " + before
                            + "): a function goes to the script or to one module");
                }
            }
            out.add(new ModuleRule(name, source, fns));
        }
        return out;
    }

    private List<String> words(JsonNode n, String field, String what) {
        if (!n.isArray()) throw error(field, "expected a list of " + what + ", got " + kind(n));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n.size(); i++) {
            String at = field + "[" + i + "]";
            String w = scalarText(n.get(i), at);
            if (out.contains(w)) throw error(at, "'" + w + "' is listed twice");
            out.add(w);
        }
        return out;
    }

    private List<String> libraries(JsonNode n) {
        List<String> libs = words(n, "libraries", "library bundle names");
        for (int i = 0; i < libs.size(); i++) {
            String lib = libs.get(i);
            if (!Contract.LIBRARIES.contains(lib)) {
                String why = switch (lib) {
                    case "os.exit" -> " (a contracted script ends by returning; a call to os.exit is a call to nil)";
                    case "docs" -> " (it describes the host to an agent writing code, not to a script written in advance)";
                    default -> "";
                };
                throw error("libraries[" + i + "]", "'" + lib + "' is not a library bundle a contract may grant" + why
                        + "; the bundles a contract may grant: " + String.join(", ", Contract.LIBRARIES));
            }
        }
        return libs;
    }

    private List<String> forbidden(JsonNode n) {
        List<String> tags = words(n, "forbidden", "effect tags (network, filesystem, environment, process, cross-tenant, ...)");
        for (int i = 0; i < tags.size(); i++) {
            if (!EFFECT.matcher(tags.get(i)).matches()) {
                throw error("forbidden[" + i + "]", "'" + tags.get(i) + "' is not an effect tag (one lower-case word, as 'network' or 'writes:ledger')");
            }
        }
        return tags;
    }

    private ContractLimits limits(JsonNode n) {
        if (!n.isObject()) throw error("limits", "expected a mapping of gas, memory, time, output, depth, got " + kind(n));
        checkFields(n, "limits", LIMIT_FIELDS);
        for (String f : List.of("gas", "memory", "time", "output", "depth")) {
            if (!n.has(f) || n.get(f).isNull()) throw error("limits." + f, "required limit missing (every limit is written down)");
        }
        long gas = count(n.get("gas"), "limits.gas", 1, Long.MAX_VALUE);
        long memory = size(n.get("memory"), "limits.memory", MIN_MEMORY);
        Duration time = duration(n.get("time"), "limits.time");
        long output = size(n.get("output"), "limits.output", 0);
        long depth = count(n.get("depth"), "limits.depth", 10, dev.luavm.Limits.DEFAULT_CALL_DEPTH);
        long audit = n.has("audit") && !n.get("audit").isNull() // optional: contracts from before it stay valid
                ? count(n.get("audit"), "limits.audit", 1, Long.MAX_VALUE) : dev.luavm.Limits.DEFAULT_AUDIT_EVENTS;
        return new ContractLimits(gas, memory, time, output, (int) depth, audit);
    }

    private long count(JsonNode n, String field, long min, long max) {
        long v;
        if (n.isIntegralNumber() && n.canConvertToLong()) v = n.longValue();
        else if (n.isTextual() && n.textValue().strip().matches("\\d[\\d_]*")) v = parseDigits(n.textValue().strip(), field);
        else throw error(field, "expected a whole number, got " + kind(n) + (n.isValueNode() ? " '" + n.asText() + "'" : ""));
        if (v < min || v > max) throw error(field, v + " is out of range (" + min + " to " + max + ")");
        return v;
    }

    private long parseDigits(String digits, String field) {
        try {
            return Long.parseLong(digits.replace("_", ""));
        } catch (NumberFormatException e) {
            throw error(field, "'" + digits + "' is too large");
        }
    }

    /** A byte size: an integer, or text as {@code 16MiB}, {@code 64k}, {@code 512B} (binary units). */
    private long size(JsonNode n, String field, long min) {
        long v;
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            v = n.longValue();
        } else if (n.isTextual()) {
            Matcher m = SIZE.matcher(n.textValue().strip());
            if (!m.matches()) throw error(field, "'" + n.textValue() + "' is not a size (as 16MiB, 64KiB, 1048576)");
            long base = parseDigits(m.group(1), field);
            String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(Locale.ROOT);
            int shift = switch (unit.charAt(0)) { case 'k' -> 10; case 'm' -> 20; case 'g' -> 30; default -> 0; };
            if (base > (Long.MAX_VALUE >> shift)) throw error(field, "'" + n.textValue() + "' is too large");
            v = base << shift;
        } else {
            throw error(field, "expected a size (as 16MiB), got " + kind(n));
        }
        if (v < min) throw error(field, "must be at least " + (min >= 1024 ? (min >> 10) + " KiB" : min + " bytes"));
        return v;
    }

    /** A duration with its unit: {@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}. */
    private Duration duration(JsonNode n, String field) {
        if (!n.isTextual()) throw error(field, "expected a duration with its unit (as 500ms or 2s), got " + kind(n));
        Matcher m = DURATION.matcher(n.textValue().strip());
        if (!m.matches()) throw error(field, "'" + n.textValue() + "' is not a duration (as 500ms, 2s, 1m, 1h)");
        long v = parseDigits(m.group(1), field);
        Duration d;
        try {
            d = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms" -> Duration.ofMillis(v);
                case "s" -> Duration.ofSeconds(v);
                case "m", "min" -> Duration.ofMinutes(v);
                default -> Duration.ofHours(v);
            };
        } catch (ArithmeticException e) {
            throw error(field, "'" + n.textValue() + "' is too long");
        }
        if (d.isZero()) throw error(field, "must be longer than zero");
        if (d.compareTo(Duration.ofDays(1)) > 0) throw error(field, "'" + n.textValue() + "' is longer than a day");
        return d;
    }

    private AuditRule audit(JsonNode n) {
        List<String> kept = words(n, "audit", "what the log keeps (arguments, results, output)");
        for (int i = 0; i < kept.size(); i++) {
            if (!AUDIT_ITEMS.contains(kept.get(i))) {
                throw error("audit[" + i + "]", "'" + kept.get(i) + "' is not one of: arguments, results, output");
            }
        }
        return new AuditRule(kept.contains("arguments"), kept.contains("results"), kept.contains("output"));
    }

}
