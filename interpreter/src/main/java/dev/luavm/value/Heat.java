package dev.luavm.value;

import dev.luavm.bytecode.Prototype;

/**
 * Compiled tier: one prototype's heat in one sandbox, shared by every closure of that prototype
 * the sandbox makes (see {@code dev.luavm.vm.Tiering}), so closures made in a loop heat up
 * together and a closure made after its prototype was compiled runs compiled from its first call.
 *
 * <p>The cells form a tree mirroring the prototype tree: a main chunk's cell comes from its
 * sandbox ({@code LuaState} keeps one per main prototype), a nested prototype's from its parent's
 * cell ({@link #child}). Nothing here is visible to a script; its size is bounded by the number
 * of prototypes the sandbox loaded (one small object each).
 *
 * <p>The cell also carries the closures' provenance, {@link #module}: a main chunk that
 * {@code require} compiled from a source the host vouches for gets a cell of its own naming the
 * module ({@link #ofModule}), and every cell below it inherits the name, so each function the
 * module's code makes belongs to the module. A chunk compiled by {@code load} gets an ordinary
 * cell, whatever its chunk name, and so does all it makes.
 */
public final class Heat {
    /**
     * The module whose trusted source this prototype was compiled from, or null: what a host
     * function granted to one module checks (see {@code Capabilities.Builder#grantToModule}).
     */
    public final String module;
    /** entries into frames of this prototype's closures (and weighted loop safepoints), counted to a threshold */
    public int count;
    /** this prototype's compiled code once looked up (a {@code TierSupport}), or its refusal */
    public Object jit;
    /**
     * times a frameless run of this prototype had to build its frame and hand over to the
     * dispatch loop (saturating); past a small bound callers stop trying its frameless entry
     * in this sandbox (see {@code TierSupport}'s "Frameless calls")
     */
    public int bails;
    /** cells of the nested prototypes, indexed like {@link Prototype#protos}; lazily allocated */
    private Heat[] children;

    /** A cell belonging to no module. */
    public Heat() {
        this(null);
    }

    private Heat(String module) {
        this.module = module;
    }

    /** A root cell for the main chunk of {@code module}, never shared with another binding of the prototype. */
    public static Heat ofModule(String module) {
        return new Heat(java.util.Objects.requireNonNull(module, "module"));
    }

    /** The cell of {@code parent.protos[idx]} under this one (the parent's cell); it belongs to this cell's module. */
    public Heat child(Prototype parent, int idx) {
        Heat[] cs = children;
        if (cs == null) children = cs = new Heat[parent.protos.length];
        Heat h = cs[idx];
        if (h == null) cs[idx] = h = new Heat(module);
        return h;
    }
}
