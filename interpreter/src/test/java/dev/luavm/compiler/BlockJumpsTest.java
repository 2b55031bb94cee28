package dev.luavm.compiler;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A block's labels and pending gotos, found by (interned) name, pending gotos kept in PUC's order. */
class BlockJumpsTest {
    private static Compiler.LabelDesc desc(String name, int line) {
        return new Compiler.LabelDesc(name, 0, line, 0);
    }

    @Test
    void labelsAreFoundByName() {
        BlockJumps b = new BlockJumps();
        assertNull(b.label("a"));
        Compiler.LabelDesc a = desc("a", 1);
        b.addLabel(a);
        assertSame(a, b.label("a"));
        assertEquals(1, b.labelCount());
    }

    @Test
    void gotosAreTakenByNameInOrderAndTheRestStayPending() {
        BlockJumps b = new BlockJumps();
        Compiler.LabelDesc x1 = desc("x", 1);
        Compiler.LabelDesc y = desc("y", 2);
        Compiler.LabelDesc x2 = desc("x", 3);
        b.addGoto(x1);
        b.addGoto(y);
        b.addGoto(x2);
        List<Compiler.LabelDesc> xs = b.takeGotos("x");
        assertEquals(List.of(x1, x2), xs);
        xs.forEach(g -> g.closed = true);
        assertSame(y, b.firstPending());
        assertEquals(List.of(), b.takeGotos("x"));
        assertEquals(3, b.gotos().size()); // closed ones stay listed, skipped by callers
    }

    @Test
    void manyNamesStayLinear() {
        BlockJumps b = new BlockJumps();
        int n = 100_000;
        for (int i = 0; i < n; i++) b.addGoto(desc(("l" + i).intern(), i));
        for (int i = 0; i < n; i++) assertEquals(1, b.takeGotos(("l" + i).intern()).size());
    }
}
