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
 */
public final class Heat {
    /** entries into frames of this prototype's closures (and weighted loop safepoints), counted to a threshold */
    public int count;
    /** this prototype's compiled code once looked up (a {@code TierSupport}), or its refusal */
    public Object jit;
    /** cells of the nested prototypes, indexed like {@link Prototype#protos}; lazily allocated */
    private Heat[] children;

    /** The cell of {@code parent.protos[idx]} under this one (the parent's cell). */
    public Heat child(Prototype parent, int idx) {
        Heat[] cs = children;
        if (cs == null) children = cs = new Heat[parent.protos.length];
        Heat h = cs[idx];
        if (h == null) cs[idx] = h = new Heat();
        return h;
    }
}
