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
 *       {@code utf8}, {@code os} (clock, time, date, difftime only; no execute, getenv or
 *       files), {@code package} ({@code require} from {@code package.preload}, the host's module
 *       directories, read-only, and the host's resolver), {@code io} (the sandbox's own output and
 *       the host-given input; files only with a granted file system, {@link Builder#filesystem}), {@code os.exit} (ends the run, never the JVM),
 *       {@code debug} (a harmless subset: traceback), {@code docs} (the table {@code docs}
 *       describing these grants, see {@link dev.luavm.docs.HostDocs}). No host files outside a granted file system's mounts, no
 *       reflection, no binary chunks.</li>
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
 * declarations existed. {@link Builder#module(Object)} declares and grants every method of an
 * annotated Java class at once ({@link dev.luavm.binding}). {@link Builder#grantToModule} grants
 * a function to the code of one Lua module only (a reviewed module may write the ledger, the
 * script that requires it may not).
 * {@link #none()} is the bare language (not even {@code print}); {@link #standard()} is
 * base, string, table, math, utf8, coroutine and os.
 */
public final class Capabilities {
    /** The bundles of {@link #standard()}, in installation order. */
    public static final List<String> STANDARD_BUNDLES =
            List.of("base", "coroutine", "string", "table", "math", "utf8", "os");

    /** Compiled on first use (a granted path checked), not at start-up: regex classes and lambdas cost ~2 ms. */
    private static final class Names {
        static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    }
    private static final Set<String> KEYWORDS = Set.of("and", "break", "do", "else", "elseif", "end", "false",
            "for", "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
            "true", "until", "while");
    private static final Capabilities NONE = new Capabilities(new LinkedHashSet<>(), new LinkedHashMap<>(), null);
    // not through build(): its check would look for the bundles while this class initialises
    private static final Capabilities STANDARD = new Capabilities(new LinkedHashSet<>(STANDARD_BUNDLES), new LinkedHashMap<>(), null);

    /**
     * A host function granted under {@code path}, as declared: description, safety class,
     * parameters, results, effects, the audit log's redactor and an example of a call (Lua
     * source, for {@code docs}; null when none). {@code function} is null only for a
     * {@link Safety#FORBIDDEN} grant declared without one. {@code module} is the one module whose
     * code may call it ({@link Builder#grantToModule}), or null for any code;
     * {@code onSandboxThread} runs it on the sandbox's thread instead of a host-call thread
     * ({@link Builder.Declaration#onSandboxThread()}). The host-call layer sees it as a
     * {@link dev.luavm.host.HostGrant}, which it implements ({@link #describe()} is that
     * interface's listing line).
     */
    public record Grant(String path, String description, HostFunction function, Safety safety, List<Param> params,
                        List<Param> returns, List<String> effects, Redactor redactor, String example, String module,
                        boolean onSandboxThread) implements dev.luavm.host.HostGrant {
        /** Checks the parts and copies the lists. */
        public Grant {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(safety, "safety");
            if (function == null && safety != Safety.FORBIDDEN) throw new NullPointerException("host function");
            if (module != null) checkModule(module);
            params = List.copyOf(params);
            returns = List.copyOf(returns);
            effects = List.copyOf(effects);
            redactor = redactor == null ? Redactor.none() : redactor;
        }

        /** A grant any code may call, run on a host-call thread. */
        public Grant(String path, String description, HostFunction function, Safety safety, List<Param> params,
                     List<Param> returns, List<String> effects, Redactor redactor, String example) {
            this(path, description, function, safety, params, returns, effects, redactor, example, null, false);
        }

        /** A grant with no example. */
        public Grant(String path, String description, HostFunction function, Safety safety, List<Param> params,
                     List<Param> returns, List<String> effects, Redactor redactor) {
            this(path, description, function, safety, params, returns, effects, redactor, null);
        }

        /** A plain grant: {@code UNSAFE}, nothing declared (what {@link Builder#grant(String, String, HostFunction)} makes). */
        public Grant(String path, String description, HostFunction function) {
            this(path, description, function, Safety.UNSAFE, List.of(), List.of(), List.of(), null);
        }

        /** This grant with another function (a replay's stand-in): everything else, the module included, is kept. */
        public Grant withFunction(HostFunction fn) {
            return new Grant(path, description, fn, safety, params, returns, effects, redactor, example, module,
                    onSandboxThread);
        }
    }

    private final Set<String> bundles;
    private final Map<String, Grant> grants;
    private final dev.luavm.vfs.Vfs filesystem;

    private Capabilities(LinkedHashSet<String> bundles, LinkedHashMap<String, Grant> grants, dev.luavm.vfs.Vfs filesystem) {
        this.bundles = Collections.unmodifiableSet(bundles);
        this.grants = Collections.unmodifiableMap(grants);
        this.filesystem = filesystem;
    }

    static void checkModule(String module) {
        if (!dev.luavm.host.ModuleIdentity.isName(module)) {
            throw new IllegalArgumentException("not a module name (dotted words of letters, digits, '_', '-'): '" + module + "'");
        }
    }

    /** The bare language: no library at all, not even print. */
    public static Capabilities none() {
        return NONE;
    }

    /** base, coroutine, string, table, math, utf8 and the safe os subset. */
    public static Capabilities standard() {
        return STANDARD;
    }

    /** A builder starting from nothing granted. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these capabilities. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.bundles.addAll(bundles);
        b.grants.putAll(grants);
        b.filesystem = filesystem;
        return b;
    }

    /** Granted bundle names, in installation order. */
    public Set<String> bundles() {
        return bundles;
    }

    /**
     * The file system granted ({@link Builder#filesystem}), or null: then {@code io.open},
     * {@code os.remove} and the other names that reach files are absent.
     */
    public dev.luavm.vfs.Vfs filesystem() {
        return filesystem;
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
        if (filesystem != null) for (String line : filesystem.grantLines()) out.add("filesystem " + line);
        return out;
    }

    @Override
    public String toString() {
        return "Capabilities" + describe();
    }

    /** Collects bundles and host functions. Not thread-safe; {@link #build()} makes an immutable copy. */
    public static final class Builder {
        private final LinkedHashSet<String> bundles = new LinkedHashSet<>();
        /** the names build() accepts; null: the bundles on the class path */
        private Set<String> available;
        private final LinkedHashMap<String, Grant> grants = new LinkedHashMap<>();
        private dev.luavm.vfs.Vfs filesystem;

        private Builder() {}

        /**
         * Grants a file system: with the {@code io} bundle, {@code io.open} and file names in
         * {@code io.lines}, {@code io.input}, {@code io.output}; with {@code os}, {@code os.remove},
         * {@code os.rename} and {@code os.tmpname}; with {@code package}, {@code require} reads
         * the {@code package.path} entries under its mount points from it. Writes, removes and
         * renames are {@code writes:fs} events of the gateway ({@code fs.write}, {@code fs.remove},
         * {@code fs.rename}). Null grants none (the default).
         */
        public Builder filesystem(dev.luavm.vfs.Vfs vfs) {
            this.filesystem = vfs;
            return this;
        }

        /**
         * Adds bundles by name; {@code "standard"} adds the standard set and {@code "none"}
         * nothing. {@link #build()} checks the names ({@link #availableBundles}).
         */
        public Builder bundle(String... names) {
            return bundles(List.of(names));
        }

        /** Grants the bundles named, in order (see {@link LuaVM#availableBundles()}). */
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
         * Grants {@code fn} under {@code name} (a global name or dotted path, as
         * {@link #grant(String, String, HostFunction)}) to the code of one module only. The name
         * is visible to all code, but a call runs only while the nearest Lua function on the
         * stack belongs to {@code module}: compiled from the source {@code require} loaded for
         * it from a source the host vouches for (the sandbox's module directories, its module
         * resolver), including every function that code makes. Any other caller, code compiled by
         * {@code load} (whatever its chunk name) included, gets the Lua error
         * {@code permission denied: NAME (granted to module 'MODULE')} and the refusal is
         * audited; so does a call that is not made by code but on an event (the function set as
         * a metamethod, a message handler or a finalizer). docs/API.md, "Grants bound to a
         * module", says what this protects and what it does not.
         *
         * @param module a module name as {@code require} takes it ({@code "billing"}, {@code "acme.ledger"})
         */
        public Builder grantToModule(String module, String name, String description, HostFunction fn) {
            Objects.requireNonNull(fn, "host function");
            checkModule(Objects.requireNonNull(module, "module"));
            return add(new Grant(name, description, fn, Safety.UNSAFE, List.of(), List.of(), List.of(), null, null,
                    module, false));
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

        /**
         * Grants every {@link dev.luavm.binding.LuaFunction} method of {@code instance}, whose
         * class is annotated {@link dev.luavm.binding.LuaModule}, with the types, descriptions
         * and safety classes it declares ({@link dev.luavm.binding.ModuleBinder}).
         */
        public Builder module(Object instance) {
            return module(instance, java.lang.invoke.MethodHandles.lookup());
        }

        /** {@link #module(Object)}, reaching the class and its records through {@code lookup} (from a named module). */
        public Builder module(Object instance, java.lang.invoke.MethodHandles.Lookup lookup) {
            // the binder reads the class; the declarations are checked here as any other
            for (dev.luavm.host.HostGrant f : dev.luavm.binding.ModuleBinder.functions(instance, lookup)) {
                Declaration d = declare(f.path(), f.description()).safety(f.safety());
                for (Param p : f.params()) d.param(p.name(), p.type(), p.description(), p.constraints().toArray(ArgConstraint[]::new));
                for (Param r : f.returns()) d.returns(r.type(), r.description());
                d.effects(f.effects().toArray(String[]::new));
                if (f.example() != null) d.example(f.example());
                d.redact(f.redactor()).grant(f.function());
            }
            return this;
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

        /**
         * The bundle names {@link #build()} accepts, for a runtime whose bundles are not those on
         * the class path ({@code LuaVM.Builder.libraries}): pass its
         * {@link LuaVM#availableBundles()}. By default, the bundles {@link java.util.ServiceLoader}
         * finds on the class path, as {@link LuaVM#create()} does.
         */
        public Builder availableBundles(java.util.Collection<String> names) {
            this.available = Set.copyOf(names);
            return this;
        }

        /**
         * The capabilities granted so far (the builder may go on).
         *
         * @throws IllegalArgumentException for a bundle name no available bundle has (a typo
         *         fails here, not when a sandbox is made), naming the available ones
         */
        public Capabilities build() {
            Set<String> known = available != null ? available : classPathBundles();
            for (String b : bundles) {
                if (!known.contains(b)) {
                    throw new IllegalArgumentException("unknown capability bundle '" + b + "' (available: "
                            + String.join(", ", new java.util.TreeSet<>(known)) + ")");
                }
            }
            return new Capabilities(new LinkedHashSet<>(bundles), new LinkedHashMap<>(grants), filesystem);
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
            private String example;
            private String module;
            private boolean onSandboxThread;

            private Declaration(Builder owner, String path, String description) {
                this.owner = owner;
                this.path = path;
                this.description = description;
            }

            /** The grant's safety class (default {@link Safety#UNSAFE}). */
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

            /**
             * An example of a call, as Lua source (may span lines), shown by {@code docs} and
             * {@code HostDocs}: {@code "local v = invoice.lookup_vendor('V-1')\nprint(v.name)"}.
             */
            public Declaration example(String luaSource) {
                Objects.requireNonNull(luaSource, "example");
                this.example = luaSource.strip().isEmpty() ? null : luaSource.strip();
                return this;
            }

            /**
             * Only the code of {@code module} may call the function (see
             * {@link Builder#grantToModule}); default: any code.
             */
            public Declaration module(String module) {
                checkModule(Objects.requireNonNull(module, "module"));
                this.module = module;
                return this;
            }

            /**
             * Runs the function on the sandbox's own thread, the one that called {@code eval},
             * instead of a host-call thread: for a function that needs that thread (its
             * thread-locals: a transaction, a security context) or that is so quick that the
             * hand-over would dominate. The deadline and cancel still interrupt it there, but a
             * function that ignores the interrupt holds the run past its deadline for as long as
             * it runs: the 100 ms bound (docs/API.md, "Host calls at the deadline") does not hold
             * for it.
             */
            public Declaration onSandboxThread() {
                this.onSandboxThread = true;
                return this;
            }

            /** Grants the function so declared; {@code fn} may be null only for a FORBIDDEN one. */
            public Builder grant(HostFunction fn) {
                return owner.add(new Grant(path, description, fn, safety, params, returns, effects, redactor, example,
                        module, onSandboxThread));
            }

            /** Grants a {@link Safety#FORBIDDEN} function with no implementation: its name exists, its calls are refused and logged. */
            public Builder forbid() {
                safety = Safety.FORBIDDEN;
                return grant(null);
            }
        }

        private static void checkModule(String module) {
            Capabilities.checkModule(module);
        }

        private static void checkPath(String path) {
            Objects.requireNonNull(path, "path");
            for (String part : path.split("\\.", -1)) {
                if (!Names.NAME.matcher(part).matches() || KEYWORDS.contains(part)) {
                    throw new IllegalArgumentException("not a Lua name or dotted path of names: '" + path + "'");
                }
            }
        }
    }

    /** The names of the bundles on the class path, found when a builder first checks a name, or null. */
    private static volatile Set<String> classPathBundles;

    private static Set<String> classPathBundles() {
        Set<String> names = classPathBundles;
        if (names == null) {
            // Instantiating the providers initialises the library's classes: on a roomy thread
            // (see LuaVM's discovery), whatever the stack of the host thread that asked. Not in
            // a static initialiser: the roomy thread would wait for the class that waits for it.
            // Two threads that race here both find the same names.
            names = dev.luavm.vm.RoomyStack.call("bundles", Capabilities::findClassPathBundles);
            classPathBundles = names;
        }
        return names;
    }

    private static Set<String> findClassPathBundles() {
        Set<String> names = new java.util.HashSet<>();
        for (dev.luavm.lib.Library lib : java.util.ServiceLoader.load(dev.luavm.lib.Library.class,
                Capabilities.class.getClassLoader())) {
            names.add(lib.name());
        }
        return Set.copyOf(names);
    }
}
