package dev.luavm.compiler;

import dev.luavm.value.LuaString;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The constant table's key: kinds kept apart, a total order (so colliding keys cost a tree bin), mixed hashes. */
class ConstantKeyTest {
    @Test
    void kindsAreKeptApart() {
        assertNotEquals(ConstantKey.of(ConstantKey.INTEGER, 1), ConstantKey.of(ConstantKey.INTEGRAL_FLOAT, 1));
        assertNotEquals(ConstantKey.of(ConstantKey.NIL, 0), ConstantKey.of(ConstantKey.FALSE, 0));
        assertNotEquals(ConstantKey.of(LuaString.of("1")), ConstantKey.of(ConstantKey.INTEGER, 1));
        assertEquals(ConstantKey.of(LuaString.of("ab")), ConstantKey.of(LuaString.of("ab")));
        assertEquals(ConstantKey.of(LuaString.of("ab")).hashCode(), ConstantKey.of(LuaString.of("ab")).hashCode());
    }

    @Test
    void theOrderIsTotalAndConsistentWithEquals() {
        ConstantKey[] keys = {
            ConstantKey.of(ConstantKey.NIL, 0), ConstantKey.of(ConstantKey.TRUE, 0),
            ConstantKey.of(ConstantKey.INTEGER, -1), ConstantKey.of(ConstantKey.INTEGER, 1),
            ConstantKey.of(ConstantKey.FLOAT, Double.doubleToLongBits(0.5)),
            ConstantKey.of(LuaString.of("a")), ConstantKey.of(LuaString.of("b")),
        };
        for (ConstantKey a : keys) {
            for (ConstantKey b : keys) {
                assertEquals(a.equals(b), a.compareTo(b) == 0);
                assertEquals(Integer.signum(a.compareTo(b)), -Integer.signum(b.compareTo(a)));
            }
        }
    }

    @Test
    void integersThatSharedALongHashAreSpread() {
        // (k << 32) | k all had Long.hashCode 0: the old key's bin held them all
        Set<Integer> hashes = new HashSet<>();
        for (long k = 0; k < 10_000; k++) hashes.add(ConstantKey.of(ConstantKey.INTEGER, (k << 32) | k).hashCode());
        assertTrue(hashes.size() > 9_900, "distinct hashes: " + hashes.size());
    }

    @Test
    void keysWithOneHashStillFindEachOther() {
        // strings crafted to share LuaString's hash still form a correct map (a tree bin, by order)
        Map<ConstantKey, Integer> map = new HashMap<>();
        String[] blocks = {"Aa", "BB"}; // equal 31-polynomial hashes
        int n = 1 << 12;
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder();
            for (int b = 0; b < 12; b++) sb.append(blocks[(i >> b) & 1]);
            map.put(ConstantKey.of(LuaString.of(sb.toString())), i);
        }
        assertEquals(n, map.size());
        assertEquals(5, map.get(ConstantKey.of(LuaString.of("BBAaBB" + "Aa".repeat(9)))));
    }
}
