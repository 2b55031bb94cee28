package dev.luavm.api;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * VM rule 7 without configuration: a sandbox built with nothing but capabilities and limits
 * (no seed, no clock) prints the same bytes and uses the same gas in every fresh JVM, through
 * {@code math.random}, {@code table.sort}'s pivots (10,000 random keys, which once varied by
 * some 20,000 gas from run to run), {@code pairs} over reference keys and {@code tostring} ids;
 * a sandbox that asks for entropy does not.
 */
class DeterministicDefaultsTest {
    static final String SCRIPT = """
            local keys, compared = {}, 0
            for i = 1, 10000 do keys[i] = math.random(1, 1000000) end
            table.sort(keys, function(a, b) compared = compared + 1 return a < b end)
            local t = {}
            for i = 1, 50 do t[{}] = i end
            local order = {}
            for k, v in pairs(t) do order[#order + 1] = v end
            print(compared, keys[1], keys[10000], math.random(), table.concat(order, ','), tostring({}))
            """;

    /** Run in a child JVM: prints the script's output and the gas it used. */
    public static void main(String[] args) {
        try (Sandbox sb = args.length > 0 && args[0].equals("entropy")
                ? LuaVM.create().sandbox().randomSeedFromEntropy().build()
                : LuaVM.newSandbox(Capabilities.standard(), Limits.defaults())) {
            sb.eval("job.lua", SCRIPT);
            System.out.print(sb.output() + "gas " + sb.usage().gas() + "\n");
        }
    }

    @Test
    void tenFreshProcessesUseTheSameGasAndPrintTheSameBytes() throws Exception {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10; i++) seen.add(child());
        assertEquals(1, seen.size(), "outputs: " + seen);
        String only = seen.iterator().next();
        assertTrue(only.matches("(?s)\\d+\\t\\d+\\t\\d+\\t0\\.\\d+\\t[\\d,]+\\ttable: 0x[0-9a-f]+\\ngas \\d+\\n"), only);
        // and the same in this JVM, in a second sandbox
        try (Sandbox sb = LuaVM.newSandbox(Capabilities.standard(), Limits.defaults())) {
            sb.eval("job.lua", SCRIPT);
            assertEquals(only, sb.output() + "gas " + sb.usage().gas() + "\n");
        }
    }

    @Test
    void entropyIsWhatTheHostAsksFor() throws Exception {
        assertNotEquals(child("entropy"), child("entropy"));
    }

    private static String child(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                DeterministicDefaultsTest.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        byte[] out;
        try {
            out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
        } finally {
            p.destroyForcibly(); // nothing left behind, whatever happened
        }
        assertEquals(0, p.exitValue(), "child failed");
        return new String(out, StandardCharsets.UTF_8);
    }
}
