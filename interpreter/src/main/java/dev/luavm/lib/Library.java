package dev.luavm.lib;

/**
 * A capability bundle: a set of Lua functions a host may grant to a sandbox ("string",
 * "table", "math"...). The interpreter defines this interface; the stdlib module implements it,
 * so the module graph stays acyclic.
 */
public interface Library {
    /** The bundle's name as used in capability lists ("base", "string", ...). */
    String name();

    /** Installs the bundle's functions into a fresh sandbox. */
    void install(InstallContext ctx);

    /**
     * True for a bundle that must see the others when it installs (as {@code package} lists
     * them in {@code package.loaded}): a sandbox installs such bundles after all the rest,
     * whatever order the capabilities name them in.
     */
    default boolean installsLast() {
        return false;
    }

    /**
     * Builtins of this bundle that a script can hold but that no table of a freshly installed
     * sandbox holds (an iterator a function returns, as {@code ipairs}' is). A snapshot names
     * shared builtins by their qualified name and a restore finds them in the new sandbox's
     * tables; these are found here.
     */
    default java.util.List<dev.luavm.value.Builtin> internalBuiltins() {
        return java.util.List.of();
    }

    /** How this bundle's {@link Persistent} objects are rebuilt from a snapshot, one per kind. */
    default java.util.List<Unpersister> unpersisters() {
        return java.util.List.of();
    }
}
