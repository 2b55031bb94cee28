package dev.luavm.conformance.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.luavm.Capabilities;
import dev.luavm.CompiledChunk;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.OutputSink;
import dev.luavm.Sandbox;
import dev.luavm.conformance.TestTier;
import dev.luavm.vm.tier.Tier;
import java.time.Duration;

/**
 * Coverage-guided fuzzing of the VM and the standard library through the public API, with
 * small limits: whatever the bytes, a run must end normally or with a
 * {@link LuaScriptException} (which {@code LuaSyntaxException} is) or a
 * {@link LuaLimitException}. Anything else escaping, or a limit exception that stands for a
 * Java {@link StackOverflowError} or {@link OutOfMemoryError} the sandbox had to catch, is a
 * finding.
 *
 * <p>The runtime's tier is {@code -Dluavm.test.tier} ({@link TestTier}); when it compiles,
 * {@link #run} also runs each chunk in an interpreting twin runtime: how it ended (exception
 * class and message) and the gas used must be the same, and no generated class may have been
 * refused by the JVM.
 *
 * <p>{@link #run} takes the bytes as a chunk. {@link #patterns} runs {@code string.find},
 * {@code match}, {@code gsub} and {@code gmatch} with a fuzzed subject and pattern, and checks
 * that what {@code find} returns lies inside the subject.
 */
class SandboxFuzzTest {
    /** {@code -Dluavm.test.tier} (else the default); when it compiles, an interpreting twin checks each run */
    private static final LuaVM VM = TestTier.vm();
    private static final LuaVM TWIN = VM.tier() == Tier.INTERP ? null : LuaVM.builder().tier(Tier.INTERP).build();
    private static final Limits LIMITS = Limits.defaults()
            .withGas(200_000)
            .withMemory(8L << 20)
            .withCallDepth(200)
            .withOutput(64L << 10)
            .withTimeout(Duration.ofSeconds(2));

    private static final String PATTERN_CHUNK = String.join("\n",
            "local s, p = S, P",
            "local i, j = string.find(s, p)",
            "if i ~= nil then",
            "  if not (i >= 1 and j >= i - 1 and j <= #s) then",
            "    error('INVARIANT: find returned ' .. i .. ', ' .. j .. ' for a subject of ' .. #s)",
            "  end",
            "end",
            "string.match(s, p)",
            "string.gsub(s, p, '%0')",
            "local n = 0",
            "for a in string.gmatch(s, p) do n = n + 1 if n > 100 then break end end",
            "string.find(s, p, -3)",
            "string.find(s, p, 1, true)");
    private static final CompiledChunk PATTERNS = VM.compile("=patterns", PATTERN_CHUNK);

    private static Sandbox sandbox() {
        return sandbox(VM);
    }

    private static Sandbox sandbox(LuaVM vm) {
        return vm.sandbox().capabilities(Capabilities.standard()).limits(LIMITS).output(OutputSink.discard())
                .randomSeed(1).build();
    }

    @FuzzTest(maxDuration = "30m")
    void run(byte[] chunk) {
        int refused = TWIN == null ? 0 : TestTier.compileFailures(VM).size();
        String outcome = runOnce(VM, chunk);
        if (TWIN == null) return;
        java.util.List<String> failures = TestTier.compileFailures(VM);
        if (failures.size() > refused) {
            throw new AssertionError("the compiled tier refused a generated class: " + failures.get(refused));
        }
        String interpreted = runOnce(TWIN, chunk);
        if (!outcome.equals(interpreted) && !outcome.contains(TIMED_OUT) && !interpreted.contains(TIMED_OUT)) {
            throw new AssertionError(VM.tier() + " and INTERP differ:\n  " + outcome + "\n  " + interpreted);
        }
    }

    private static final String TIMED_OUT = "LuaLimitException: TIME";

    /** How a run of {@code chunk} ended and the gas it used, as a comparable text. */
    private static String runOnce(LuaVM vm, byte[] chunk) {
        String end = "normal";
        Sandbox sb = sandbox(vm);
        try (sb) {
            try {
                sb.run(vm.compile("=fuzz", chunk));
            } catch (LuaLimitException e) {
                checkLimit(e);
                end = "LuaLimitException: " + e.limit() + ": " + e.getMessage();
            } catch (LuaScriptException e) {
                // a Lua error or a syntax error: an ordinary outcome
                end = e.getClass().getSimpleName() + ": " + e.getMessage();
            }
            return end + ", gas " + sb.usage().gas();
        }
    }

    @FuzzTest(maxDuration = "30m")
    void patterns(FuzzedDataProvider data) {
        byte[] subject = data.consumeBytes(data.consumeInt(0, 300));
        byte[] pattern = data.consumeRemainingAsBytes();
        try (Sandbox sb = sandbox()) {
            sb.setGlobal("S", subject);
            sb.setGlobal("P", pattern);
            sb.run(PATTERNS);
        } catch (LuaLimitException e) {
            checkLimit(e);
        } catch (LuaScriptException e) {
            if (e.getMessage() != null && e.getMessage().contains("INVARIANT")) throw new AssertionError(e.getMessage());
        }
    }

    private static void checkLimit(LuaLimitException e) {
        if (e.getCause() instanceof StackOverflowError || e.getCause() instanceof OutOfMemoryError) {
            throw new AssertionError("the sandbox caught a Java " + e.getCause().getClass().getSimpleName()
                    + " (the VM must bound this itself)", e.getCause());
        }
    }
}
