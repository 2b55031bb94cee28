package dev.luavm.stdlib.math;

import static dev.luavm.stdlib.libs.FakeSandbox.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.luavm.stdlib.libs.FakeSandbox;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Expected results were printed by lua5.3 (5.3.6): {@code i:} an integer, {@code f:} a float as
 * {@code %.17g} (so bits must match, not just the 14 digits {@code tostring} shows).
 */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class MathLibraryTest {
    private final FakeSandbox box = new FakeSandbox().install(new MathLibrary());

    private static String rep(Object v) {
        if (v instanceof Long l) return "i:" + l;
        if (v instanceof Double d) return "f:" + LuaNumbers.formatG(d, 17, false);
        return v == null ? "nil" : String.valueOf(v);
    }

    private void check(String expected, String fn, Object... args) {
        List<String> out = new ArrayList<>();
        for (Object r : box.call(fn, args)) out.add(rep(r));
        assertEquals(expected, String.join(" ", out), fn);
    }

    @Test
    void valuesAndSubtypesMatchLua53() {
        check("i:3", "math.abs", -3L);
        check("i:-9223372036854775808", "math.abs", Long.MIN_VALUE);
        check("f:3.5", "math.abs", -0x1.cp+1);
        check("f:3", "math.abs", s("-3"));
        check("f:0", "math.abs", -0x0p+0);
        check("i:3", "math.floor", 0x1.cp+1);
        check("i:-4", "math.floor", -0x1.cp+1);
        check("i:3", "math.floor", s("3.5"));
        check("i:3", "math.floor", s("3"));
        check("f:1.1805916207174113e+21", "math.floor", 0x1p+70);
        check("i:-9223372036854775808", "math.floor", -0x1p+63);
        check("i:7", "math.floor", 7L);
        check("i:0", "math.floor", -0x0p+0);
        check("f:inf", "math.floor", Double.POSITIVE_INFINITY);
        check("i:4", "math.ceil", 0x1.999999999999ap+1);
        check("i:0", "math.ceil", -0x1p-1);
        check("f:9.2233720368547758e+18", "math.ceil", 0x1p+63);
        check("i:3", "math.ceil", 3L);
        check("i:-2", "math.ceil", s("-2.5"));
        check("i:1", "math.fmod", 7L, 3L);
        check("i:-1", "math.fmod", -7L, 3L);
        check("i:1", "math.fmod", 7L, -3L);
        check("i:0", "math.fmod", Long.MIN_VALUE, -1L);
        check("i:0", "math.fmod", 5L, -1L);
        check("f:1.5", "math.fmod", 0x1.ep+2, 2L);
        check("f:-2", "math.fmod", -0x1.8p+2, 4L);
        check("f:3", "math.fmod", 3L, Double.POSITIVE_INFINITY);
        check("f:-nan", "math.fmod", Double.POSITIVE_INFINITY, 1L);
        check("f:-nan", "math.fmod", 1L, 0x0p+0);
        check("f:1", "math.fmod", s("7"), s("3"));
        check("f:-nan", "math.fmod", FloatResults.DEFAULT_NAN, 1L);
        check("i:3 f:0.5", "math.modf", 0x1.cp+1);
        check("i:-3 f:-0.5", "math.modf", -0x1.cp+1);
        check("i:3 f:0", "math.modf", 3L);
        check("f:inf f:0", "math.modf", Double.POSITIVE_INFINITY);
        check("f:-inf f:0", "math.modf", Double.NEGATIVE_INFINITY);
        check("f:1.1805916207174113e+21 f:0", "math.modf", 0x1p+70);
        check("i:3 f:0", "math.modf", s("3"));
        check("i:0 f:-0.25", "math.modf", -0x1p-2);
        check("i:3", "math.tointeger", 0x1.8p+1);
        check("nil", "math.tointeger", 0x1.cp+1);
        check("i:8", "math.tointeger", s("8"));
        check("nil", "math.tointeger", s("x"));
        check("nil", "math.tointeger", 0x1p+63);
        check("i:16", "math.tointeger", s("0x10"));
        check("i:8", "math.tointeger", s("8.0"));
        check("true", "math.ult", 1L, -1L);
        check("false", "math.ult", -1L, 1L);
        check("true", "math.ult", 1L, 2L);
        check("false", "math.ult", 0x1p+1, 1L);
        check("integer", "math.type", 1L);
        check("float", "math.type", 0x1p+0);
        check("nil", "math.type", s("1"));
        check("nil", "math.type", (Object) null);
        check("f:1.5", "math.min", 3L, 0x1.8p+0, 2L);
        check("i:1", "math.min", 1L);
        check("a", "math.min", s("a"), s("b"));
        check("f:-0", "math.min", -0x0p+0, 0x0p+0);
        check("f:2", "math.max", 1L, 0x1p+1, 2L);
        check("f:0", "math.max", 0x0p+0, -0x0p+0);
        check("i:7", "math.max", 5L, 7L, 6L);
        check("f:1.4142135623730951", "math.sqrt", 2L);
        check("f:-nan", "math.sqrt", -1L);
        check("f:4", "math.sqrt", 16L);
        check("f:2.7182818284590451", "math.exp", 1L);
        check("f:1", "math.exp", 0L);
        check("f:0.8414709848078965", "math.sin", 1L);
        check("f:0.54030230586813977", "math.cos", 1L);
        check("f:1.5574077246549023", "math.tan", 1L);
        check("f:-nan", "math.sin", Double.POSITIVE_INFINITY);
        check("f:0.52359877559829893", "math.asin", 0x1p-1);
        check("f:nan", "math.acos", 2L);
        check("f:1.5707963267948966", "math.acos", 0L);
        check("f:0.78539816339744828", "math.atan", 1L);
        check("f:2.3561944901923448", "math.atan", 1L, -1L);
        check("f:-3.1415926535897931", "math.atan", -0x0p+0, -1L);
        check("f:0.46364760900080609", "math.atan", 1L, 2L);
        check("f:57.295779513082323", "math.deg", 1L);
        check("f:180", "math.deg", 0x1.921fb54442d18p+1);
        check("f:3.1415926535897931", "math.rad", 180L);
        check("f:3", "math.log", 8L, 2L);
        check("f:5", "math.log", 1024L, 4L);
        check("f:3", "math.log", 1000L, 10L);
        check("f:4.6051701859880918", "math.log", 100L);
        check("f:-inf", "math.log", 0L);
        check("f:-nan", "math.log", -1L);
        check("f:-inf", "math.log", 0L, 2L);
        check("f:-nan", "math.log", -1L, 2L);
        check("f:nan", "math.log", -1L, 10L);
        check("f:1.5849625007211561", "math.log", 3L, 2L);
        check("f:-1074", "math.log", 0x0.0000000000001p-1022, 2L);
        check("f:1000", "math.log", 0x1p+1000, 2L);
        check("f:2.0959032742893848", "math.log", 10L, 3L);
        check("f:-nan", "math.log", 2L, -1L);
        check("f:300", "math.log", 0x1.7e43c8800759cp+996, 10L);
    }

    @Test
    void constants() {
        LuaTable math = (LuaTable) box.globals.get(s("math"));
        assertEquals(Math.PI, math.get(s("pi")));
        assertEquals(Double.POSITIVE_INFINITY, math.get(s("huge")));
        assertEquals(Long.MAX_VALUE, math.get(s("maxinteger")));
        assertEquals(Long.MIN_VALUE, math.get(s("mininteger")));
        for (String absent : new String[] {"pow", "cosh", "ldexp", "frexp", "log10"}) {
            assertEquals(null, math.get(s(absent)), absent);
        }
    }

    @Test
    void errors() {
        assertEquals("bad argument #2 to 'math.fmod' (zero)", box.error("math.fmod", 5L, 0L));
        assertEquals("bad argument #2 to 'math.fmod' (number expected, got no value)", box.error("math.fmod", 1L));
        assertEquals("bad argument #2 to 'math.fmod' (number expected, got string)", box.error("math.fmod", 1L, s("x")));
        assertEquals("bad argument #1 to 'math.floor' (number expected, got table)", box.error("math.floor", box.table()));
        assertEquals("bad argument #1 to 'math.floor' (number expected, got no value)", box.error("math.floor"));
        assertEquals("bad argument #1 to 'math.sqrt' (number expected, got no value)", box.error("math.sqrt"));
        assertEquals("bad argument #1 to 'math.exp' (number expected, got string)", box.error("math.exp", s("x")));
        assertEquals("bad argument #1 to 'math.ult' (number has no integer representation)", box.error("math.ult", 1.5, 2L));
        assertEquals("bad argument #1 to 'math.tointeger' (value expected)", box.error("math.tointeger"));
        assertEquals("bad argument #1 to 'math.type' (value expected)", box.error("math.type"));
        assertEquals("bad argument #1 to 'math.min' (value expected)", box.error("math.min"));
        assertEquals("bad argument #1 to 'math.max' (value expected)", box.error("math.max"));
        assertEquals("attempt to compare string with number", box.error("math.min", 1L, s("b")));
        assertEquals("attempt to compare string with number", box.error("math.max", s("10"), 9L));
    }

    @Test
    void randomArgumentChecks() {
        assertEquals("bad argument #1 to 'math.random' (interval is empty)", box.error("math.random", 0L));
        assertEquals("bad argument #1 to 'math.random' (interval is empty)", box.error("math.random", 2L, 1L));
        assertEquals("bad argument #1 to 'math.random' (interval too large)",
                box.error("math.random", Long.MIN_VALUE, Long.MAX_VALUE));
        assertEquals("bad argument #1 to 'math.random' (interval too large)", box.error("math.random", -1L, Long.MAX_VALUE));
        assertEquals("bad argument #1 to 'math.random' (interval too large)", box.error("math.random", Long.MIN_VALUE, 0L));
        assertEquals("wrong number of arguments", box.error("math.random", 1L, 2L, 3L));
        assertEquals("bad argument #1 to 'math.random' (number has no integer representation)",
                box.error("math.random", 1.5));
        assertEquals("bad argument #1 to 'math.random' (number expected, got nil)", box.error("math.random", (Object) null));
        assertEquals("bad argument #1 to 'math.randomseed' (number expected, got no value)", box.error("math.randomseed"));
    }

    @Test
    void randomRanges() {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            Object f = box.call1("math.random");
            assertTrue(f instanceof Double d && d >= 0 && d < 1, String.valueOf(f));
            long r = (Long) box.call1("math.random", 6L);
            assertTrue(r >= 1 && r <= 6);
            seen.add(r);
            long m = (Long) box.call1("math.random", -3L, 3L);
            assertTrue(m >= -3 && m <= 3);
            long big = (Long) box.call1("math.random", 0L, Long.MAX_VALUE);
            assertTrue(big >= 0);
            long neg = (Long) box.call1("math.random", Long.MIN_VALUE, -1L);
            assertTrue(neg < 0);
        }
        assertEquals(6, seen.size());
        assertEquals(3L, box.call1("math.random", 3L, 3L));
        assertEquals(Long.MAX_VALUE, box.call1("math.random", Long.MAX_VALUE, Long.MAX_VALUE));
        assertEquals(1L, box.call1("math.random", s("1")));
    }

    private List<Object> draws(FakeSandbox b, int n) {
        List<Object> r = new ArrayList<>();
        for (int i = 0; i < n; i++) r.add(b.call1("math.random", 1000000L));
        return r;
    }

    @Test
    void randomseedIsDeterministicAndTruncates() {
        box.call("math.randomseed", 42L);
        List<Object> a = draws(box, 10);
        box.call("math.randomseed", 42.9);
        assertEquals(a, draws(box, 10));
        box.call("math.randomseed", s("42"));
        assertEquals(a, draws(box, 10));
        box.call("math.randomseed", 43L);
        assertNotEquals(a, draws(box, 10));
    }

    @Test
    void generatorIsPerSandboxAndSeededByHost() {
        FakeSandbox other = new FakeSandbox();
        other.install(new MathLibrary()); // same host seed (42)
        FakeSandbox third = new FakeSandbox();
        third.host.seed = 7;
        third.install(new MathLibrary());
        List<Object> first = draws(box, 20);
        assertEquals(first, draws(other, 20), "same host seed, same sequence");
        assertNotEquals(first, draws(third, 20));
        // reseeding one sandbox does not disturb the other
        box.call("math.randomseed", 1L);
        FakeSandbox fresh = new FakeSandbox().install(new MathLibrary());
        draws(fresh, 20);
        assertEquals(draws(fresh, 5), draws(other, 5));
    }

    @Test
    void log2IsExactForPowersOfTwo() {
        for (int e = -1074; e <= 1023; e++) {
            assertEquals((double) e, MathFunctions.log2(Math.scalb(1.0, e)), "2^" + e);
        }
    }

    @Test
    void minMaxChargeGasPerArgument() {
        box.gasUsed = 0;
        box.call("math.max", 1L, 2L, 3L, 4L);
        assertEquals(4, box.gasUsed);
    }

    @Test
    void namesOfLibraryFunctions() {
        LuaTable math = (LuaTable) box.globals.get(s("math"));
        Object[] kv = new Object[2];
        Object k = null;
        List<String> names = new ArrayList<>();
        while (math.next(k, kv)) {
            names.add(((LuaString) kv[0]).toString());
            k = kv[0];
        }
        names.sort(null);
        assertEquals(List.of("abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log",
                "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt",
                "tan", "tointeger", "type", "ult"), names);
    }
}
