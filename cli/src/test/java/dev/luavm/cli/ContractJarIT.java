package dev.luavm.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code java -jar luavm.jar} with the contract commands: the JSON Schema validator inside logs
 * through SLF4J, which has no provider in the jar, and must not print SLF4J's "no providers"
 * notice (or anything else) on stderr.
 */
@Timeout(120)
class ContractJarIT {
    @Test
    void contractCommandsPrintNothingFromSlf4j() throws Exception {
        String jar = System.getProperty("luavm.jar"); // set by the integration-test execution only
        Assumptions.assumeTrue(jar != null, "runs in the integration-test phase, once the jar is built");
        Path example = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent().resolve("examples/invoice-contract");
        assertTrue(Files.isRegularFile(example.resolve("contract.yaml")), example.toString());
        for (List<String> args : List.of(List.of("contract", "show", "contract.yaml"), List.of("contract", "check", "contract.yaml"),
                List.of("run", "--contract", "contract.yaml", "--input", "input.json", "normalize.lua"))) {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).directory(example.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err;
            try {
                err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            } finally {
                p.destroyForcibly();
            }
            assertEquals(0, p.exitValue(), args + ": " + err);
            assertFalse(err.contains("SLF4J"), args + ": " + err);
            assertEquals("", err, args.toString());
        }
    }
}
