package dev.luavm.conformance.difftest;

import java.util.ArrayList;
import java.util.List;

/**
 * One statement of a generated program, as a tree the shrinker can prune: an optional head
 * line ({@code while c < 3 do}), child statements, an optional tail ({@code end}). A
 * {@linkplain #required required} node is never dropped on its own (the prelude, the clauses
 * of an {@code if}); its parent may still be.
 */
final class Node {
    final String head;
    final List<Node> children = new ArrayList<>();
    final String tail;
    final boolean required;

    Node(String head, String tail, boolean required) {
        this.head = head;
        this.tail = tail;
        this.required = required;
    }

    static Node line(String text) {
        return new Node(text, null, false);
    }

    static Node block(String head, String tail) {
        return new Node(head, tail, false);
    }

    Node add(Node child) {
        children.add(child);
        return this;
    }

    /** A deep copy without {@code dropped} (compared by identity). */
    Node without(Node dropped) {
        Node copy = new Node(head, tail, required);
        for (Node c : children) {
            if (c != dropped) copy.children.add(c.without(dropped));
        }
        return copy;
    }

    void render(StringBuilder out, int indent) {
        String pad = "  ".repeat(indent);
        if (head != null) out.append(pad).append(head).append('\n');
        int inner = head != null ? indent + 1 : indent;
        for (Node c : children) c.render(out, inner);
        if (tail != null) out.append(pad).append(tail).append('\n');
    }

    /** Droppable nodes in pre-order (outer statements before the statements inside them). */
    void collectDroppable(List<Node> out) {
        for (Node c : children) {
            if (!c.required) out.add(c);
            c.collectDroppable(out);
        }
    }

    int size() {
        int n = 1;
        for (Node c : children) n += c.size();
        return n;
    }
}
