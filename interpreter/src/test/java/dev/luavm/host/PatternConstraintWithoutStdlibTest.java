package dev.luavm.host;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The interpreter module's tests run without the stdlib module, so no Lua pattern matcher is on
 * the class path: a pattern constraint must fail when the grant is declared, never be skipped.
 */
class PatternConstraintWithoutStdlibTest {
    @Test
    void aPatternConstraintFailsAtGrantTime() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ArgConstraint.pattern("^%d+$"));
        assertEquals("pattern constraint '^%d+$' needs a Lua pattern matcher (dev.luavm.lib.LuaPatterns), provided by "
                + "the luavm-stdlib module, which is not on the class path", e.getMessage());
        // the other constraints need nothing
        assertNotNull(ArgConstraint.range(1, 10));
        assertEquals("1..10", ArgConstraint.range(1, 10).describe());
        assertEquals("<= 1000", ArgConstraint.atMost(1000).describe());
        assertEquals("amount 5000 exceeds 1000", ArgConstraint.atMost(1000).check("amount", 5000L, null));
        assertEquals("x 1.5 exceeds 1", ArgConstraint.range(0, 1).check("x", 1.5, null));
        assertEquals(null, ArgConstraint.range(0, 1).check("x", 1.0, null));
        assertEquals("x 9.2233720368548e+18 exceeds 9223372036854775807",
                ArgConstraint.atMost(Long.MAX_VALUE).check("x", 0x1p63, null));
        assertEquals(null, ArgConstraint.oneOf(1L, "a").check("x", 1.0, null));
    }
}
