package dev.luavm.threats;

import dev.luavm.Limits;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.luavm.threats.ThreatSupport.assertLimit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T17 Algorithmic complexity, VM and table cases (library functions: T17LibraryWorkTest). Each
 * attack is work that grows faster than the instructions that ask for it: crafted keys that
 * share one probe chain, rehash churn, the border search, {@code next} over sparse arrays, long
 * string compares, vararg copies, coroutine transfers, long numerals. Each test checks (a) that
 * the attack ends on gas under a modest limit, long before the time limit, and (b) that gas
 * grows with the work (figures from {@code usage().gas()}, never timing).
 */
class T17AlgorithmicComplexityTest {
    /** Room to measure: the gas limit is far away, the time limit is a backstop only. */
    private static final Limits MEASURE = Limits.defaults().withGas(4_000_000_000L).withMemory(64L << 20)
            .withTimeout(Duration.ofSeconds(60));

    /**
     * Integer keys whose mixed hash (LuaTable.mixLong: v * golden, high half folded into the
     * low) is one constant: v = ((x << 32) | (x ~ c)) * golden^-1. All share one home slot.
     */
    private static final String COLLIDING_INT = "local CINV = -1018231460777725123\n"
            + "local function key(x) return ((x << 32) | (x ~ 0x5bd1)) * CINV end\n";

    /** Floats whose bit patterns are such integers (non-integral, non-NaN ones only). */
    private static final String COLLIDING_FLOAT = COLLIDING_INT
            + "local pack, unpack, toint = string.pack, string.unpack, math.tointeger\n"
            + "local function fkey(x) local d = unpack('<d', pack('<i8', key(x)))"
            + " if d == d and not toint(d) then return d end end\n";

    /** "Aa" and "BB" have the same 31-polynomial hash: the 2^k strings of k blocks share one hash. */
    private static String collidingStrings(int blocks, String prefix) {
        return "local keys = {'" + prefix + "'}\n"
                + "for b = 1, " + blocks + " do local nk = {} for i = 1, #keys do"
                + " nk[#nk + 1] = keys[i] .. 'Aa'; nk[#nk + 1] = keys[i] .. 'BB' end keys = nk end\n";
    }

    /** Gas of {@code measured} alone, run after {@code setup} in the same sandbox. */
    private static long gasOf(String setup, String measured) {
        return assertTimeoutPreemptively(ThreatSupport.WALL, () -> {
            try (Sandbox sb = ThreatSupport.sandbox(MEASURE)) {
                sb.eval("setup", setup);
                sb.eval("measured", measured);
                return sb.usage().gas();
            }
        });
    }

    /** Prints and checks that 4x the input cost at least {@code minRatio} times the gas. */
    private static void assertGrowth(String what, long small, long large, double minRatio) {
        double ratio = (double) large / Math.max(1, small);
        System.out.printf("[T17] %s: %,d gas -> %,d gas for 4x the input (x%.1f)%n", what, small, large, ratio);
        assertTrue(ratio >= minRatio, what + ": gas grew only x" + ratio + " (" + small + " -> " + large + ")");
    }

    // ---- hash flooding

    @Test
    void integerKeysInOneProbeChain() {
        String fill = "for x = 1, N do t[key(x)] = true end";
        long small = gasOf(COLLIDING_INT.replace("local ", "") + "t = {}", fill.replace("N", "1000"));
        long large = gasOf(COLLIDING_INT.replace("local ", "") + "t = {}", fill.replace("N", "4000"));
        assertGrowth("colliding integer keys", small, large, 8); // quadratic work, quadratic gas
        assertLimit(Limit.GAS, COLLIDING_INT + "local t = {} for x = 1, 1e6 do t[key(x)] = true end");
    }

    @Test
    void floatKeysInOneProbeChain() {
        String setup = COLLIDING_FLOAT.replace("local ", "") + "t = {}";
        String fill = "for x = 1, N do local d = fkey(x) if d then t[d] = true end end";
        long small = gasOf(setup, fill.replace("N", "1000"));
        long large = gasOf(setup, fill.replace("N", "4000"));
        assertGrowth("colliding float keys", small, large, 6);
        assertLimit(Limit.GAS, COLLIDING_FLOAT + "local t = {} for x = 1, 1e6 do local d = fkey(x) if d then t[d] = true end end");
    }

