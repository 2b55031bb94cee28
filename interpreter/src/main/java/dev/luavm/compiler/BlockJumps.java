package dev.luavm.compiler;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * The labels and pending gotos of one block (PUC keeps them in two arrays shared by all open
 * blocks, and searches them linearly from the block's first entry: a block of thousands of
 * labels and gotos then costs their product). Here both are found by name in O(1): names are
 * interned by the lexer, so the maps are identity maps, which no source text can make collide.
 * Pending gotos also stay in one list in the order PUC would scan them, because which goto an
 * error names depends on that order; a goto closed by a label is marked and skipped there.
 * The maps are made on first use: most blocks have neither labels nor gotos.
 */
final class BlockJumps {
    private IdentityHashMap<String, Compiler.LabelDesc> labels;
    private ArrayList<Compiler.LabelDesc> gotos;
    private IdentityHashMap<String, List<Compiler.LabelDesc>> gotosByName;

    /** This block's label {@code name}, or null. */
    Compiler.LabelDesc label(String name) {
        return labels == null ? null : labels.get(name);
    }

    void addLabel(Compiler.LabelDesc lb) {
        if (labels == null) labels = new IdentityHashMap<>();
        labels.put(lb.name, lb);
    }

    int labelCount() {
        return labels == null ? 0 : labels.size();
    }

    /** Appends a pending goto. */
    void addGoto(Compiler.LabelDesc gt) {
        if (gotos == null) {
            gotos = new ArrayList<>();
            gotosByName = new IdentityHashMap<>();
        }
        gotos.add(gt);
        gotosByName.computeIfAbsent(gt.name, n -> new ArrayList<>(2)).add(gt);
    }

    /** Every goto made pending here, in order, closed ones included (callers skip them). */
    List<Compiler.LabelDesc> gotos() {
        return gotos == null ? List.of() : gotos;
    }

    /** The first goto still pending, or null. */
    Compiler.LabelDesc firstPending() {
        if (gotos != null) {
            for (Compiler.LabelDesc gt : gotos) {
                if (!gt.closed) return gt;
            }
        }
        return null;
    }

    /** Takes the pending gotos to {@code name}, in order; the caller closes them. */
    List<Compiler.LabelDesc> takeGotos(String name) {
        List<Compiler.LabelDesc> l = gotosByName == null ? null : gotosByName.remove(name);
        return l == null ? List.of() : l;
    }
}
