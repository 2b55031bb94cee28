package dev.luavm.conformance.difftest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Runs generated programs on the reference and on luavm and compares what they print and the
 * uncaught error message. Programs run in batches: one reference process and one pass of the
 * subject per batch, the two sides in parallel. A mismatch is shrunk (statements dropped while it
 * persists) and written to {@code outDir/seed-N.lua}; only the first mismatch of each
 * {@linkplain #signature signature} is shrunk, so a common bug does not cost hours.
 */
final class DifferentialRunner {
    /** Chunk name on both sides: messages read {@code prog.lua:LINE:} as with {@code lua5.3 prog.lua}. */
    static final String CHUNK = "@prog.lua";

    record Mismatch(long seed, String signature, Path file) {}

    record Report(int programs, int compared, int limited, List<Mismatch> mismatches, Map<String, Integer> signatures) {}

    private final Executor reference;
    private final Executor subject;
    private final Path outDir;
    private final int maxShrinks;
    private final Consumer<String> log;
    private final java.util.Set<ProgramGenerator.Feature> avoid;

    DifferentialRunner(Executor reference, Executor subject, java.util.Set<ProgramGenerator.Feature> avoid,
                       Path outDir, int maxShrinks, Consumer<String> log) {
        this.avoid = avoid;
        this.reference = reference;
        this.subject = subject;
        this.outDir = outDir;
        this.maxShrinks = maxShrinks;
        this.log = log;
    }

    /** Runs programs {@code firstSeed .. firstSeed + count - 1}, skipping {@code excluded} seeds. */
    Report run(long firstSeed, int count, int batchSize, java.util.Set<Long> excluded) {
        int compared = 0, limited = 0, shrunk = 0;
        List<Mismatch> mismatches = new ArrayList<>();
        Map<String, Integer> signatures = new LinkedHashMap<>();
        for (int start = 0; start < count; start += batchSize) {
            int n = Math.min(batchSize, count - start);
            List<Long> seeds = new ArrayList<>();
            List<Node> trees = new ArrayList<>();
            List<String> sources = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                long seed = firstSeed + start + k;
                if (excluded.contains(seed)) continue;
                Node tree = ProgramGenerator.generate(seed, avoid);
                seeds.add(seed);
                trees.add(tree);
                sources.add(ProgramGenerator.render(tree));
            }
            CompletableFuture<List<Outcome>> refFuture = CompletableFuture.supplyAsync(() -> reference.runAll(sources, CHUNK));
            List<Outcome> got = subject.runAll(sources, CHUNK);
            List<Outcome> want = refFuture.join();
            for (int k = 0; k < seeds.size(); k++) {
                Outcome w = want.get(k), g = got.get(k);
                if (w.limit() || g.limit()) {
                    limited++;
                    continue;
                }
                compared++;
                if (w.sameAs(g)) continue;
                String sig = signature(w, g);
                int seen = signatures.merge(group(sig), 1, Integer::sum);
                Path file = null;
                if (seen == 1 && shrunk < maxShrinks) {
                    shrunk++;
                    file = record(seeds.get(k), trees.get(k), w, g);
                }
                mismatches.add(new Mismatch(seeds.get(k), sig, file));
                log.accept("MISMATCH seed " + seeds.get(k) + ": " + sig + (file != null ? " -> " + file : ""));
            }
            if (count > batchSize) {
                log.accept("difftest: " + (start + n) + "/" + count + " programs, " + mismatches.size() + " mismatches");
            }
        }
        return new Report(count, compared, limited, mismatches, signatures);
    }

    /**
     * True when the program still runs differently on the two sides (and neither hit a limit),
     * for a reason other than printing an address: generated programs never print one, but
     * dropping a statement can remove the {@code __tostring} that hid it, and a shrink that
     * kept such a candidate would drift from the real mismatch to this harmless one.
     */
    boolean mismatches(String program) {
        Outcome w = reference.run(program, CHUNK);
        Outcome g = subject.run(program, CHUNK);
        return !w.limit() && !g.limit() && !w.sameAs(g) && !ADDRESS.matcher(w.stdoutText()).find();
    }

    /** How lua5.3 prints a reference value's identity ({@code table: 0x55...}), in either case. */
    static final Pattern ADDRESS = Pattern.compile("(?i)(table|function|thread|userdata): 0x[0-9a-f]+");

    /**
     * Drops statements while the mismatch persists: each droppable node in pre-order is removed
     * if the program without it still mismatches (at most {@code maxTries} runs).
     */
    Node shrink(Node program, int maxTries) {
        Node current = program;
        int tries = 0;
        boolean progress = true;
        while (progress && tries < maxTries) {
            progress = false;
            int i = 0;
            while (tries < maxTries) {
                List<Node> droppable = new ArrayList<>();
                current.collectDroppable(droppable);
                if (i >= droppable.size()) break;
                Node candidate = current.without(droppable.get(i));
                tries++;
                if (mismatches(ProgramGenerator.render(candidate))) {
                    current = candidate;
                    progress = true;
                } else {
                    i++;
                }
            }
        }
        return current;
    }

    private Path record(long seed, Node tree, Outcome want, Outcome got) {
        Node small = shrink(tree, 400);
        String source = ProgramGenerator.render(small);
        Outcome w = reference.run(source, CHUNK), g = subject.run(source, CHUNK);
        StringBuilder sb = new StringBuilder(source);
        sb.append("-- difftest seed ").append(seed).append(": shrunk from ").append(tree.size())
                .append(" to ").append(small.size()).append(" nodes\n");
        sb.append("-- ").append(signature(w, g).replace("\n", "\\n")).append('\n');
        try {
            Files.createDirectories(outDir);
            Path file = outDir.resolve("seed-" + seed + ".lua");
            Files.writeString(file, sb, StandardCharsets.ISO_8859_1);
            Files.writeString(outDir.resolve("seed-" + seed + ".orig.lua"), ProgramGenerator.render(tree),
                    StandardCharsets.ISO_8859_1);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first difference: the first differing output line, or the error messages. */
    static String signature(Outcome want, Outcome got) {
        String[] w = want.stdoutText().split("\n", -1), g = got.stdoutText().split("\n", -1);
        for (int i = 0; i < Math.min(w.length, g.length); i++) {
            if (!w[i].equals(g[i])) {
                return "line " + (i + 1) + ": lua5.3 [" + cut(w[i]) + "] luavm [" + cut(g[i]) + "]";
            }
        }
        if (w.length != g.length) {
            return "output length: lua5.3 " + (w.length - 1) + " lines, luavm " + (g.length - 1)
                    + " lines; errors: lua5.3 [" + cut(want.error()) + "] luavm [" + cut(got.error()) + "]";
        }
        return "error: lua5.3 [" + cut(want.error()) + "] luavm [" + cut(got.error()) + "]";
    }

    /** The signature with numbers and generated names blurred, to group mismatches of one cause. */
    static String group(String signature) {
        return signature.replaceAll("\\b[a-zA-Z]+[0-9]+\\b", "v").replaceAll("[0-9]+", "#");
    }

    private static String cut(String s) {
        if (s == null) return "none";
        return s.length() > 160 ? s.substring(0, 157) + "..." : s;
    }
}
