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
}
