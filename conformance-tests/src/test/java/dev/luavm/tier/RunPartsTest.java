package dev.luavm.tier;

import dev.luavm.Limits;
import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.jit.AsmFunctionCompiler;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Functions too large for one method HotSpot compiles get {@code run} split into part methods
 * (jit {@code RunParts}): every method stays under the limit, and output, errors (message and
 * position) and gas are the interpreter's wherever control crosses parts, a coroutine yields
 * inside one, or gas runs out in one.
 */
class RunPartsTest {
    /** A main chunk of {@code blocks} top-level statement groups, loops among them, with a coroutine of the same shape. */
    static String bigChunk(int blocks, String tail) {
        StringBuilder src = new StringBuilder("local t, acc, log = {a = 1, b = 2.5}, 0, {}\n");
        src.append("local function body(yield)\n  local s = 0\n");
        for (int j = 0; j < blocks; j++) {
            src.append("  s = s + (t.a or 0) * ").append(j).append(" - (s // 3) % 7; t.b = t.b * 0.5 + ").append(j).append('\n');
            if (j % 10 == 5) src.append("  if yield then coroutine.yield(s) end\n");
            if (j % 10 == 9) src.append("  for i = 1, 5 do s = s + i % 3 end\n");
        }
        src.append("  return s\nend\n");
        for (int j = 0; j < blocks; j++) {
            src.append("acc = acc + (t.a or 0) * ").append(j).append(" - (acc // 3) % 7; t['k").append(j % 13)
                    .append("'] = acc % 1000\n");
            if (j % 10 == 3) src.append("for i = 1, 20 do acc = acc + i % 5; if acc % 2 == 0 then acc = acc + 1 end end\n");
            if (j % 10 == 7) src.append("do local n = 0 while n < 7 do n = n + 1; acc = acc + n end end\n");
            if (j % 20 == 11) src.append("for k, v in pairs({x = 1, y = 2}) do acc = acc + v end\n");
            if (j % 20 == 15) src.append("log[#log + 1] = string.format('%d', acc % 97)\n");
        }
        src.append("print(acc, t.b, table.concat(log, ','), body(false))\n");
        src.append("local co = coroutine.wrap(body)\n");
        src.append("for _ = 1, 4 do print(co(true)) end\n");
        src.append(tail);
        return src.toString();
    }

    private static CompiledTierTest.Outcome same(String name, String src, Limits limits) {
        CompiledTierTest.Outcome i = CompiledTierTest.run(CompiledTierTest.INTERP, name, src.getBytes(), limits);
        CompiledTierTest.Outcome c = CompiledTierTest.run(CompiledTierTest.COMPILED, name, src.getBytes(), limits);
        CompiledTierTest.Outcome a = CompiledTierTest.run(CompiledTierTest.AUTO, name, src.getBytes(), limits);
        assertEquals(i.output(), c.output(), "output");
        assertEquals(i.error(), c.error(), "error");
        assertEquals(i.gas(), c.gas(), "gas");
        assertEquals(i, a, "auto");
        return c;
    }

    @Test
    void largeFunctionsAreSplitIntoPartsUnderTheLimit() throws Exception {
        Prototype main = LuaCompiler.compile(bigChunk(80, "").getBytes(), "@big");
        AsmFunctionCompiler gen = new AsmFunctionCompiler();
        for (Prototype p : new Prototype[] {main, main.protos[0]}) {
            byte[] b = gen.compile(p, "dev/luavm/vm/SizeProbe");
            assertNotNull(b);
            Map<String, Integer> sizes = RunSize.methods(b);
            assertTrue(sizes.containsKey("part1"), "split: " + sizes);
            for (Map.Entry<String, Integer> e : sizes.entrySet()) {
                assertTrue(e.getValue() <= AsmFunctionCompiler.INLINE_LIMIT, e + " of " + sizes);
            }
        }
    }

    @Test
    void oopMethodsMainChunkFitsHotSpotsLimit() throws Exception {
        Path program = Path.of("..", "benchmarks", "programs", "oop_methods.lua");
        Prototype main = LuaCompiler.compile(Files.readAllBytes(program), "@oop_methods.lua");
        Map<String, Integer> sizes = RunSize.methods(new AsmFunctionCompiler().compile(main, "dev/luavm/vm/SizeProbe"));
        for (Map.Entry<String, Integer> e : sizes.entrySet()) {
            assertTrue(e.getValue() <= AsmFunctionCompiler.INLINE_LIMIT, e + " of " + sizes);
        }
        String small = Files.readString(program).replace("or 1200000", "or 3000");
        assertNull(same("oop_methods.lua", small, Limits.defaults()).error());
    }

    @Test
    void splitCodeAgreesWithTheInterpreterAcrossPartsAndYields() {
        String out = same("parts.lua", bigChunk(80, ""), Limits.defaults()).output();
        assertEquals(5, out.split("\n").length, out);
    }

    @Test
    void errorsInALaterPartKeepTheirPositionAndMessage() {
        CompiledTierTest.Outcome o = same("parts_err.lua", bigChunk(80, "local z\nprint(z.field)\n"), Limits.defaults());
        assertTrue(o.error() != null && o.error().contains("attempt to index a nil value (local 'z')"), o.error());
    }

    @Test
    void gasRunsOutAtTheSameInstructionInEveryPart() {
        long total = CompiledTierTest.run(CompiledTierTest.INTERP, "parts_gas.lua", bigChunk(80, "").getBytes(),
                Limits.defaults()).gas();
        int exhausted = 0;
        for (long gas = 200; gas < total; gas += total / 23) {
            CompiledTierTest.Outcome o = same("parts_gas.lua", bigChunk(80, ""), Limits.defaults().withGas(gas));
            if (o.error() != null && o.error().contains("gas")) exhausted++;
        }
        assertTrue(exhausted >= 20, "runs that ran out of gas: " + exhausted);
    }
}
