package dev.luavm.tier;

import dev.luavm.Limits;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.jit.AsmFunctionCompiler;
import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The edges of the fast paths the compiled tier writes inline (jit InlineOps): each script runs
 * interpreted and compiled at first call, and output, error and gas must be identical; the
 * expected output (checked against lua5.3 where 5.3 and luavm agree) pins the semantics too.
 * Operands come through function parameters so the compiler cannot fold them.
 */
class InlineFastPathTest {
    private static CompiledTierTest.Outcome same(String name, String src, Limits limits) {
        CompiledTierTest.Outcome i = CompiledTierTest.run(CompiledTierTest.INTERP, name, src.getBytes(), limits);
        CompiledTierTest.Outcome c = CompiledTierTest.run(CompiledTierTest.COMPILED, name, src.getBytes(), limits);
        assertEquals(i.output(), c.output(), "output");
        assertEquals(i.error(), c.error(), "error");
        assertEquals(i.gas(), c.gas(), "gas");
        return c;
    }

    private static String same(String name, String src) {
        CompiledTierTest.Outcome o = same(name, src, Limits.defaults());
        assertNull(o.error(), o.error());
        return o.output();
    }

    @Test
    void integerArithmeticWrapsAround() {
        String out = same("wrap.lua", """
                local function ops(a, b) return a + b, a - b, a * b, a // b, a % b end
                print(ops(math.maxinteger, 1))
                print(ops(math.mininteger, -1))
                print(ops(math.maxinteger, math.maxinteger))
                print(ops(-7, 2))
                print(ops(7, -3))
                local function un(a) return -a, ~a end
                print(un(math.mininteger))
                print(un(0))
                local function k(a) return a + 1, a - 1, a * 3, a // 4, a % 4, 1 - a end
                print(k(math.maxinteger))
                print(k(-9))
                """);
        assertEquals("""
                -9223372036854775808\t9223372036854775806\t9223372036854775807\t9223372036854775807\t0
                9223372036854775807\t-9223372036854775807\t-9223372036854775808\t-9223372036854775808\t0
                -2\t0\t1\t1\t0
                -5\t-9\t-14\t-4\t1
                4\t10\t-21\t-3\t-2
                -9223372036854775808\t9223372036854775807
                0\t-1
                -9223372036854775808\t9223372036854775806\t9223372036854775805\t2305843009213693951\t3\t-9223372036854775806
                -8\t-10\t-27\t-3\t3\t10
                """, out);
    }

    @Test
    void floatArithmeticDivisionAndNegativeZero() {
        String out = same("float.lua", """
                local function ops(a, b) return a + b, a - b, a * b, a / b end
                print(ops(1.5, 2))
                print(ops(3, 2))
                print(ops(1, 0))
                print(ops(-1, 0.0))
                print(ops(0.0, -0.0))
                local function neg(a) return -a, 1 / -a end
                print(neg(0.0))
                print(neg(-0.0))
                local function fk(a) return a * 2.0, a + 0.5, 2.0 - a, a / 4 end
                print(fk(3))
                print(fk(-0.0))
                local function idiv(a, b) return a // b, a % b end
                print(idiv(7.5, 2))
                print(idiv(-7, 2.0))
                print(idiv(5.5, -2))
                print(idiv(1, 0.0))
                """);
        assertEquals("""
                3.5\t-0.5\t3.0\t0.75
                5\t1\t6\t1.5
                1\t1\t0\tinf
                -1.0\t-1.0\t-0.0\t-inf
                0.0\t0.0\t-0.0\tnan
                -0.0\t-inf
                0.0\tinf
                6.0\t3.5\t-1.0\t0.75
                -0.0\t0.5\t2.0\t-0.0
                3.0\t1.5
                -4.0\t1.0
                -3.0\t-0.5
                inf\tnan
                """, out.replace("-nan", "nan")); // the sign of a NaN's text is the platform's
    }

    @Test
    void integerDivisionByZeroAndBitwiseErrorsAreTheInterpretersErrors() {
        String out = same("zero.lua", """
                local function d(a, b) return a // b end
                local function m(a, b) return a % b end
                local function s(a, b) return a << b, a >> b end
                print(pcall(d, 1, 0))
                print(pcall(m, 1, 0))
                print(s(1, 63))
                print(s(1, 64))
                print(s(-1, -1))
                print(s(5, -70))
                print(pcall(s, 1.5, 1))
                print(pcall(function(a) return a & 1 end, 2.0))
                """);
        assertEquals("""
                false\tzero.lua:1: attempt to divide by zero
                false\tzero.lua:2: attempt to perform 'n%0'
                -9223372036854775808\t0
                0\t0
                9223372036854775807\t-2
                0\t0
                false\tzero.lua:3: number (local 'a') has no integer representation
                true\t0
                """, out);
    }

