package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import static dev.luavm.threats.ThreatSupport.WALL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T17 Algorithmic complexity, the library's share: a library call whose work grows with its
 * input (bytes scanned or compared, values copied) pays for that work by the rule of
 * docs/STDLIB.md, before doing it, so a loop of such calls ends on GAS under a modest limit
 * instead of running for minutes on a few gas per call (the red-team scripts of issue 15 ran past
 * 15 s on 10M gas). Each test is one attack; the time each took is printed, never asserted.
 */
class T17LibraryWorkTest {
    /** Modest limits: each attack would run for minutes if its work were not charged. */
    private static final Limits LIMITS = ThreatSupport.TIGHT.withGas(2_000_000).withMemory(32L << 20);
    private static final Capabilities ALL = Capabilities.standard().toBuilder().bundle("debug", "package").build();

    /** Runs the attack; it must end with GAS. Prints how long that took. */
    private static void endsOnGas(String attack, String script) {
        long t0 = System.nanoTime();
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> assertTimeoutPreemptively(WALL, () -> {
            try (Sandbox sb = ThreatSupport.VM.sandbox(ALL, LIMITS)) {
                sb.evalAll("attack", script);
            }
        }), attack);
        assertEquals(Limit.GAS, e.limit(), attack);
        System.out.printf("[T17] %-45s ended on GAS after %d ms%n", attack, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Gas of {@code call} after {@code setup} (the setup's gas not counted). */
    private static long gasOf(String setup, String call) {
        try (Sandbox sb = ThreatSupport.VM.sandbox(ALL, Limits.defaults().withGas(1_000_000_000L).withMemory(256L << 20))) {
            sb.eval("setup", setup);
            sb.eval("call", call);
            return sb.usage().gas();
        }
    }

    @Test
    void utf8CodesSteppedOverLongContinuationRuns() {
        // each call skips a 1 MB run of continuation bytes: 1 gas per call before the fix
        endsOnGas("utf8.codes over continuation runs",
                "local s = 'a' .. string.rep('\\x80', 1e6) local it = utf8.codes(s) while true do it(s, 1) end");
    }

    @Test
    void utf8OffsetAndLenOverLongRuns() {
        endsOnGas("utf8.offset back over a continuation run",
                "local s = 'a' .. string.rep('\\x80', 1e6) while true do utf8.offset(s, 0, #s) end");
        endsOnGas("utf8.len of a long string", "local s = string.rep('a', 1e6) while true do utf8.len(s) end");
    }

    @Test
    void stringFormatPrecisionScans() {
        // '%.1s' prints one byte but scans the whole argument for zeros, as C's strlen does
        endsOnGas("string.format('%.1s') of 4 MB", "local s = string.rep('x', 4e6) while true do string.format('%.1s', s) end");
        endsOnGas("string.format('%5s') of 4 MB", "local s = string.rep('x', 4e6) while true do string.format('%5s', s) end");
    }

    @Test
    void sortOfLongEqualStrings() {
        // every comparison is a full-length compare of two distinct equal strings
        endsOnGas("table.sort of 100 equal 64 KB strings",
                "local t = {} for i = 1, 100 do t[i] = string.rep('a', 65536) end while true do table.sort(t) end");
        long gas = gasOf("t = {} for i = 1, 100 do t[i] = string.rep('a', 65536) end", "table.sort(t)");
        System.out.println("[T17] one sort of 100 equal 64 KB strings: " + gas + " gas");
        assertTrue(gas >= 100 * 65536 / 8, "each comparison pays the bytes it compares: " + gas);
    }

    @Test
    void minMaxAndRawequalOfLongEqualStrings() {
        String setup = "local s, s2 = string.rep('a', 4e6), string.rep('a', 4e6) ";
        endsOnGas("math.max of two equal 4 MB strings", setup + "while true do math.max(s, s2) end");
        endsOnGas("math.min of two equal 4 MB strings", setup + "while true do math.min(s, s2) end");
        endsOnGas("rawequal of two equal 4 MB strings", setup + "while true do rawequal(s, s2) end");
    }

    @Test
    void longNumeralsGivenToLibraryFunctions() {
        String setup = "local s = string.rep('0', 4e6) .. '1' ";
        endsOnGas("tonumber of a 4 MB numeral", setup + "while true do tonumber(s) end");
        endsOnGas("math.abs of a 4 MB numeral", setup + "while true do math.abs(s) end");
        endsOnGas("string.rep counted by a 4 MB numeral", setup + "while true do string.rep('x', s) end");
    }

    @Test
    void zeroScansInPackAndUnpack() {
        endsOnGas("string.pack('z') of 4 MB", "local s = string.rep('x', 4e6) while true do string.pack('z', s) end");
        endsOnGas("string.unpack('z') of 4 MB", "local p = string.rep('x', 4e6) while true do string.unpack('z', p) end");
        endsOnGas("string.packsize of a 4 MB format", "local f = string.rep(' ', 4e6) while true do string.packsize(f) end");
    }

    @Test
    void backReferencesCompareLongCaptures() {
        endsOnGas("string.find with %1 over 1 MB captures",
                "local s = string.rep('x', 1e6) .. '=' .. string.rep('x', 1e6) while true do s:find('^(x*)=%1$') end");
    }

    @Test
    void packageSearchpathNaiveSearch() {
        // a 1,000-byte separator that almost matches everywhere: 10^8 byte compares per call
        endsOnGas("package.searchpath with a near-matching separator",
                "local n, sep = string.rep('a', 1e5), string.rep('a', 1000) .. 'b' "
                        + "while true do package.searchpath(n, '?', sep) end");
    }

    @Test
    void osDateAndTracebackOfLongText() {
        endsOnGas("os.date of a 4 MB format", "local f = string.rep('x', 4e6) while true do os.date(f, 0) end");
        endsOnGas("debug.traceback of a 4 MB message", "local s = string.rep('x', 4e6) while true do debug.traceback(s) end");
    }

    @Test
    void caseConversionAndReverseOfLongStrings() {
        String setup = "local s = string.rep('x', 4e6) ";
        endsOnGas("string.upper of 4 MB", setup + "while true do s:upper() end");
        endsOnGas("string.reverse of 4 MB", setup + "while true do s:reverse() end");
    }
}
