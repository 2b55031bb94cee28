package dev.luavm.vm;

import dev.luavm.bytecode.OpCode;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The dispatch loop's case labels ({@link Ops}) are exactly {@link OpCode}'s numbering. */
class OpsTest {
    @Test
    void everyConstantIsItsOpCodesOrdinal() throws Exception {
        Set<OpCode> named = new HashSet<>();
        for (Field f : Ops.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) continue;
            assertTrue(f.getName().startsWith("OP_") && f.getType() == int.class, "unexpected field " + f);
            assertTrue(Modifier.isFinal(f.getModifiers()), f.getName() + " must be final (a case label)");
            OpCode op;
            try {
                op = OpCode.valueOf(f.getName().substring(3));
            } catch (IllegalArgumentException e) {
                fail(f.getName() + " names no OpCode");
                return;
            }
            f.setAccessible(true);
            assertEquals(op.ordinal(), f.getInt(null), f.getName());
            assertEquals(op, OpCode.of(f.getInt(null)), f.getName());
            named.add(op);
        }
        for (OpCode op : OpCode.values()) assertTrue(named.contains(op), "no Ops.OP_" + op);
    }
}