    @Test
    void stringKeysInOneProbeChain() {
        String setup = collidingStrings(12, "").replace("local ", "") + "t = {}";
        long small = gasOf(setup, "for i = 1, 1024 do t[keys[i]] = true end");
        long large = gasOf(setup, "for i = 1, 4096 do t[keys[i]] = true end");
        assertGrowth("colliding string keys", small, large, 8);
        assertLimit(Limit.GAS, collidingStrings(16, "")
                + "local t = {} for i = 1, #keys do t[keys[i]] = true end"
                + " while true do for i = 1, #keys do local _ = t[keys[i]] end end");
    }

    @Test
    void hostReadsOfAFloodedTableAfterTheGasRanOutStillWork() {
        // table work is charged to runs only: the host walking a long chain afterwards must not
        // meet the (final) gas termination
        try (Sandbox sb = ThreatSupport.sandbox()) {
            sb.eval(collidingStrings(10, "") + "t = {} for i = 1, #keys do t[keys[i]] = i end last = keys[#keys]");
            String last = (String) sb.getGlobal("last");
            assertThrows(dev.luavm.LuaLimitException.class, () -> sb.eval("while true do end"));
            assertEquals(1024L, sb.getGlobal("t." + last));
        }
    }

    @Test
    void longCollidingStringKeysPayForEachCompare() {
        // equal hashes and lengths: every probe compares bytes up to the differing tail
        String setup = collidingStrings(8, "x".repeat(1000)).replace("local ", "") + "t = {}"
                + " for i = 1, #keys do t[keys[i]] = true end";
        long gas = gasOf(setup, "for i = 1, #keys do local _ = t[keys[i]] end");
        System.out.printf("[T17] 256 lookups of 1,016-byte colliding keys: %,d gas%n", gas);
        assertTrue(gas >= 256 * 255 / 2 * 127, "compares charged only " + gas);
    }

    @Test
    void rehashChurnOverALargeArrayPart() {
        String churn = "for i = 1, 3000 do t[-i] = true; t[-i] = nil end";
        long small = gasOf("t = {} for i = 1, 2^12 do t[i] = i end", churn);
        long large = gasOf("t = {} for i = 1, 2^14 do t[i] = i end", churn);
        assertGrowth("rehash churn beside an array part", small, large, 3);
        assertLimit(Limit.GAS, "local t = {} for i = 1, 2^16 do t[i] = i end"
                + " for i = 1, 1e8 do t[-i] = true; t[-i] = nil end");
    }

    // ---- border and traversal

    private static String plantedBorder(int log2n) {
        // keys at (n+1) * 2^k defeated 5.3's doubling search, which then scanned 1, 2, 3, ...
        return "t = {} local n = 2^" + log2n + " local j = n + 1"
                + " while true do t[j] = true if j > math.maxinteger // 2 then break end j = j * 2 end"
                + " for i = 1, n do t[i] = true end";
    }

    @Test
    void borderSearchOnAPlantedTable() {
        long small = gasOf(plantedBorder(10), "for r = 1, 100 do local _ = #t end");
        long large = gasOf(plantedBorder(16), "for r = 1, 100 do local _ = #t end");
        System.out.printf("[T17] 100 x #t on planted tables of 2^10 and 2^16: %,d and %,d gas%n", small, large);
        assertTrue(large < 100 * 1000, "the border search is bounded: " + large);
        Object b = ThreatSupport.run1(plantedBorder(16).replace("t = {}", "local t = {}")
                + " local b = #t return t[b] ~= nil and t[b + 1] == nil");
        assertEquals(Boolean.TRUE, b, "#t is a border");
        assertLimit(Limit.GAS, plantedBorder(16) + " while true do local _ = #t end");
    }

    @Test
    void nextOverASparseArrayPart() {
        // a queue drained through next(t): each call skips every slot already emptied
        String setup = "t = {} for i = 1, 2^14 do t[i] = i end";
        long small = gasOf(setup, "for i = 1, 1000 do local k = next(t) t[k] = nil end");
        long large = gasOf(setup, "for i = 1, 4000 do local k = next(t) t[k] = nil end");
        assertGrowth("draining a queue with next", small, large, 8);
        assertLimit(Limit.GAS, "local t = {} for i = 1, 2^16 do t[i] = i end"
                + " for i = 1, 2^16 - 1 do t[i] = nil end while true do local k = next(t) end");
    }

    // ---- long strings

