package dev.luavm.stdlib.pkg;

import static dev.luavm.stdlib.libs.FakeSandbox.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.luavm.stdlib.libs.FakeSandbox;
import dev.luavm.stdlib.math.MathLibrary;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Messages follow lua5.3 (5.3.6); the host searcher's lines are ours (no file system). */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class PackageLibraryTest {
    private final List<String> log = new ArrayList<>();
    private final FakeSandbox box = new FakeSandbox();

    PackageLibraryTest() {
        // a stand-in compiler: "return <text>" compiles to a function returning <text>; "!" fails
        box.loadIntrinsic = Builtin.of("load", c -> {
            String src = c.checkString(1).toString();
            log.add("load " + src + " as " + c.arg(2) + " mode " + c.arg(3));
            if (src.startsWith("!")) return c.ret(null, s("[string]:1: unexpected symbol"));
            Builtin chunk = Builtin.of("chunk", k -> {
                log.add("run " + k.arg(1) + " " + k.arg(2));
                return src.equals("return nothing") ? 0 : k.ret(s(src.substring("return ".length())));
            });
            return c.ret(chunk);
        });
        box.install(new MathLibrary()).install(new PackageLibrary());
    }

    private LuaTable pkg() {
        return (LuaTable) box.globals.get(s("package"));
    }

    private void hostModule(String name, String source) {
        box.host.modules.put(name, source.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void fields() {
        LuaTable p = pkg();
        assertEquals(s("/\n;\n?\n!\n-\n"), p.get(s("config")));
        assertEquals(s("./?.lua;./?/init.lua"), p.get(s("path")));
        assertEquals(s(""), p.get(s("cpath")));
        assertNull(p.get(s("loadlib")));
        LuaTable loaded = (LuaTable) p.get(s("loaded"));
        assertSame(box.globals, loaded.get(s("_G")));
        assertSame(p, loaded.get(s("package")));
        assertSame(box.globals.get(s("math")), loaded.get(s("math")));
        assertSame(loaded, box.registry.get(s("_LOADED")));
    }

    @Test
    void searchpathReportsEveryCandidateMissing() {
        assertArrayEquals(new Object[] {null, s("\n\tno file './a/b/c.lua'\n\tno file '/x/a/b/c/init.lua'")},
                box.call("package.searchpath", s("a.b.c"), s("./?.lua;;/x/?/init.lua;")));
        assertArrayEquals(new Object[] {null, s("\n\tno file 'a.b'\n\tno file 'a.b.a.b'")},
                box.call("package.searchpath", s("a.b"), s("?;?.?"), s(""), s("-")));
        assertArrayEquals(new Object[] {null, s("\n\tno file 'a::b'")},
                box.call("package.searchpath", s("a.b"), s("?"), s("."), s("::")));
        assertArrayEquals(new Object[] {null, s("")}, box.call("package.searchpath", s("a"), s(";;")));
        assertEquals("bad argument #2 to 'package.searchpath' (string expected, got no value)",
                box.error("package.searchpath", s("a")));
    }

    @Test
    void notFoundMessage() {
        assertEquals("module 'nope' not found:\n\tno field package.preload['nope']\n\tno module 'nope' in host resolver",
                box.error("require", s("nope")));
    }

    @Test
    void preloadLoaderGetsNameAndResultIsCached() {
        int[] runs = {0};
        LuaTable preload = (LuaTable) pkg().get(s("preload"));
        preload.put(s("m"), Builtin.of("m", c -> {
            runs[0]++;
            log.add("loader " + c.arg(1) + " " + c.arg(2));
            return 0;
        }));
        assertEquals(true, box.call1("require", s("m")));
        assertEquals(true, box.call1("require", s("m")));
        assertEquals(1, runs[0]);
        assertEquals(List.of("loader m null"), log);
        preload.put(s("n"), Builtin.of("n", c -> c.ret(false)));
        assertEquals(false, box.call1("require", s("n")));
        assertEquals(false, ((LuaTable) pkg().get(s("loaded"))).get(s("n")));
    }

    @Test
    void alreadyLoadedModulesAreReturned() {
        assertSame(box.globals.get(s("math")), box.call1("require", s("math")));
        assertSame(pkg(), box.call1("require", s("package")));
    }

    @Test
    void hostModulesAreCompiledByTheVmLoad() {
        hostModule("util", "return util-module");
        assertEquals(s("util-module"), box.call1("require", s("util")));
        assertEquals(s("util-module"), box.call1("require", s("util")));
        assertEquals(List.of("load return util-module as @util mode t", "run util util"), log);
        hostModule("empty", "return nothing");
        assertEquals(true, box.call1("require", s("empty")));
    }

    @Test
    void hostModuleSyntaxErrors() {
        hostModule("bad", "! broken");
        assertEquals("error loading module 'bad' from host resolver:\n\t[string]:1: unexpected symbol",
                box.error("require", s("bad")));
    }

    @Test
    void withoutACompilerHostModulesFailCleanly() {
        FakeSandbox bare = new FakeSandbox().install(new PackageLibrary());
        bare.host.modules.put("x", "return 1".getBytes(StandardCharsets.UTF_8));
        assertEquals("error loading module 'x' from host resolver:\n\tno compiler in this sandbox",
                bare.error("require", s("x")));
    }

    @Test
    void preloadWinsOverHost() {
        hostModule("both", "return host");
        ((LuaTable) pkg().get(s("preload"))).put(s("both"), Builtin.of("p", c -> c.ret(s("preloaded"))));
        assertEquals(s("preloaded"), box.call1("require", s("both")));
    }

    @Test
    void searchersAreAPlainTable() {
        LuaTable searchers = (LuaTable) pkg().get(s("searchers"));
        searchers.putInt(3, Builtin.of("mine", c -> c.ret(s("\n\tnot in mine"))));
        assertEquals("module 'q' not found:\n\tno field package.preload['q']\n\tno module 'q' in host resolver\n\tnot in mine",
                box.error("require", s("q")));
        searchers.putInt(1, Builtin.of("first", c -> c.ret(Builtin.of("ld", k -> k.ret(k.arg(2))), s("extra"))));
        assertEquals(s("extra"), box.call1("require", s("q")));
        pkg().put(s("searchers"), 1L);
        assertEquals("'package.searchers' must be a table", box.error("require", s("zz")));
    }

    @Test
    void requireArgumentErrors() {
        assertEquals("bad argument #1 to 'require' (string expected, got no value)", box.error("require"));
        assertEquals(true, box.call1("require", LuaString.of("math")) instanceof LuaTable);
    }
}
