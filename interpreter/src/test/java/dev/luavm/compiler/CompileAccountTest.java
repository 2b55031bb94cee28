package dev.luavm.compiler;

import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a compilation charges to its meter, and that everything held is given back. */
class CompileAccountTest {
    /** Records the charges; fails a hold past {@code cap}. */
    private static final class Recorder implements CompileMeter {
        final long cap;
        long work;
        long held;
        long maxHeld;
        int releases;

        Recorder(long cap) {
            this.cap = cap;
        }

        @Override
        public void work(long units) {
            work += units;
        }

        @Override
        public void hold(long bytes) {
            if (held + bytes > cap) throw new LuaError(dev.luavm.value.LuaString.of("not enough memory"));
            held += bytes;
            maxHeld = Math.max(maxHeld, held);
        }

        @Override
        public void release(long bytes) {
            held -= bytes;
            releases++;
        }
    }

    private static byte[] src(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void everythingHeldIsReleasedOnSuccess() {
        Recorder r = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = 1\n".repeat(1000)), "=t", r);
        assertEquals(0, r.held);
        assertEquals(1, r.releases);
        assertTrue(r.maxHeld > 6000 * 100, "held " + r.maxHeld);
    }

    @Test
    void everythingHeldIsReleasedOnASyntaxErrorAndOnAMemoryError() {
        Recorder r = new Recorder(Long.MAX_VALUE);
        assertThrows(LuaError.class, () -> LuaCompiler.compile(src("x = 1\n".repeat(100) + "x ="), "=t", r));
        assertEquals(0, r.held);
        Recorder small = new Recorder(100_000);
        LuaError e = assertThrows(LuaError.class, () -> LuaCompiler.compile(src("x = 1\n".repeat(10_000)), "=t", small));
        assertEquals("not enough memory", e.getMessage());
        assertEquals(0, small.held);
    }

    @Test
    void heldMemoryAndWorkGrowLinearly() {
        Recorder one = new Recorder(Long.MAX_VALUE);
        Recorder ten = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = 1\n".repeat(1000)), "=t", one);
        LuaCompiler.compile(src("x = 1\n".repeat(10_000)), "=t", ten);
        assertTrue(ten.maxHeld >= 9 * one.maxHeld && ten.maxHeld <= 11 * one.maxHeld);
        assertTrue(ten.work >= 9 * one.work && ten.work <= 12 * one.work);
    }

    @Test
    void longStringConstantsPayForTheirBytes() {
        Recorder shortOnes = new Recorder(Long.MAX_VALUE);
        Recorder longOnes = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = 'a'\n".repeat(100)), "=t", shortOnes);
        LuaCompiler.compile(src(("x = '" + "a".repeat(8000) + "'\n").repeat(100)), "=t", longOnes);
        // the lexer's byte work plus the interning lookups of 8 KB keys
        assertTrue(longOnes.work - shortOnes.work >= 100 * 8000 / 8 * 2, longOnes.work + " vs " + shortOnes.work);
    }

    @Test
    void lookupPriceIsTheKeyBytesTimesTheTreeDepth() {
        Recorder r = new Recorder(Long.MAX_VALUE);
        CompileAccount a = new CompileAccount(r);
        a.lookup(4, 0);
        assertEquals(0, r.work); // a small key in a small map: inside the token's price
        a.lookup(64, 1024);
        assertEquals(8 * 11, r.work);
        a.scan(80);
        assertEquals(8 * 11 + 10, r.work);
    }
}
