package dev.luavm.stdlib.string;

import dev.luavm.lib.HostEnvironment;
import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Intrinsic;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.stdlib.TestContext;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.luavm.stdlib.string.OracleTestBase.call;
import static dev.luavm.stdlib.string.OracleTestBase.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Installation, callbacks into "Lua" (Java lambdas here), gmatch state and metamethods. */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class StringLibraryTest {
    private static final class FakeInstall implements InstallContext {
        final MemoryMeter meter = MemoryMeter.unlimited();
        final LuaTable globals = new LuaTable(meter);
        LuaTable stringMeta;

        @Override public LuaTable globals() { return globals; }
        @Override public LuaTable registry() { throw new UnsupportedOperationException(); }
        @Override public MemoryMeter memory() { return meter; }
        @Override public HostEnvironment host() { throw new UnsupportedOperationException(); }
        @Override public void setStringMetatable(LuaTable mt) { stringMeta = mt; }
        @Override public Builtin intrinsic(Intrinsic which) { throw new UnsupportedOperationException(); }
    }

    @Test
    void installsStringTableAndPerSandboxMetatable() {
        StringLibrary lib = new StringLibrary();
        assertEquals("string", lib.name());
        FakeInstall a = new FakeInstall();
        lib.install(a);
        LuaTable string = (LuaTable) a.globals.get(s("string"));
        String[] names = {"byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match",
            "rep", "reverse", "sub", "upper", "pack", "packsize", "unpack"};
        for (String n : names) {
            Builtin f = (Builtin) string.get(s(n));
            assertEquals("string." + n, f.qualifiedName);
        }
        assertNull(string.get(s("dump")), "no string.dump in a sandbox");
        Object[] out = new Object[2];
        int count = 0;
        for (Object k = null; string.next(k, out); k = out[0]) count++;
        assertEquals(names.length, count);
        assertSame(string, a.stringMeta.get(s("__index")));

        FakeInstall b = new FakeInstall();
        lib.install(b);
        assertNotSame(a.stringMeta, b.stringMeta, "each sandbox gets its own string metatable");
        assertNotSame(string, b.globals.get(s("string")));
    }

    @Test
    void gsubWithFunctionReceivesCapturesAndKeepsOriginalOnNilOrFalse() {
        List<String> seen = new ArrayList<>();
        Builtin f = Builtin.of("f", c -> {
            seen.add(OracleTestBase.render(new Object[] {c.arg(1), c.arg(2)}));
            LuaString k = (LuaString) c.arg(1);
            if (k.toString().equals("b")) return c.ret(Boolean.FALSE);
            if (k.toString().equals("c")) return c.ret(null);
            if (k.toString().equals("d")) return c.ret(42L);
            if (k.toString().equals("e")) return c.ret(1.5);
            return c.ret(s("<" + k + ">"));
        });
        assertEquals("\"<a>bc421.5\" 5", call(OracleTestBase.GSUB, s("abcde"), s("(%w)()"), f));
        assertEquals(List.of("\"a\" 2", "\"b\" 3", "\"c\" 4", "\"d\" 5", "\"e\" 6"), seen);
        // no captures: the whole match is the one argument
        Builtin up = Builtin.of("up", c -> c.ret(s(c.arg(1).toString().toUpperCase())));
        assertEquals("\"heLLo\" 1", call(OracleTestBase.GSUB, s("hello"), s("l+"), up));
        Builtin table = Builtin.of("t", c -> c.ret(new LuaTable(MemoryMeter.unlimited())));
        assertEquals("error: invalid replacement value (a table)", call(OracleTestBase.GSUB, s("abc"), s("a"), table));
        Builtin bool = Builtin.of("b", c -> c.ret(Boolean.TRUE));
        assertEquals("error: invalid replacement value (a boolean)", call(OracleTestBase.GSUB, s("abc"), s("a"), bool));
    }

    @Test
    void gsubWithTableLooksUpFirstCapture() {
        LuaTable t = new LuaTable(MemoryMeter.unlimited());
        t.put(s("name"), s("Lua"));
        t.put(s("v"), 53L);
        t.put(s("off"), Boolean.FALSE);
        assertEquals("\"Lua 53 $off $x\" 4",
                call(OracleTestBase.GSUB, s("$name $v $off $x"), s("%$(%w+)"), t));
        t.put(1L, s("pos"));
        assertEquals("\"pos\" 1", call(OracleTestBase.GSUB, s("a"), s("()a"), t), "a position capture is an integer key");
    }

    @Test
    void gmatchIteratorsHaveTheirOwnState() {
        Builtin it1 = (Builtin) new TestContext(OracleTestBase.GMATCH, s("a1 b2 c3"), s("%a%d")).run()[0];
        Builtin it2 = (Builtin) new TestContext(OracleTestBase.GMATCH, s("a1 b2 c3"), s("%a%d")).run()[0];
        assertNotSame(it1, it2);
        assertEquals("\"a1\"", OracleTestBase.render(new TestContext(it1).run()));
        assertEquals("\"b2\"", OracleTestBase.render(new TestContext(it1).run()));
        assertEquals("\"a1\"", OracleTestBase.render(new TestContext(it2).run()));
        assertEquals("\"c3\"", OracleTestBase.render(new TestContext(it1).run()));
        assertEquals(0, new TestContext(it1).run().length);
        assertEquals(0, new TestContext(it1).run().length, "an exhausted iterator stays exhausted");
    }

    @Test
    void formatPercentSUsesTostringMetamethod() {
        LuaTable mt = new LuaTable(MemoryMeter.unlimited());
        mt.put(s("__tostring"), Builtin.of("ts", c -> c.ret(s("TS"))));
        LuaTable obj = new LuaTable(MemoryMeter.unlimited());
        obj.setMetatable(mt);
        assertEquals("\"[TS][   TS][T]\"", call(OracleTestBase.FORMAT, s("[%s][%5s][%.1s]"), obj, obj, obj));
        LuaTable plain = new LuaTable(MemoryMeter.unlimited());
        assertEquals("error: bad argument #2 to 'string.format' (value has no literal form)",
                call(OracleTestBase.FORMAT, s("%q"), plain));
        assertEquals("error: bad argument #2 to 'string.format' (number expected, got table)",
                call(OracleTestBase.FORMAT, s("%d"), plain));
        mt.put(s("__name"), s("MyType"));
        assertEquals("error: bad argument #2 to 'string.format' (number expected, got MyType)",
                call(OracleTestBase.FORMAT, s("%d"), obj));
    }

    @Test
    void formatQRoundTripsEveryByte() {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) all[i] = (byte) i;
        LuaString q = (LuaString) new TestContext(OracleTestBase.FORMAT, s("%q"), LuaString.wrap(all)).run()[0];
        String text = q.toLatin1();
        assertTrue(text.startsWith("\"\\0\\1\\2"), text);
        assertTrue(text.contains("\\9\\\n\\11\\12\\13\\14"), "newline as backslash-newline, \\r as \\13");
        assertTrue(text.contains("\\\"") && text.contains("\\\\") && text.contains("\\127\u0080"));
    }

    @Test
    void gsubCallbackErrorsPropagate() {
        Builtin boom = Builtin.of("boom", c -> { throw LuaError.of("boom"); });
        assertEquals("error: boom", call(OracleTestBase.GSUB, s("abc"), s("b"), boom));
    }

    @Test
    void longSubjectsAndPatternsDoNotUseTheJavaStack() {
        String big = "a".repeat(200_000);
        assertEquals("1 200000", call(OracleTestBase.FIND, s(big), s(".".repeat(200_000))));
        assertEquals("1 200000", call(OracleTestBase.FIND, s(big), s(".-$")));
        assertEquals("1 200000", call(OracleTestBase.FIND, s(big), s("a*")));
        assertEquals("1 200000", call(OracleTestBase.FIND, s(big), s("[%w]+$")));
        assertEquals("error: pattern too complex", call(OracleTestBase.FIND, s(big), s("a?".repeat(1000))));
        assertEquals("error: too many captures", call(OracleTestBase.MATCH, s(big), s("(".repeat(300) + "a" + ")".repeat(300))));
    }
}
