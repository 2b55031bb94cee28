package dev.luavm.conformance.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Checks the differential tester's own machinery against the reference: generated programs are
 * deterministic, valid, and mostly run to the end; the batching driver gives what
 * {@code lua5.3 prog.lua} gives.
 */
class GeneratorSanityTest {
    @Test
    void sameSeedSameProgram() {
        for (long seed = 0; seed < 50; seed++) {
            assertEquals(ProgramGenerator.render(ProgramGenerator.generate(seed)),
                    ProgramGenerator.render(ProgramGenerator.generate(seed)));
        }
    }

    @Test
    void batchDriverMatchesStandaloneRuns() {
        Assumptions.assumeTrue(ReferenceLua.available(), "lua5.3 is not on the PATH: skipped");
        List<String> programs = new ArrayList<>();
        for (long seed = 1000; seed < 1040; seed++) programs.add(ProgramGenerator.render(ProgramGenerator.generate(seed)));
        List<Outcome> batch = new ReferenceLua().runAll(programs, DifferentialRunner.CHUNK);
        List<Outcome> alone = new StandaloneLua().runAll(programs, DifferentialRunner.CHUNK);
        for (int i = 0; i < programs.size(); i++) {
            Outcome b = batch.get(i), a = alone.get(i);
            assertEquals(a.stdoutText(), b.stdoutText(), "stdout of seed " + (1000 + i));
            String firstLine = b.error() == null ? null : b.error().split("\n", 2)[0];
            assertEquals(a.error(), firstLine, "error of seed " + (1000 + i));
        }
    }

    @Test
    void programsAreValidAndMostlyRunToTheEnd() {
        Assumptions.assumeTrue(ReferenceLua.available(), "lua5.3 is not on the PATH: skipped");
        List<String> programs = new ArrayList<>();
        for (long seed = 0; seed < 300; seed++) programs.add(ProgramGenerator.render(ProgramGenerator.generate(seed)));
        List<Outcome> out = new ReferenceLua().runAll(programs, DifferentialRunner.CHUNK);
        int errors = 0;
        long bytes = 0;
        for (int i = 0; i < out.size(); i++) {
            Outcome o = out.get(i);
            assertTrue(!o.limit(), "seed " + i + " hit the instruction limit");
            if (o.error() != null) {
                errors++;
                assertTrue(!o.error().contains("near") , "seed " + i + " has a syntax error: " + o.error());
            }
            bytes += o.stdout().length;
        }
        System.out.println("300 programs: " + errors + " ended with an uncaught error, " + bytes + " bytes printed");
        assertTrue(errors < 40, errors + " of 300 programs ended with an uncaught error");
    }

    @Test
    void shrinkingKeepsRealMismatchesAndDropsAddressPrints() {
        Assumptions.assumeTrue(ReferenceLua.available(), "lua5.3 is not on the PATH: skipped");
        DifferentialRunner runner = new DifferentialRunner(new ReferenceLua(), new LuavmExecutor(),
                java.util.EnumSet.noneOf(ProgramGenerator.Feature.class), java.nio.file.Path.of("target"), 0, m -> {});
        // the documented pow last-bit difference: a real mismatch the shrinker must keep
        assertTrue(runner.mismatches("print(string.format('%a', 7.0 ^ 101))"));
        // both sides print a table's address: different text, but never a finding
        assertTrue(!runner.mismatches("print({})"));
        assertTrue(!runner.mismatches("print((string.gsub(tostring({}), 'x', string.upper)))"));
        assertTrue(!runner.mismatches("print(1 + 1)"));
    }
}
