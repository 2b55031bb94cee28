package dev.luavm.conformance.difftest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The PUC-Rio reference: runs a batch of programs in one {@code lua5.3} process through
 * {@code difftest/driver.lua}, which loads each program as a separate chunk in fresh globals and
 * prints a separator record after its output. A batch that dies or times out is resumed after
 * the program it was running, which is reported as a {@linkplain Outcome#limit() limit}.
 */
final class ReferenceLua implements Executor {
    static final String BINARY = System.getProperty("difftest.lua", "lua5.3");
    private static final byte[] SEPARATOR = "\1DIFFTEST\1 ".getBytes(StandardCharsets.ISO_8859_1);
    private static final long BATCH_TIMEOUT_SECONDS = 120;

    /** True when the reference interpreter runs and is Lua 5.3. */
    static boolean available() {
        try {
            Process p = new ProcessBuilder(BINARY, "-v").redirectErrorStream(true).start();
            String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && version.startsWith("Lua 5.3");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public List<Outcome> runAll(List<String> programs, String chunkName) {
        List<Outcome> results = new ArrayList<>(programs.size());
        while (results.size() < programs.size()) {
            List<Outcome> batch = runBatch(programs.subList(results.size(), programs.size()), chunkName);
            results.addAll(batch);
            if (results.size() < programs.size() && batch.size() < programs.size()) {
                // the process died or hung in the program after the last complete record
                results.add(Outcome.limited(new byte[0]));
            }
        }
        return results;
    }

    private List<Outcome> runBatch(List<String> programs, String chunkName) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("difftest");
            Path driver = dir.resolve("driver.lua");
            try (InputStream in = ReferenceLua.class.getResourceAsStream("/difftest/driver.lua")) {
                Files.write(driver, in.readAllBytes());
            }
            ByteArrayOutputStream records = new ByteArrayOutputStream();
            for (String p : programs) {
                byte[] b = p.getBytes(StandardCharsets.ISO_8859_1);
                records.writeBytes((b.length + "\n").getBytes(StandardCharsets.ISO_8859_1));
                records.writeBytes(b);
            }
            Path input = dir.resolve("programs.bin");
            Files.write(input, records.toByteArray());
            Path stdout = dir.resolve("stdout");
            Process p = new ProcessBuilder(BINARY, driver.toString(), input.toString(), chunkName)
                    .directory(dir.toFile())
                    .redirectOutput(stdout.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            if (!p.waitFor(BATCH_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
            return parse(Files.readAllBytes(stdout), programs.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            deleteQuietly(dir);
        }
    }

    /** Splits the driver's output into outcomes; stops at the first incomplete record. */
    static List<Outcome> parse(byte[] out, int max) {
        List<Outcome> results = new ArrayList<>();
        int pos = 0;
        while (results.size() < max) {
            int sep = indexOf(out, SEPARATOR, pos);
            if (sep < 0) break;
            int nl = indexOf(out, new byte[]{'\n'}, sep);
            if (nl < 0) break;
            String[] head = new String(out, sep + SEPARATOR.length, nl - sep - SEPARATOR.length,
                    StandardCharsets.ISO_8859_1).split(" ");
            int len = Integer.parseInt(head[1]);
            if (nl + 1 + len + 1 > out.length) break;
            byte[] stdout = java.util.Arrays.copyOfRange(out, pos, sep);
            String msg = new String(out, nl + 1, len, StandardCharsets.ISO_8859_1);
            results.add(switch (head[0]) {
                case "ok" -> new Outcome(stdout, null, false);
                case "error" -> new Outcome(stdout, msg, false);
                default -> Outcome.limited(stdout);
            });
            pos = nl + 1 + len + 1;
        }
        return results;
    }

    private static int indexOf(byte[] hay, byte[] needle, int from) {
        outer:
        for (int i = from; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        return -1;
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) return;
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
