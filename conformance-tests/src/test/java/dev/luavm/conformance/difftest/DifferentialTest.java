package dev.luavm.conformance.difftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * luavm against PUC-Rio Lua 5.3 on generated programs. By default (CI) the programs of seeds
 * 1..300 in the default tier and 300 more with every function compiled, well under a minute;
 * {@code -Ddifftest.seed=S -Ddifftest.count=N} runs others, in the tier
 * {@code -Dluavm.test.tier} names (see {@code conformance-tests/DIFFTEST.md}). Mismatches are shrunk into
 * {@code target/difftest-mismatches/seed-N.lua}. Known, reported luavm bugs are kept out as
 * {@code difftest/known-mismatches.txt} says: an {@code avoid} line leaves a construct out of
 * every program, a {@code seed} line skips one program; each names the regression script in
 * {@code corpus/difftest/} that pins the bug. {@code -Ddifftest.avoidKnown=false} ignores the
 * file. Skipped when {@code lua5.3} is not on the PATH.
 */
class DifferentialTest {
    static final long DEFAULT_SEED = 1;
    static final int DEFAULT_COUNT = 300;
    /**
     * The compiled tier's batch in every run. Small: compile-all defines a hidden class for every
     * function of every program (the JVM's class definition and verification are most of the
     * time), about 20 times the interpreter's cost per program, so 300 take some 15-30 s here.
     */
    static final long COMPILED_SEED = 1_000_001;
    static final int COMPILED_COUNT = 300;

    /** The parsed known-mismatches file. */
    record Known(Set<ProgramGenerator.Feature> avoid, Set<Long> seeds, List<String> lines) {}

    @Test
    void luavmPrintsWhatLua53Prints() {
        long seed = Long.getLong("difftest.seed", DEFAULT_SEED);
        int count = Integer.getInteger("difftest.count", DEFAULT_COUNT);
        compare(new LuavmExecutor(), seed, count, count <= DEFAULT_COUNT);
    }

    /**
     * The compiled tier on generated programs in every test run: {@value #COMPILED_COUNT} programs
     * (seeds from {@value #COMPILED_SEED}) with every function compiled on first entry, each also
     * run interpreted, where output, error and gas must be the same ({@link LuavmExecutor}).
     * Skipped when {@code -Ddifftest.count} asks for a batch of one's own (then
     * {@code -Dluavm.test.tier=compile-all} chooses the tier of that batch).
     */
    @Test
    void compiledTierPrintsWhatLua53Prints() {
        Assumptions.assumeTrue(System.getProperty("difftest.count") == null,
                "a batch of one's own (-Ddifftest.count) runs in the tier -Dluavm.test.tier names");
        compare(new LuavmExecutor(Tier.COMPILE_ALL), COMPILED_SEED, COMPILED_COUNT, true);
    }

    /**
     * {@code bounded}: CI's batches, which fail rather than hang the build. The bound is a hang
     * guard, not a speed goal (each program already runs under its own limits); on a machine at
     * load 19 one batch took more than 110 s.
     */
    private static void compare(LuavmExecutor luavm, long seed, int count, boolean bounded) {
        Assumptions.assumeTrue(ReferenceLua.available(),
                "lua5.3 (PUC-Rio reference) is not on the PATH: differential test skipped");
        Known known = Boolean.parseBoolean(System.getProperty("difftest.avoidKnown", "true"))
                ? knownMismatches() : new Known(EnumSet.noneOf(ProgramGenerator.Feature.class), Set.of(), List.of());
        known.lines().forEach(l -> System.out.println("difftest: known: " + l));
        Path out = Path.of("target", "difftest-mismatches");
        DifferentialRunner runner = new DifferentialRunner(new ReferenceLua(), luavm, known.avoid(), out,
                Integer.getInteger("difftest.shrinks", 20), System.out::println);
        long start = System.nanoTime();
        DifferentialRunner.Report[] report = new DifferentialRunner.Report[1];
        Runnable run = () -> report[0] = runner.run(seed, count, 250, known.seeds());
        if (bounded) {
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(600), run::run);
        } else {
            run.run();
        }
        DifferentialRunner.Report r = report[0];
        String summary = String.format("difftest: tier %s: seeds %d..%d: %d programs compared, %d stopped by a limit, "
                        + "%d known (skipped), %d mismatches in %d groups, %.1f s",
                luavm.tier(), seed, seed + count - 1, r.compared(), r.limited(),
                known.seeds().stream().filter(s -> s >= seed && s < seed + count).count(),
                r.mismatches().size(), r.signatures().size(), (System.nanoTime() - start) / 1e9);
        System.out.println(summary);
        r.signatures().forEach((sig, n) -> System.out.println("  " + n + " x " + sig));
        assertTrue(r.mismatches().isEmpty(), summary + "\n" + r.mismatches().stream()
                .map(m -> "seed " + m.seed() + ": " + m.signature() + (m.file() != null ? " (" + m.file() + ")" : ""))
                .collect(Collectors.joining("\n")));
    }

    @Test
    void everyKnownMismatchHasItsRegressionScript() {
        for (String line : knownMismatches().lines()) {
            String script = line.split("\\s+")[2];
            assertTrue(DifferentialTest.class.getResource("/corpus/difftest/" + script) != null,
                    "known-mismatches.txt names a missing script: corpus/difftest/" + script);
        }
    }

    /**
     * Lines {@code avoid FEATURE SCRIPT reason} and {@code seed N SCRIPT reason} of
     * difftest/known-mismatches.txt; # starts a comment.
     */
    static Known knownMismatches() {
        Set<ProgramGenerator.Feature> avoid = EnumSet.noneOf(ProgramGenerator.Feature.class);
        Set<Long> seeds = new HashSet<>();
        List<String> lines = new ArrayList<>();
        try (InputStream in = DifferentialTest.class.getResourceAsStream("/difftest/known-mismatches.txt")) {
            if (in == null) return new Known(avoid, seeds, lines);
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] f = line.split("\\s+", 4);
                if (f.length < 4) throw new IllegalStateException("known mismatch needs KIND VALUE SCRIPT reason: " + line);
                switch (f[0]) {
                    case "avoid" -> avoid.add(ProgramGenerator.Feature.valueOf(f[1]));
                    case "seed" -> seeds.add(Long.parseLong(f[1]));
                    default -> throw new IllegalStateException("known mismatch kind is avoid or seed: " + line);
                }
                lines.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Known(avoid, seeds, lines);
    }
}