    @Test
    void equalityOfLongEqualStrings() {
        String setup = "a = string.rep('a', N) b = string.rep('a', N)";
        long small = gasOf(setup.replace("N", "2^18"), "for r = 1, 20 do local _ = a == b end");
        long large = gasOf(setup.replace("N", "2^20"), "for r = 1, 20 do local _ = a == b end");
        assertGrowth("== of long equal strings", small, large, 3.5);
        assertLimit(Limit.GAS, "local a = string.rep('a', 2^22) local b = string.rep('a', 2^22)"
                + " while true do local _ = a == b end");
    }

    @Test
    void orderingOfLongEqualStrings() {
        String setup = "a = string.rep('a', N) b = string.rep('a', N)";
        long small = gasOf(setup.replace("N", "2^18"), "for r = 1, 20 do local _ = a < b, a <= b end");
        long large = gasOf(setup.replace("N", "2^20"), "for r = 1, 20 do local _ = a < b, a <= b end");
        assertGrowth("< and <= of long equal strings", small, large, 3.5);
        assertLimit(Limit.GAS, "local a = string.rep('a', 2^22) local b = string.rep('a', 2^22)"
                + " while true do local _ = a < b end");
    }

    // ---- value copies

    @Test
    void varargAndSelectCopies() {
        String setup = "big = {} for i = 1, N do big[i] = i end"
                + " function g(...) for r = 1, 20 do local x = select(2, ...) end end";
        long small = gasOf(setup.replace("N", "2^14"), "g(table.unpack(big))");
        long large = gasOf(setup.replace("N", "2^16"), "g(table.unpack(big))");
        assertGrowth("select over a vararg list", small, large, 3.5);
        assertLimit(Limit.GAS, "local t = {} for i = 1, 2^16 do t[i] = i end"
                + " local function g(...) while true do local n = select(2, ...) end end g(table.unpack(t))");
    }

    @Test
    void varargReturnsAndTableConstructors() {
        String setup = "big = {} for i = 1, N do big[i] = i end function id(...) return ... end"
                + " function g(...) for r = 1, 20 do local t = {id(...)} end end";
        long small = gasOf(setup.replace("N", "2^14"), "g(table.unpack(big))");
        long large = gasOf(setup.replace("N", "2^16"), "g(table.unpack(big))");
        assertGrowth("return ... and {...}", small, large, 3.5);
        assertLimit(Limit.GAS, "local t = {} for i = 1, 2^16 do t[i] = i end local function id(...) return ... end"
                + " local function g(...) while true do id(...) end end g(table.unpack(t))");
    }

    @Test
    void coroutineTransferOfHugeVarargLists() {
        String setup = "big = {} for i = 1, N do big[i] = i end"
                + " co = coroutine.wrap(function(...) while true do coroutine.yield(...) end end)"
                + " function drive(...) for r = 1, 20 do co(...) end end";
        long small = gasOf(setup.replace("N", "2^14"), "drive(table.unpack(big))");
        long large = gasOf(setup.replace("N", "2^16"), "drive(table.unpack(big))");
        assertGrowth("resume/yield of a vararg list", small, large, 3.5);
        assertLimit(Limit.GAS, "local t = {} for i = 1, 2^16 do t[i] = i end"
                + " local co = coroutine.create(function(...) while true do coroutine.yield(...) end end)"
                + " local function drive(...) while true do coroutine.resume(co, ...) end end drive(table.unpack(t))");
    }

    // ---- numerals

    @Test
    void coercionOfLongNumerals() {
        String setup = "s = string.rep(' ', N) .. '1' h = '0x' .. string.rep('f', N)";
        String use = "for r = 1, 20 do local _ = s + 0, h | 0 for i = 1, s do end end";
        long small = gasOf(setup.replace("N", "2^18"), use);
        long large = gasOf(setup.replace("N", "2^20"), use);
        assertGrowth("string-to-number coercion", small, large, 3.5);
        assertLimit(Limit.GAS, "local s = string.rep(' ', 2^22) .. '1' while true do local _ = s + 0 end");
    }

    @Test
    void tonumberOnLongStrings() {
        String setup = "s = string.rep('1', N) d = string.rep(' ', N) .. '7'";
        String use = "for r = 1, 20 do local _ = tonumber(s, 2), tonumber(d) end";
        long small = gasOf(setup.replace("N", "2^18"), use);
        long large = gasOf(setup.replace("N", "2^20"), use);
        assertGrowth("tonumber with and without a base", small, large, 3.5);
        assertLimit(Limit.GAS, "local s = string.rep('1', 2^22) while true do local _ = tonumber(s, 2) end");
    }
}
