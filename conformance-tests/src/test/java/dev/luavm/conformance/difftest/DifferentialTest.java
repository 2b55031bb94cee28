package dev.luavm.conformance.difftest;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * luavm against PUC-Rio Lua 5.3 on generated programs. By default (CI) the programs of seeds
 * 1..300, well under a minute; {@code -Ddifftest.seed=S -Ddifftest.count=N} runs others
 * (see {@code conformance-tests/DIFFTEST.md}). Mismatches are shrunk into
 * {@code target/difftest-mismatches/seed-N.lua}. Seeds listed with a reason in
 * {@code difftest/known-mismatches.txt} are not run; each names a reported bug.
 * Skipped when {@code lua5.3} is not on the PATH.
 */
class DifferentialTest {
    static final long DEFAULT_SEED = 1;
    static final int DEFAULT_COUNT = 300;

    @Test
    void luavmPrintsWhatLua53Prints() {
        Assumptions.assumeTrue(ReferenceLua.available(),
                "lua5.3 (PUC-Rio reference) is not on the PATH: differential test skipped");
        long seed = Long.getLong("difftest.seed", DEFAULT_SEED);
        int count = Integer.getInteger("difftest.count", DEFAULT_COUNT);
        Map<Long, String> known = knownMismatches();
        Path out = Path.of("target", "difftest-mismatches");
        DifferentialRunner runner = new DifferentialRunner(new ReferenceLua(), new LuavmExecutor(), out,
                Integer.getInteger("difftest.shrinks", 20), System.out::println);
        long start = System.nanoTime();
        DifferentialRunner.Report[] report = new DifferentialRunner.Report[1];
        Runnable run = () -> report[0] = runner.run(seed, count, 250, known.keySet());
        if (count <= DEFAULT_COUNT) {
            Assertions.assertTimeoutPreemptively(Duration.ofSeconds(110), run::run);
        } else {
            run.run();
        }
        DifferentialRunner.Report r = report[0];
        String summary = String.format("difftest: seeds %d..%d: %d programs compared, %d stopped by a limit, "
                        + "%d known (skipped), %d mismatches in %d groups, %.1f s",
                seed, seed + count - 1, r.compared(), r.limited(),
                known.keySet().stream().filter(s -> s >= seed && s < seed + count).count(),
                r.mismatches().size(), r.signatures().size(), (System.nanoTime() - start) / 1e9);
        System.out.println(summary);
        r.signatures().forEach((sig, n) -> System.out.println("  " + n + " x " + sig));
        assertTrue(r.mismatches().isEmpty(), summary + "\n" + r.mismatches().stream()
                .map(m -> "seed " + m.seed() + ": " + m.signature() + (m.file() != null ? " (" + m.file() + ")" : ""))
                .collect(Collectors.joining("\n")));
    }

    /** {@code SEED reason} lines of difftest/known-mismatches.txt; # starts a comment. */
    static Map<Long, String> knownMismatches() {
        Map<Long, String> known = new HashMap<>();
        try (InputStream in = DifferentialTest.class.getResourceAsStream("/difftest/known-mismatches.txt")) {
            if (in == null) return known;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] f = line.split("\\s+", 2);
                if (f.length < 2) throw new IllegalStateException("known mismatch without a reason: " + line);
                known.put(Long.parseLong(f[0]), f[1]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return known;
    }
}
