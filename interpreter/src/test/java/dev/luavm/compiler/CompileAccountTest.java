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
        assertTrue(r.releases >= 1);
        // at least the code and line arrays of 1,000 instructions, and the parse's fixed heap
        assertTrue(r.maxHeld > 1000 * 8 + CompileAccount.PASS_BYTES, "held " + r.maxHeld);
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
    void heldMemoryGrowsWithTheCodeAndWorkWithTheSource() {
        Recorder one = new Recorder(Long.MAX_VALUE);
        Recorder ten = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = 1\n".repeat(10_000)), "=t", one);
        LuaCompiler.compile(src("x = 1\n".repeat(100_000)), "=t", ten);
        // 10,000 and 100,000 instructions: their arrays, at most twice their size while growing
        assertTrue(one.maxHeld >= 10_000 * 8 && ten.maxHeld >= 100_000 * 8, one.maxHeld + ", " + ten.maxHeld);
        assertTrue(ten.maxHeld > 5 * one.maxHeld && ten.maxHeld <= 11 * one.maxHeld, one.maxHeld + " vs " + ten.maxHeld);
        assertTrue(ten.work >= 9 * one.work && ten.work <= 11 * one.work, one.work + " vs " + ten.work);
    }

    @Test
    void whatIsNotKeptIsNotHeld() {
        // 100,000 folded operands: no tree, no token list, one constant
        Recorder chain = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("return 1" + "+1".repeat(100_000)), "=t", chain);
        assertTrue(chain.maxHeld < 64 << 10, "held " + chain.maxHeld);
        // a hundred times the functions: each is done with when it ends, but for its prototype
        Recorder few = new Recorder(Long.MAX_VALUE);
        Recorder many = new Recorder(Long.MAX_VALUE);
        String function = "function f(a, b) local c = a + b return c * 2 end\n";
        LuaCompiler.compile(src(function.repeat(10)), "=t", few);
        LuaCompiler.compile(src(function.repeat(1000)), "=t", many);
        // (the output): a few hundred bytes each, not a tree's worth per token
        assertTrue(many.maxHeld - few.maxHeld < 990 * 600, few.maxHeld + " vs " + many.maxHeld);
    }

    @Test
    void deepNestingPaysForItsFrames() {
        Recorder flat = new Recorder(Long.MAX_VALUE);
        Recorder deep = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = (1)"), "=t", flat);
        LuaCompiler.compile(src("x = " + "(".repeat(190) + "1" + ")".repeat(190)), "=t", deep);
        // about 16 rule frames per parenthesis
        assertTrue(deep.maxHeld - flat.maxHeld >= 190 * 15 * CompileAccount.FRAME_BYTES, flat.maxHeld + " vs " + deep.maxHeld);
    }

    @Test
    void aHugeStringLiteralPaysForItsCopiesBeforeTheyAreMade() {
        Recorder r = new Recorder(Long.MAX_VALUE);
        LuaCompiler.compile(src("x = '" + "a".repeat(1 << 20) + "'"), "=t", r);
        assertTrue(r.maxHeld >= 4L << 20, "held " + r.maxHeld);
        Recorder small = new Recorder(2L << 20);
        LuaError e = assertThrows(LuaError.class, () -> LuaCompiler.compile(src("x = '" + "a".repeat(1 << 20) + "'"), "=t", small));
        assertEquals("not enough memory", e.getMessage());
        assertEquals(0, small.held);
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

    /** Throws its own exception at the n-th charge of work. */
    private static final class Stopper implements CompileMeter {
        final RuntimeException stop = new IllegalStateException("stopped by the meter");
        final int at;
        int calls;

        Stopper(int at) {
            this.at = at;
        }

        @Override
        public void work(long units) {
            if (++calls == at) throw stop;
        }

        @Override
        public void hold(long bytes) {
        }

        @Override
        public void release(long bytes) {
        }
    }

    @Test
    void whateverTheMeterThrowsEndsTheCompileAsItIs() {
        // every kind of rule, nested, so that a stop lands inside each of them in some run
        String source = String.join("\n",
            "local t = {1, 2, x = 3, [4] = {5, f(6)}, 'a' .. 'b' .. c ^ -d ^ e}",
            "function t.m:n(a, ...) if a then return ... elseif b then goto l else while c do break end end ::l:: end",
            "for i = 1, 10, 2 do local x = nil end",
            "for k, v in pairs(t) do repeat local y = not k until y or v and - #t < 3 end",
            "local function g(...) return g(...) end",
            "a, b.c, d[1] = f(), (g)(1, 2), h 'x' {y = 1}") + "\n";
        Stopper count = new Stopper(-1);
        LuaCompiler.compile(src(source.repeat(20)), "=t", count);
        assertTrue(count.calls > 20, "work charged " + count.calls + " times");
        for (int n = 1; n <= count.calls; n++) {
            Stopper s = new Stopper(n);
            RuntimeException e = assertThrows(RuntimeException.class, () -> LuaCompiler.compile(src(source.repeat(20)), "=t", s));
            assertTrue(e == s.stop, "charge " + n + " of " + count.calls + " ended with " + e);
        }
    }
}
