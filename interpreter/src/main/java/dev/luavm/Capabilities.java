package dev.luavm;

import dev.luavm.host.HostFunction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a sandbox may use: nothing exists unless granted here. Immutable.
 *
 * <p>Two kinds of grant:
 * <ul>
 *   <li><b>Bundles</b> of the standard library, by name: {@code base} (print, pairs, pcall,
 *       load (text only), ...), {@code coroutine}, {@code string}, {@code table}, {@code math},
 *       {@code utf8}, {@code os} (clock, time, date, difftime only; no execute, exit, getenv or
 *       files), {@code package} ({@code require} of modules the host resolves), {@code debug} (a
 *       harmless subset: traceback). There is no io, no reflection, no binary chunks.</li>
 *   <li><b>Host functions</b>, one by one, under a global name ({@code "lookup"}) or a dotted
 *       path ({@code "invoice.lookup_vendor"}, which creates or extends the table
 *       {@code invoice}), each with a one-line description the host can list
 *       ({@link #describe()}). Every call reaches the host through one gateway
 *       ({@link dev.luavm.host.HostGateway}) where a policy may allow or deny it.</li>
 * </ul>
 * {@link #none()} is the bare language (not even {@code print}); {@link #standard()} is
 * base, string, table, math, utf8, coroutine and os.
 */
public final class Capabilities {
    /** The bundles of {@link #standard()}, in installation order. */
    public static final List<String> STANDARD_BUNDLES =
            List.of("base", "coroutine", "string", "table", "math", "utf8", "os");

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> KEYWORDS = Set.of("and", "break", "do", "else", "elseif", "end", "false",
            "for", "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
            "true", "until", "while");
    private static final Capabilities NONE = new Capabilities(new LinkedHashSet<>(), new LinkedHashMap<>());
    private static final Capabilities STANDARD = builder().bundles(STANDARD_BUNDLES).build();

    /** A host function granted under {@code path}, described for listings. */
    public record Grant(String path, String description, HostFunction function) {}

    private final Set<String> bundles;
    private final Map<String, Grant> grants;

    private Capabilities(LinkedHashSet<String> bundles, LinkedHashMap<String, Grant> grants) {
        this.bundles = Collections.unmodifiableSet(bundles);
        this.grants = Collections.unmodifiableMap(grants);
    }

    /** The bare language: no library at all, not even print. */
    public static Capabilities none() {
        return NONE;
    }

    /** base, coroutine, string, table, math, utf8 and the safe os subset. */
    public static Capabilities standard() {
        return STANDARD;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these capabilities. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.bundles.addAll(bundles);
        b.grants.putAll(grants);
        return b;
    }

    /** Granted bundle names, in installation order. */
    public Set<String> bundles() {
        return bundles;
    }

    /** Granted host functions by path, in grant order. */
    public Map<String, Grant> hostFunctions() {
        return grants;
    }

    /**
     * One line per grant, for showing a model or a reviewer what a script may do:
     * {@code "bundle string"}, {@code "invoice.lookup_vendor - Look up a vendor by id"}.
     */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        for (String b : bundles) out.add("bundle " + b);
        for (Grant g : grants.values()) out.add(g.path() + " - " + g.description());
        return out;
    }

    @Override
    public String toString() {
        return "Capabilities" + describe();
    }

    /** Collects bundles and host functions. Not thread-safe; {@link #build()} makes an immutable copy. */
    public static final class Builder {
        private final LinkedHashSet<String> bundles = new LinkedHashSet<>();
        private final LinkedHashMap<String, Grant> grants = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Adds bundles by name; {@code "standard"} adds the standard set and {@code "none"}
         * nothing. Names are checked against the bundles found at sandbox creation.
         */
        public Builder bundle(String... names) {
            return bundles(List.of(names));
        }

        public Builder bundles(Iterable<String> names) {
            for (String n : names) {
                Objects.requireNonNull(n, "bundle name");
                String name = n.trim();
                if (name.equals("standard")) bundles.addAll(STANDARD_BUNDLES);
                else if (!name.equals("none") && !name.isEmpty()) bundles.add(name);
            }
            return this;
        }

        /** Adds the standard bundles. */
        public Builder standard() {
            return bundles(STANDARD_BUNDLES);
        }

        /**
         * Grants {@code fn} to scripts under {@code path}: a global name or a dotted path of
         * Lua names ({@code "invoice.lookup_vendor"}). The description is one line shown by
         * {@link Capabilities#describe()}.
         */
        public Builder grant(String path, String description, HostFunction fn) {
            Objects.requireNonNull(fn, "host function");
            Objects.requireNonNull(description, "description");
            checkPath(path);
            if (description.indexOf('\n') >= 0) throw new IllegalArgumentException("description must be one line");
            if (grants.containsKey(path)) throw new IllegalArgumentException("already granted: " + path);
            for (String other : grants.keySet()) {
                if (other.startsWith(path + ".") || path.startsWith(other + ".")) {
                    throw new IllegalArgumentException("'" + path + "' and '" + other + "' overlap");
                }
            }
            grants.put(path, new Grant(path, description, fn));
            return this;
        }

        public Capabilities build() {
            return new Capabilities(new LinkedHashSet<>(bundles), new LinkedHashMap<>(grants));
        }

        private static void checkPath(String path) {
            Objects.requireNonNull(path, "path");
            for (String part : path.split("\\.", -1)) {
                if (!NAME.matcher(part).matches() || KEYWORDS.contains(part)) {
                    throw new IllegalArgumentException("not a Lua name or dotted path of names: '" + path + "'");
                }
            }
        }
    }
}
