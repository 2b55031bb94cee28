package dev.luavm.tier;

import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.bytecode.Prototype;
import dev.luavm.vm.Tiering;
import dev.luavm.vm.tier.FunctionCompiler;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Code generation that runs out of Java stack (reached deep in a direct call or re-entry) is
 * not a verdict on the function: Tiering gives the sandbox's budget back, caches nothing, and a
 * later entry compiles it. The generator here overflows on purpose for its first attempts.
 */
class GenerationStackOverflowTest {
    /** The real generator, overflowing on the first {@code overflows} attempts for the function defined on line 2. */
    static final class Overflowing implements FunctionCompiler {
        final FunctionCompiler real = Tiering.findCompiler(GenerationStackOverflowTest.class.getClassLoader());
        final AtomicInteger attempts = new AtomicInteger();
        final int overflows;

        Overflowing(int overflows) {
            this.overflows = overflows;
        }

        @Override
        public byte[] compile(Prototype p, String internalName) {
            if (p.lineDefined == 2 && attempts.incrementAndGet() <= overflows) throw new StackOverflowError();
            return real.compile(p, internalName);
        }
    }

    record Run(String output, long gas, java.util.List<String> compiled) {}

    static Run run(Tier tier, FunctionCompiler compiler, String src) {
        LuaVM vm = LuaVM.builder().tier(tier).functionCompiler(compiler).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Sandbox sb = vm.sandbox().output(out).build()) {
            sb.run(vm.compile("@g.lua", src.getBytes(StandardCharsets.UTF_8)));
            return new Run(out.toString(StandardCharsets.ISO_8859_1), sb.usage().gas(), vm.compiledFunctions());
        }
    }

    static final String SMALL = """
            local s = 0
            local function f(n) return n + 1 end
            for i = 1, 3000 do s = f(s) end
            print(s)
            """;

    @Test
    void overflowInGenerationIsRetriedLaterAndCompiles() {
        for (Tier tier : new Tier[] {Tier.AUTO, Tier.COMPILE_ALL}) {
            Overflowing gen = new Overflowing(3);
            Run r = run(tier, gen, SMALL);
            Run interp = run(Tier.INTERP, new Overflowing(0), SMALL);
            assertEquals(interp.output(), r.output(), tier + " output");
            assertEquals(interp.gas(), r.gas(), tier + " gas");
            assertEquals(4, gen.attempts.get(), tier + ": three overflows, then compiled (each retry after 500 entries)");
            assertTrue(r.compiled().contains("function <g.lua:2>"), tier + " " + r.compiled());
        }
    }

    @Test
    void overflowsDoNotSpendTheSandboxBudget() {
        // ~1,000 instructions: 25 unrefunded attempts would spend more than the 20,000 budget
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 330; i++) body.append("x = x + ").append(i).append(" ");
        String src = "local s = 0\nlocal function big(skip) if skip then return 1 end local x = 0 " + body
                + " return x end\nfor i = 1, 30 * 500 do s = s + big(true) end\nprint(s)\n";
        Overflowing gen = new Overflowing(25);
        Run r = run(Tier.AUTO, gen, src);
        assertEquals("15000\n", r.output());
        assertTrue(26 * 1_000 > Tiering.SANDBOX_BUDGET + 1_000, "the function is large enough for the test");
        assertEquals(26, gen.attempts.get(), "25 overflows, then compiled");
        assertTrue(r.compiled().contains("function <g.lua:2>"), r.compiled().toString());
    }
}