    @Test
    void mixedPairsInEitherOrderAndNonNumbersLeaveTheTwoTypeFastPaths() {
        // two register operands go through TierSupport's add2 .. idiv2: their integer and float
        // cases, the mixed-pair conversion, then MISS for Meta.arith, each against the interpreter
        String out = same("mixed.lua", """
                local function ops(a, b) return a + b, a - b, a * b, a / b, a // b, a % b end
                print(ops(2, 1.5))
                print(ops(1.5, 2))
                print(ops(0, -0.0))
                print(ops(-7, 2))
                print(ops(7.0, -2.0))
                print(pcall(ops, nil, 1))
                print(pcall(ops, 1, true))
                print(pcall(ops, 1.5, nil))
                """);
        assertEquals("""
                3.5\t0.5\t3.0\t1.3333333333333\t1.0\t0.5
                3.5\t-0.5\t3.0\t0.75\t0.0\t1.5
                0.0\t0.0\t-0.0\tnan\tnan\tnan
                -5\t-9\t-14\t-3.5\t-4\t1
                5.0\t9.0\t-14.0\t-3.5\t-4.0\t-1.0
                false\tmixed.lua:1: attempt to perform arithmetic on a nil value (local 'a')
                false\tmixed.lua:1: attempt to perform arithmetic on a boolean value (local 'b')
                false\tmixed.lua:1: attempt to perform arithmetic on a nil value (local 'b')
                """, out.replace("-nan", "nan")); // as lua5.3, but for the sign of a NaN's text
    }

    @Test
    void comparesWithNanMixedTypesAndHugeValues() {
        String out = same("cmp.lua", """
                local function c(a, b) return a == b, a < b, a <= b, a > b, a >= b, a ~= b end
                local nan = 0/0
                print(c(nan, nan))
                print(c(nan, 1.0))
                print(c(1, nan))
                print(c(math.maxinteger, 2^63))
                print(c(math.maxinteger + 0.0, math.maxinteger))
                print(c(2^53, (1 << 53) + 1))
                print(c(math.mininteger, -2^63))
                print(c(0.0, -0.0))
                print(c(1, 1.0))
                print(c("a", "b"))
                print(c(3, 3))
                local function k(a) return a == 1, a < 1.5, a <= 0, a == nil, nil == a, a ~= nil end
                print(k(1))
                print(k(1.0))
                print(k(nan))
                print(pcall(k, nil))
                print(pcall(c, 1, "1"))
                print(pcall(c, {}, 1))
                """);
        String[] lines = out.split("\n");
        assertEquals("false\tfalse\tfalse\tfalse\tfalse\ttrue", lines[0]);
        assertEquals("false\ttrue\ttrue\tfalse\tfalse\ttrue", lines[3]); // maxinteger < 2^63 exactly
        assertEquals("false\tfalse\tfalse\ttrue\ttrue\ttrue", lines[4]); // 2^63 (float) > maxinteger
        assertEquals("false\ttrue\ttrue\tfalse\tfalse\ttrue", lines[5]);
        assertEquals("true\tfalse\ttrue\tfalse\ttrue\tfalse", lines[6]);
        assertEquals("true\tfalse\ttrue\tfalse\ttrue\tfalse", lines[7]);
        assertEquals("true\tfalse\ttrue\tfalse\ttrue\tfalse", lines[8]);
        assertEquals("false\ttrue\ttrue\tfalse\tfalse\ttrue", lines[9]);
        assertEquals("true\ttrue\tfalse\tfalse\tfalse\ttrue", lines[11]);
        assertEquals("false\tfalse\tfalse\tfalse\tfalse\ttrue", lines[13]);
        assertTrue(lines[14].contains("attempt to compare nil with number"), lines[14]);
        assertTrue(lines[15].contains("attempt to compare number with string"), lines[15]);
        assertTrue(lines[16].contains("attempt to compare table with number"), lines[16]);
    }

