package dev.luavm.conformance.difftest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The reference run the slow, obvious way: each program written to {@code prog.lua} and run as
 * {@code lua5.3 prog.lua} from its directory. Used only to check that the batching driver of
 * {@link ReferenceLua} changes nothing; the error message is the first line of stderr without
 * the {@code lua5.3: } prefix, as in the corpus.
 */
final class StandaloneLua implements Executor {
    @Override
    public List<Outcome> runAll(List<String> programs, String chunkName) {
        if (!chunkName.startsWith("@")) throw new IllegalArgumentException("file chunk names only: " + chunkName);
        List<Outcome> out = new ArrayList<>();
        try {
            Path dir = Files.createTempDirectory("difftest-standalone");
            Path file = dir.resolve(chunkName.substring(1));
            for (String p : programs) {
                Files.writeString(file, p, StandardCharsets.ISO_8859_1);
                Process proc = new ProcessBuilder(ReferenceLua.BINARY, file.getFileName().toString())
                        .directory(dir.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
                byte[] stderrBytes;
                byte[] stdout;
                try (var err = proc.getErrorStream(); var o = proc.getInputStream()) {
                    var errFuture = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return err.readAllBytes();
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
                    stdout = o.readAllBytes();
                    stderrBytes = errFuture.join();
                }
                if (!proc.waitFor(60, TimeUnit.SECONDS)) {
                    proc.destroyForcibly();
                    out.add(Outcome.limited(stdout));
                    continue;
                }
                String stderr = new String(stderrBytes, StandardCharsets.ISO_8859_1);
                String error = null;
                if (proc.exitValue() != 0) {
                    String first = stderr.split("\n", 2)[0];
                    error = first.startsWith(ReferenceLua.BINARY + ": ") ? first.substring(ReferenceLua.BINARY.length() + 2) : first;
                }
                out.add(new Outcome(stdout, error, false));
            }
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return out;
    }
}
