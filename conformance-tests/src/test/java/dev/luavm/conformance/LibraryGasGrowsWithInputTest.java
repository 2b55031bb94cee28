package dev.luavm.conformance;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gas rule of docs/STDLIB.md ("What gas pays for") applied to every library function whose
 * work grows with its input: the same call on an input 10x larger must cost at least 5x the gas
 * (the input is sized so that it dominates the call's base cost). Gas only, never time: the
 * benchmark {@code benchmarks/gas-fairness} checks gas against CPU time.
 *
 * <p>Each row: the function, a setup that leaves the input in globals for size {@code $N}, the
 * measured chunk (the same text at both sizes, so its compile charge cancels out), and the size
 * at 1x.
 */
class LibraryGasGrowsWithInputTest {
    private static final LuaVM VM = LuaVM.create();
    private static final Capabilities CAPS = Capabilities.standard().toBuilder().bundle("debug", "package").build();
    private static final Limits LIMITS = Limits.defaults().withGas(1_000_000_000L).withMemory(256L << 20);

    private static final String STR = "s = string.rep('a', $N) s2 = string.rep('a', $N)";
    private static final String LIST = "t = {} for i = 1, $N do t[i] = i end";
    private static final String NUMERAL = "s = string.rep('0', $N) .. '1'";
    private static final String CONT = "s = 'a' .. string.rep('\\x80', $N)";

    static Stream<Arguments> functions() {
        return Stream.of(
                // base
                row("assert", LIST, "assert(true, table.unpack(t))", 10_000),
                row("rawequal", STR, "rawequal(s, s2)", 100_000),
                row("tonumber", NUMERAL, "tonumber(s)", 100_000),
                row("ipairs", LIST, "for i, v in ipairs(t) do end", 10_000),
                row("print", STR, "print(s)", 10_000),
                row("load", "src = string.rep('x = 1 ', $N)", "load(src)", 1_000),
                row("pairs", LIST, "for k, v in pairs(t) do end", 10_000),
                // string
                row("string.byte", STR, "s:byte(1, -1)", 10_000),
                row("string.char", LIST.replace("= i", "= 97"), "string.char(table.unpack(t))", 10_000),
                row("string.find (plain)", STR, "s:find('b', 1, true)", 100_000),
                row("string.find (pattern)", STR, "s:find('%d')", 100_000),
                row("string.find (back-reference)", "s = string.rep('x', $N) .. '=' .. string.rep('x', $N)",
                        "s:find('^(x*)=%1$')", 100_000),
                row("string.format (%s)", STR, "string.format('%s', s)", 100_000),
                row("string.format (%.3s scan)", STR, "string.format('%.3s', s)", 100_000),
                row("string.format (%q)", STR, "string.format('%q', s)", 100_000),
                row("string.format (format length)", STR, "string.format(s)", 100_000),
                row("string.format (conversions)", LIST + " f = string.rep('%d', $N)", "string.format(f, table.unpack(t))", 10_000),
                row("string.gmatch", STR, "for w in s:gmatch('a') do end", 10_000),
                row("string.gsub", STR, "s:gsub('a', 'bb')", 100_000),
                row("string.lower", STR, "s:lower()", 100_000),
                row("string.upper", STR, "s:upper()", 100_000),
                row("string.match", STR, "s:match('^(a*)$')", 100_000),
                row("string.pack (items)", LIST + " f = string.rep('j', $N)", "string.pack(f, table.unpack(t))", 10_000),
                row("string.pack (z scan)", STR, "string.pack('z', s)", 100_000),
                row("string.packsize", "f = string.rep('j', $N)", "string.packsize(f)", 100_000),
                row("string.rep", "n = $N", "string.rep('a', n)", 100_000),
                row("string.reverse", STR, "s:reverse()", 100_000),
                row("string.sub", STR, "s:sub(2, -2)", 100_000),
                row("string.unpack (items)", "f = string.rep('j', $N) p = string.rep('\\0', 8 * $N)", "string.unpack(f, p)", 10_000),
                row("string.unpack (z scan)", "p = string.rep('a', $N) .. '\\0'", "string.unpack('z', p)", 100_000),
                // table
                row("table.concat", LIST, "table.concat(t, ',')", 10_000),
                row("table.insert", LIST, "table.insert(t, 1, 0)", 10_000),
                row("table.move", LIST, "table.move(t, 1, #t, 1, {})", 10_000),
                row("table.pack", LIST, "table.pack(table.unpack(t))", 10_000),
                row("table.remove", LIST, "table.remove(t, 1)", 10_000),
                row("table.sort (numbers)", "t = {} for i = 1, $N do t[i] = (i * 7919) % 1000003 end", "table.sort(t)", 10_000),
                row("table.sort (long equal strings)", "t = {} for i = 1, 20 do t[i] = string.rep('a', $N) end", "table.sort(t)", 100_000),
                row("table.unpack", LIST, "table.unpack(t)", 10_000),
                // math
                row("math.max (values)", LIST, "math.max(table.unpack(t))", 10_000),
                row("math.min (values)", LIST, "math.min(table.unpack(t))", 10_000),
                row("math.max (long equal strings)", STR, "math.max(s, s2)", 100_000),
                row("math.min (long equal strings)", STR, "math.min(s, s2)", 100_000),
                row("math.floor (numeral argument)", NUMERAL, "math.floor(s)", 100_000),
                // utf8
                row("utf8.char", LIST.replace("= i", "= 0x4e2d"), "utf8.char(table.unpack(t))", 10_000),
                row("utf8.codepoint", STR, "utf8.codepoint(s, 1, -1)", 10_000),
                row("utf8.codes (iteration)", STR, "for p, c in utf8.codes(s) do end", 10_000),
                row("utf8.codes (continuation run)", CONT, "local it = utf8.codes(s) it(s, 1)", 100_000),
                row("utf8.len", STR, "utf8.len(s)", 100_000),
                row("utf8.offset", STR, "utf8.offset(s, #s)", 100_000),
                row("utf8.offset (continuation run)", CONT, "utf8.offset(s, 0, #s)", 100_000),
                // os, package, debug
                row("os.date (format length)", "f = string.rep('x', $N)", "os.date(f, 0)", 100_000),
                row("os.date (conversions)", "f = string.rep('%Y', $N)", "os.date(f, 0)", 10_000),
                row("package.searchpath (templates)", "p = string.rep('?;', $N)", "package.searchpath('a', p)", 10_000),
                row("package.searchpath (name)", "n = string.rep('a', $N)", "package.searchpath(n, '?')", 100_000),
                row("debug.traceback", STR, "debug.traceback(s)", 100_000));
    }

    private static Arguments row(String function, String setup, String call, long n) {
        return Arguments.of(function, setup, call, n);
    }

    private static long gasOf(String setup, String call, long n) {
        try (Sandbox sb = VM.sandbox(CAPS, LIMITS)) {
            sb.eval("setup", setup.replace("$N", Long.toString(n)));
            sb.eval("measured", call);
            return sb.usage().gas();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("functions")
    void gasGrowsTenfoldWithTenfoldInput(String function, String setup, String call, long n) {
        long small = gasOf(setup, call, n);
        long large = gasOf(setup, call, 10 * n);
        System.out.printf("[gas growth] %-32s %,10d gas at %,d -> %,12d gas at %,d (x%.1f)%n",
                function, small, n, large, 10 * n, (double) large / small);
        assertTrue(large >= 5 * small, () -> function + ": " + small + " gas at " + n + ", only " + large + " at " + 10 * n);
    }
}
