package dev.luavm.stdlib.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.luavm.stdlib.Run;
import dev.luavm.stdlib.TestHost;
import dev.luavm.value.LuaString;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaState;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scripts under {@code src/test/resources/vm/} run against their {@code .expected} output, which
 * was produced by {@code lua5.3 -e PRELUDE script.lua} (PUC-Rio 5.3.6, the oracle). Addresses
 * ({@code 0x...}) are normalised. The prelude defines the few globals the scripts use.
 */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class VmScriptTest {
    static final String PRELUDE = "io_write = io and io.write or function(...) for i = 1, select('#', ...) do "
            + "local v = select(i, ...) __w(v) end end; math_maxint, math_minint, math_huge = "
            + "math.maxinteger, math.mininteger, math.huge; pairs_nil = nil";

    @ParameterizedTest
    @ValueSource(strings = {"arith", "errors", "meta", "co"})
    void matchesOracle(String name) throws Exception {
        String expected = read(name + ".expected");
        TestHost host = new TestHost();
        LuaState L = Run.newState(host);
        L.globals().put(LuaString.of("__w"), dev.luavm.value.Builtin.of("__w", c -> {
            Object v = c.arg(1);
            byte[] b = v instanceof Double d
                    ? dev.luavm.value.LuaNumbers.formatG(d, 14, false).getBytes(StandardCharsets.ISO_8859_1)
                    : c.checkString(1).toBytes(); // io.write writes floats with %.14g
            c.host().write(b, 0, b.length);
            return 0;
        }));
        L.call(L.load(PRELUDE.getBytes(StandardCharsets.UTF_8), "=prelude"));
        try {
            L.call(L.load(read(name + ".lua").getBytes(StandardCharsets.ISO_8859_1), "@" + name + ".lua"));
        } catch (LuaError e) {
            host.write(("lua5.3: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8), 0,
                    e.getMessage().length() + 8);
        }
        assertEquals(normalise(expected), normalise(host.output()));
    }

    static String normalise(String s) {
        return s.replaceAll("0x[0-9a-f]+", "ADDR");
    }

    static String read(String res) throws Exception {
        try (InputStream in = VmScriptTest.class.getResourceAsStream("/vm/" + res)) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
