package dev.luavm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./luavm} launcher's first build, into a non-terminal: Maven 3.8 writes colour codes
 * even in batch mode, and the launcher keeps them out of logs and pipes. A stand-in {@code mvn}
 * that prints them and fails plays Maven; the launcher is a copy, so no real build runs.
 */
@Timeout(60)
class LauncherTest {
    @TempDir
    Path dir;

    @Test
    void theFirstBuildWritesNoEscapeCodesIntoAPipeAndKeepsMavensStatus() throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Files.copy(launcher(), root.resolve("luavm"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\nprintf '\\033[0m\\033[0m\\033[1;31m[ERROR]\\033[m boom\\n'\nexit 1\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb = new ProcessBuilder("bash", root.resolve("luavm").toString(), "-e", "print(1)");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        byte[] out;
        byte[] err;
        try {
            out = p.getInputStream().readAllBytes();
            err = p.getErrorStream().readAllBytes();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        String stderr = new String(err, StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), stderr);
        assertEquals(0, out.length);
        assertTrue(stderr.contains("[ERROR] boom\n"), stderr);
        assertTrue(stderr.endsWith("luavm: build failed\n"), stderr);
        assertFalse(stderr.contains("\u001b"), "escape codes in: " + stderr);
    }

    /** The repository's launcher: {@code luavm} beside the root pom, above this module. */
    static Path launcher() throws IOException {
        for (Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("luavm")) && Files.isRegularFile(p.resolve("pom.xml"))) return p.resolve("luavm");
        }
        throw new IOException("the luavm launcher was not found above " + System.getProperty("user.dir"));
    }
}