    @Test
    void forLoopEdges() {
        String out = same("for.lua", """
                local function run(a, b, c)
                  local n, last = 0, nil
                  for i = a, b, c do n = n + 1; last = i; if n > 20 then break end end
                  return n, last
                end
                print(run(math.maxinteger - 2, math.maxinteger, 1))
                print(run(math.mininteger + 2, math.mininteger, -1))
                print(run(1, 10, math.maxinteger))
                print(run(-1, -10, math.mininteger))
                print(run(1, 3.5, 1))
                print(run(1, 2, 0.25))
                print(run(1.0, 0, -0.25))
                print(run(3, 1, 1))
                print(run(1, math.huge, math.maxinteger // 2))
                print(run(0, -math.huge, -1 << 62))
                print(pcall(run, 1, "x", 1))
                print(pcall(run, "1", 2, 1))
                """);
        String[] lines = out.split("\n");
        assertEquals("3\t9223372036854775807", lines[0]);
        assertEquals("3\t-9223372036854775808", lines[1]);
        assertEquals("1\t1", lines[2]);
        assertEquals("1\t-1", lines[3]);
        assertEquals("3\t3", lines[4]);
        assertEquals("5\t2.0", lines[5]);
        assertEquals("5\t0.0", lines[6]);
        assertEquals("0\tnil", lines[7]);
        assertEquals("3\t9223372036854775807", lines[8]); // the limit clipped to maxinteger
        assertEquals("3\t-9223372036854775808", lines[9]);
        assertTrue(lines[10].startsWith("false\tfor.lua:3: 'for' limit must be a number"), lines[10]);
    }

    @Test
    void tablesWithMetatablesAndOddKeysFallBack() {
        String out = same("meta.lua", """
                local log = {}
                local proxy = setmetatable({}, {
                  __index = function(t, k) log[#log + 1] = "get " .. tostring(k); return k end,
                  __newindex = function(t, k, v) log[#log + 1] = "set " .. tostring(k); rawset(t, k, v) end,
                  __len = function() return 42 end})
                local base = {greet = function(self) return "hi " .. self.name end}
                local obj = setmetatable({name = "o"}, {__index = base})
                local function use(t, o, k)
                  local a = t.x; local b = t[1]; local c = t[k]
                  t.y = 1; t[2] = 2; t.y = 3
                  return a, b, c, #t, o:greet(), o.name, o.missing
                end
                print(use(proxy, obj, 2.0))
                print(table.concat(log, ","))
                local t = {10, 20, 30, x = 1}
                print(use(t, obj, 1.0))
                local function keys(t, k) t[k] = "v"; return t[k], t[1], #t end
                print(keys({}, 1.0), keys({}, 2^53), keys({}, "1"))
                print(pcall(keys, {}, nil))
                print(pcall(keys, {}, 0/0))
                print(pcall(use, nil, obj, 1))
                print(pcall(function(s) return #s, s.len, s:upper() end, "abc"))
                print(pcall(function(n) return #n end, 5))
                print(pcall(function(n) return n.x end, 5))
                """);
        assertTrue(out.contains("get x,get 1,get 2.0,set y,set 2"), out);
        assertTrue(out.contains("meta.lua:9: attempt to index a nil value (local 't')"), out);
        assertTrue(out.contains("table index is nil"), out);
        assertTrue(out.contains("table index is NaN"), out);
        assertTrue(out.contains("attempt to get length of a number value (local 'n')"), out);
    }

    @Test
    void stringCoercionAndMetamethodsGoThroughTheHelpers() {
        String out = same("coerce.lua", """
                local function ops(a, b) return a + b, a - b, a * b, a / b, a // b, a % b, -a end
                print(ops("10", 3))
                print(ops("0x10", "2"))
                print(ops(" 3.5 ", 2))
                print(pcall(ops, "abc", 1))
                print(pcall(ops, {}, 1))
                local V = setmetatable({}, {__add = function(a, b) return "added" end,
                  __unm = function() return "neg" end, __lt = function() return true end,
                  __le = function() return false end, __eq = function() return true end})
                local W = setmetatable({}, getmetatable(V))
                print(V + 1, 1 + V, -V, V < W, V <= W, V == W, V ~= W, V == 1)
                local function truth(a, b) return a and b, a or b, not a, not not b end
                print(truth(false, nil))
                print(truth(nil, 0))
                print(truth(0, ""))
                print(truth(true, false))
                """);
        // as lua5.3: a string operand converts to a float
        assertTrue(out.startsWith("13.0\t7.0\t30.0\t3.3333333333333\t3.0\t1.0\t-10.0\n18.0\t14.0\t32.0\t8.0\t8.0\t0.0\t-16.0\n"), out);
        assertTrue(out.contains("attempt to perform arithmetic on a string value (local 'a')")
                || out.contains("attempt to perform arithmetic on a string value"), out);
        assertTrue(out.contains("added\tadded\tneg\ttrue\tfalse\ttrue\tfalse\tfalse"), out);
        assertTrue(out.endsWith("false\tnil\ttrue\tfalse\nnil\t0\ttrue\ttrue\n\t0\tfalse\ttrue\nfalse\ttrue\tfalse\tfalse\n"), out);
    }

