package dev.luavm.stdlib.utf8;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.stdlib.libs.FakeSandbox;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values and messages come from lua5.3 (5.3.6). */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class Utf8LibraryTest {
    private final FakeSandbox box = new FakeSandbox().install(new Utf8Library());

    /** A byte string from chars 0-255 (so "\u00E4" is the byte 0xE4). */
    private static LuaString b(String latin1) {
        return LuaString.ofLatin1(latin1);
    }

    @Test
    void charEncodes() {
        assertEquals(b("H\u00F4\u008F\u00BF\u00BF\u00DF\u00BF\u0000"), box.call1("utf8.char", 72L, 0x10FFFFL, 0x7FFL, 0L));
        assertEquals(b("\u00E4\u00BD\u00A0"), box.call1("utf8.char", 20320L));
        assertEquals(b("\u00ED\u00A0\u0080"), box.call1("utf8.char", 0xD800L)); // surrogates are fine in 5.3
        assertEquals(LuaString.EMPTY, box.call1("utf8.char"));
        assertEquals(b("A"), box.call1("utf8.char", LuaString.of("65")));
    }

    @Test
    void charErrors() {
        assertEquals("bad argument #1 to 'utf8.char' (value out of range)", box.error("utf8.char", 0x110000L));
        assertEquals("bad argument #1 to 'utf8.char' (value out of range)", box.error("utf8.char", -1L));
        assertEquals("bad argument #2 to 'utf8.char' (value out of range)", box.error("utf8.char", 1L, 0x7FFFFFFFL));
        assertEquals("bad argument #1 to 'utf8.char' (number expected, got table)", box.error("utf8.char", box.table()));
    }

    @Test
    void charpattern() {
        LuaTable utf8 = (LuaTable) box.globals.get(LuaString.of("utf8"));
        assertEquals(b("[\u0000-\u007F\u00C2-\u00F4][\u0080-\u00BF]*"), utf8.get(LuaString.of("charpattern")));
    }

    @Test
    void codepoint() {
        assertArrayEquals(new Object[] {55296L}, box.call("utf8.codepoint", b("\u00ED\u00A0\u0080")));
        assertArrayEquals(new Object[] {99L}, box.call("utf8.codepoint", b("abc"), -1L));
        assertArrayEquals(new Object[] {}, box.call("utf8.codepoint", b("abc"), 3L, 2L));
        assertArrayEquals(new Object[] {20320L}, box.call("utf8.codepoint", b("\u00E4\u00BD\u00A0"), 1L, 1L));
        assertArrayEquals(new Object[] {97L, 20320L, 98L}, box.call("utf8.codepoint", b("a\u00E4\u00BD\u00A0b"), 1L, -1L));
        assertArrayEquals(new Object[] {0x10FFFFL}, box.call("utf8.codepoint", b("\u00F4\u008F\u00BF\u00BF")));
    }

    @Test
    void codepointErrors() {
        assertEquals("invalid UTF-8 code", box.error("utf8.codepoint", b("\u00F4\u0090\u0080\u0080"))); // > 10FFFF
        assertEquals("invalid UTF-8 code", box.error("utf8.codepoint", b("\u00F8\u0088\u0080\u0080\u0080"))); // 5 bytes
        assertEquals("invalid UTF-8 code", box.error("utf8.codepoint", b("\u00C0\u0080"))); // overlong
        assertEquals("invalid UTF-8 code", box.error("utf8.codepoint", b("\u00E4\u00BD"), 1L, 1L)); // truncated
        assertEquals("bad argument #2 to 'utf8.codepoint' (out of range)", box.error("utf8.codepoint", b("abc"), 0L));
        assertEquals("bad argument #3 to 'utf8.codepoint' (out of range)", box.error("utf8.codepoint", b("abc"), 1L, 4L));
    }

    @Test
    void len() {
        assertArrayEquals(new Object[] {3L}, box.call("utf8.len", b("abc")));
        assertArrayEquals(new Object[] {0L}, box.call("utf8.len", b("abc"), 4L));
        assertArrayEquals(new Object[] {0L}, box.call("utf8.len", b("abc"), 1L, -5L));
        assertArrayEquals(new Object[] {null, 2L}, box.call("utf8.len", b("a\u0080bc")));
        assertArrayEquals(new Object[] {null, 2L}, box.call("utf8.len", b("\u00E4\u00BD\u00A0\u00E5\u00A5\u00BD"), 2L));
        assertArrayEquals(new Object[] {2L}, box.call("utf8.len", b("\u00E4\u00BD\u00A0\u00E5\u00A5\u00BD")));
        assertArrayEquals(new Object[] {null, 5L}, box.call("utf8.len", b("\u00F4\u008F\u00BF\u00BF\u00F7\u00BF\u00BF\u00BF")));
        assertArrayEquals(new Object[] {null, 1L}, box.call("utf8.len", b("\u00F0\u0080\u0080\u0080")));
        assertEquals("bad argument #2 to 'utf8.len' (initial position out of string)", box.error("utf8.len", b("abc"), 5L));
        assertEquals("bad argument #2 to 'utf8.len' (initial position out of string)", box.error("utf8.len", b("abc"), 0L));
        assertEquals("bad argument #3 to 'utf8.len' (final position out of string)", box.error("utf8.len", b("abc"), 1L, 4L));
        assertEquals("bad argument #1 to 'utf8.len' (string expected, got no value)", box.error("utf8.len"));
    }

    @Test
    void offset() {
        LuaString s = b("a\u00E4\u00BD\u00A0b");
        assertEquals(1L, box.call1("utf8.offset", b("\u00E4\u00BD\u00A0"), 0L, 2L));
        assertEquals(5L, box.call1("utf8.offset", s, -1L));
        assertEquals(5L, box.call1("utf8.offset", s, 3L));
        assertEquals(6L, box.call1("utf8.offset", s, 4L));
        assertEquals(null, box.call1("utf8.offset", s, 5L));
        assertEquals(null, box.call1("utf8.offset", b("abc"), -4L));
        assertEquals(1L, box.call1("utf8.offset", b("abc"), -3L));
        assertEquals("bad argument #3 to 'utf8.offset' (position out of range)", box.error("utf8.offset", b("abc"), 1L, 5L));
        assertEquals("bad argument #3 to 'utf8.offset' (position out of range)", box.error("utf8.offset", b("abc"), 1L, -10L));
        assertEquals("initial position is a continuation byte", box.error("utf8.offset", b("\u00E4\u00BD\u00A0"), 1L, 2L));
    }

    private List<String> iterate(LuaString s) {
        Object[] triple = box.call("utf8.codes", s);
        List<String> out = new ArrayList<>();
        Object control = triple[2];
        while (true) {
            Object[] r = box.call(triple[0], triple[1], control);
            if (r.length == 0 || r[0] == null) return out;
            out.add(r[0] + ":" + r[1]);
            control = r[0];
        }
    }

    @Test
    void codes() {
        assertEquals(List.of("1:97", "2:20320", "5:98"), iterate(b("a\u00E4\u00BD\u00A0b")));
        assertEquals(List.of(), iterate(LuaString.EMPTY));
        Object[] triple = box.call("utf8.codes", 1L);
        assertEquals(1L, triple[1]);
        assertEquals(0L, triple[2]);
    }

    @Test
    void codesErrors() {
        assertEquals("invalid UTF-8 code", assertError(() -> iterate(b("a\u0080"))));
        assertEquals("invalid UTF-8 code", assertError(() -> iterate(b("\u0080a"))));
        assertEquals("invalid UTF-8 code", assertError(() -> iterate(b("a\u00E4\u00BD\u00A0\u00A0b"))));
        assertEquals("invalid UTF-8 code", assertError(() -> iterate(b("a\u00E4\u00BDb"))));
        assertEquals("bad argument #1 to 'utf8.codes' (string expected, got nil)", box.error("utf8.codes", (Object) null));
    }

    private static String assertError(Runnable r) {
        try {
            r.run();
        } catch (dev.luavm.vm.LuaError e) {
            return e.getMessage();
        }
        throw new AssertionError("no error");
    }

    @Test
    void lenChargesPerBytesScanned() {
        LuaString big = LuaString.wrap(new byte[16_000]);
        box.gasUsed = 0;
        assertEquals(16_000L, box.call1("utf8.len", big));
        assertEquals(16_000 / 8, box.gasUsed); // the byte rule: 1 per 8 bytes scanned
    }
}
