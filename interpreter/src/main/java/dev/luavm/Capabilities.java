package dev.luavm;

import dev.luavm.host.ArgConstraint;
import dev.luavm.host.HostFunction;
import dev.luavm.host.Param;
import dev.luavm.host.Redactor;
import dev.luavm.host.Safety;

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
 * A host function is best <em>declared</em> ({@link Builder#declare}): its parameters (name, Lua
 * type, description, {@link ArgConstraint constraints} checked before it runs), what it returns,
 * its {@link Safety} class ({@code SAFE} always runs, {@code UNSAFE} goes through the policy,
 * {@code FORBIDDEN} never runs), its effects ({@code network}, {@code filesystem},
 * {@code writes:<thing>}, free-form) and a {@link Redactor} for the audit log. The short form
 * {@link Builder#grant(String, String, HostFunction)} is an {@code UNSAFE} grant with nothing
 * declared: it runs when the policy allows it (the default policy allows everything), as before
 * declarations existed.
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

    /**
     * A host function granted under {@code path}, as declared: description, safety class,
     * parameters, results, effects and the audit log's redactor. {@code function} is null only
     * for a {@link Safety#FORBIDDEN} grant declared without one.
     */
    public record Grant(String path, String description, HostFunction function, Safety safety, List<Param> params,
                        List<Param> returns, List<String> effects, Redactor redactor) {
        public Grant {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(safety, "safety");
            if (function == null && safety != Safety.FORBIDDEN) throw new NullPointerException("host function");
            params = List.copyOf(params);
            returns = List.copyOf(returns);
            effects = List.copyOf(effects);
            redactor = redactor == null ? Redactor.none() : redactor;
        }

        /** A plain grant: {@code UNSAFE}, nothing declared (what {@link Builder#grant(String, String, HostFunction)} makes). */
        public Grant(String path, String description, HostFunction function) {
            this(path, description, function, Safety.UNSAFE, List.of(), List.of(), List.of(), null);
        }

        /** True when the grant declares nothing beyond a plain grant. */
        boolean plain() {
            return safety == Safety.UNSAFE && params.isEmpty() && returns.isEmpty() && effects.isEmpty();
        }

        /**
         * One line for listings: {@code "payments.refund(invoice: string, amount: integer 1..1000)
         * -> string [UNSAFE; network, writes:payments] - Refund an invoice"}; a plain grant is
         * {@code "path - description"}.
         */
        public String describe() {
            if (plain()) return path + " - " + description;
            StringBuilder sb = new StringBuilder(path).append('(');
            for (int i = 0; i < params.size(); i++) {
                Param p = params.get(i);
                if (i > 0) sb.append(", ");
                sb.append(p.name()).append(": ").append(p.type());
                for (ArgConstraint c : p.constraints()) sb.append(' ').append(c.describe());
            }
            sb.append(')');
            if (!returns.isEmpty()) {
                List<String> r = new ArrayList<>();
                for (Param p : returns) r.add(p.type());
                sb.append(" -> ").append(String.join(", ", r));
            }
            sb.append(" [").append(safety);
            if (!effects.isEmpty()) sb.append("; ").append(String.join(", ", effects));
            return sb.append("] - ").append(description).toString();
        }
    }

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
        for (Grant g : grants.values()) out.add(g.describe());
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
            return add(new Grant(path, description, fn));
        }

        /**
         * Starts declaring a host function under {@code path} (see {@link Declaration}); it is
         * granted by {@link Declaration#grant(HostFunction)}. The safety class defaults to
         * {@link Safety#UNSAFE}.
         */
        public Declaration declare(String path, String description) {
            checkPath(path);
            checkLine(description, "description");
            return new Declaration(this, path, description);
        }

        /** Grants {@code g} as declared (a copy of another sandbox's grant, a replay's stand-in). */
        public Builder grant(Grant g) {
            return add(Objects.requireNonNull(g, "grant"));
        }

        private Builder add(Grant g) {
            String path = g.path();
            checkPath(path);
            checkLine(g.description(), "description");
            if (grants.containsKey(path)) throw new IllegalArgumentException("already granted: " + path);
            for (String other : grants.keySet()) {
                if (other.startsWith(path + ".") || path.startsWith(other + ".")) {
                    throw new IllegalArgumentException("'" + path + "' and '" + other + "' overlap");
                }
            }
            grants.put(path, g);
            return this;
        }

        private static void checkLine(String text, String what) {
            Objects.requireNonNull(text, what);
            if (text.indexOf('\n') >= 0) throw new IllegalArgumentException(what + " must be one line");
        }

        public Capabilities build() {
            return new Capabilities(new LinkedHashSet<>(bundles), new LinkedHashMap<>(grants));
        }

        /**
         * One host function being declared, from {@link Builder#declare}; {@link #grant} adds it
         * and returns to the capabilities builder:
         * <pre>{@code
         * caps.declare("payments.refund", "Refund part of an invoice").unsafe()
         *     .param("invoice", "string", "invoice id", ArgConstraint.pattern("^INV%-%d+$"))
         *     .param("amount", "integer", "amount in cents", ArgConstraint.range(1, 1000))
         *     .returns("string", "the refund id")
         *     .effects("network", "writes:payments")
         *     .grant(call -> payments.refund(call.stringArg(0), call.longArg(1)))
         * }</pre>
         */
        public static final class Declaration {
            private final Builder owner;
            private final String path;
            private final String description;
            private Safety safety = Safety.UNSAFE;
            private final List<Param> params = new ArrayList<>();
            private final List<Param> returns = new ArrayList<>();
            private final List<String> effects = new ArrayList<>();
            private Redactor redactor;

            private Declaration(Builder owner, String path, String description) {
                this.owner = owner;
                this.path = path;
                this.description = description;
            }

            public Declaration safety(Safety s) {
                this.safety = Objects.requireNonNull(s, "safety");
                return this;
            }

            /** Always runs (the policy is not consulted). */
            public Declaration safe() {
                return safety(Safety.SAFE);
            }

            /** Runs when the policy allows it (the default). */
            public Declaration unsafe() {
                return safety(Safety.UNSAFE);
            }

            /** Never runs; refused before any policy. */
            public Declaration forbidden() {
                return safety(Safety.FORBIDDEN);
            }

            /**
             * The next parameter, in call order: its name, Lua type ({@link Param}: {@code "integer"},
             * {@code "string?"}...), a description and constraints checked before the call.
             */
            public Declaration param(String name, String type, String description, ArgConstraint... constraints) {
                checkLine(description == null ? "" : description, "parameter description");
                for (Param p : params) {
                    if (p.name().equals(name)) throw new IllegalArgumentException("parameter declared twice: " + name);
                }
                params.add(new Param(name, type, description, List.of(constraints)));
                return this;
            }

            /** The next result: its Lua type and a description (for listings; not checked). */
            public Declaration returns(String type, String description) {
                returns.add(new Param("return#" + (returns.size() + 1), type, description, List.of()));
                return this;
            }

            /** Effect tags: {@code network}, {@code filesystem}, {@code writes:<thing>}, or free-form. */
            public Declaration effects(String... tags) {
                for (String t : tags) {
                    Objects.requireNonNull(t, "effect");
                    if (t.isBlank() || t.chars().anyMatch(Character::isWhitespace)) {
                        throw new IllegalArgumentException("an effect tag is one word: '" + t + "'");
                    }
                    if (!effects.contains(t)) effects.add(t);
                }
                return this;
            }

            /** How arguments and results are rewritten before they reach the audit log (secrets). */
            public Declaration redact(Redactor r) {
                this.redactor = Objects.requireNonNull(r, "redactor");
                return this;
            }

            /** Grants the function so declared; {@code fn} may be null only for a FORBIDDEN one. */
            public Builder grant(HostFunction fn) {
                return owner.add(new Grant(path, description, fn, safety, params, returns, effects, redactor));
            }

            /** Grants a {@link Safety#FORBIDDEN} function with no implementation: its name exists, its calls are refused and logged. */
            public Builder forbid() {
                safety = Safety.FORBIDDEN;
                return grant(null);
            }
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