    @Test
    void upvaluesAndGlobalsThroughTheInlinePaths() {
        String out = same("up.lua", """
                local n = 0
                local function inc(k) n = n + k; counter = (counter or 0) + 1; return n end
                for i = 1, 5 do inc(i) end
                print(n, counter, inc(0.5))
                setmetatable(_G, {__index = function(_, k) return "G:" .. k end})
                print(undefined_name)
                """);
        assertEquals("15\t5\t15.5\nG:undefined_name\n", out);
    }

    @Test
    void memoryAndGasLimitsStopAtTheSamePoint() {
        String grow = "local t = {} for i = 1, 1e9 do t[i] = i; t['k' .. i] = i end";
        CompiledTierTest.Outcome m = same("mem.lua", grow, Limits.defaults().withMemory(4 << 20));
        assertNotNull(m.error());
        String spin = "local t, s = {1, 2, 3}, 0 for i = 1, 1e9 do s = s + t[i % 3 + 1] * 2 - (i // 7) % 5 end";
        CompiledTierTest.Outcome g = same("gas2.lua", spin, Limits.defaults().withGas(1_000_003));
        assertTrue(g.error() != null && g.error().contains("gas"), g.error());
    }

    @Test
    void largeFunctionsFallBackToCompactFormsAndStillAgree() throws Exception {
        // sizes that land on each form: every fast path, the compact subset, a helper per instruction,
        // and a run split into parts (RunPartsTest), which tries the levels again
        AsmFunctionCompiler gen = new AsmFunctionCompiler();
        java.util.Set<Integer> levels = new java.util.TreeSet<>();
        for (int lines : new int[] {4, 12, 14, 150}) {
            StringBuilder src = new StringBuilder("local t = {a = 0, b = 0.5}\nlocal function big(n)\n  local x, y = 0, 0.0\n");
            for (int j = 0; j < lines; j++) {
                src.append("  x = x + n * ").append(j).append(" - (x // 3) % 7; y = y * 0.5 + t.b; t.a = t.a + x;")
                        .append(" if x < y then x = x + 1 end\n");
            }
            src.append("  return x, y, t.a\nend\nfor i = 1, 3 do print(big(i)) end\n");
            same("big" + lines + ".lua", src.toString());
            Prototype f = LuaCompiler.compile(src.toString().getBytes(), "@big").protos[0];
            byte[] chosen = gen.compile(f, "dev/luavm/vm/SizeProbe");
            for (int level = 0; level <= 2; level++) { // a level too large for its limit falls to the next one down
                byte[] b = gen.compile(f, "dev/luavm/vm/SizeProbe", level);
                if (chosen != null && b != null && java.util.Arrays.equals(b, chosen)) {
                    levels.add(level);
                    break;
                }
            }
        }
        assertEquals(java.util.Set.of(0, 1, 2), levels, "forms chosen");
    }

    /**
     * HotSpot compiles no method over 8,000 bytes: wherever the one-helper-per-instruction form
     * of a corpus function fits under the generator's limit, the form it chooses fits too.
     */
    @Test
    void runMethodsStayUnderHotSpotsCompileLimit() throws Exception {
        AsmFunctionCompiler gen = new AsmFunctionCompiler();
        int[] counts = new int[3]; // functions, inlined (larger than the helper form), fitting
        for (Path p : CompiledTierTest.corpus()) {
            Prototype main;
            try {
                main = LuaCompiler.compile(Files.readAllBytes(p), "@" + p.getFileName());
            } catch (LuaError e) {
                continue; // a corpus script about syntax errors
            }
            checkSizes(gen, main, counts);
        }
        System.out.printf("corpus functions: %d, with inline fast paths: %d, all under %d bytes%n",
                counts[0], counts[1], AsmFunctionCompiler.INLINE_LIMIT);
        assertTrue(counts[1] > counts[0] / 2, "inline paths used in only " + counts[1] + " of " + counts[0]);
    }

    private static void checkSizes(AsmFunctionCompiler gen, Prototype p, int[] counts) throws Exception {
        byte[] chosen = gen.compile(p, "dev/luavm/vm/SizeProbe");
        byte[] plain = gen.compile(p, "dev/luavm/vm/SizeProbe", 0);
        if (plain != null) {
            counts[0]++;
            int limit = AsmFunctionCompiler.INLINE_LIMIT;
            if (RunSize.of(plain) <= limit) {
                assertNotNull(chosen);
                assertTrue(RunSize.of(chosen) <= limit, "run of " + RunSize.of(chosen) + " bytes");
            }
            if (chosen != null && RunSize.of(chosen) > RunSize.of(plain)) counts[1]++;
        }
        for (Prototype q : p.protos) checkSizes(gen, q, counts);
    }
}
