package dev.luavm.threats;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.conformance.TestTier;
import dev.luavm.Sandbox;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Helpers for the threat tests (one class per line of threats.md). Every attack runs through the
 * public API in a fresh sandbox under tight limits, inside a preemptive timeout so that a
 * regression shows as a failure, never as a hung build.
 */
final class ThreatSupport {
    private ThreatSupport() {}

    /** Tight limits: each attack should hit one of them within a fraction of a second. */
    static final Limits TIGHT = Limits.defaults()
            .withGas(5_000_000)
            .withMemory(16L << 20)
            .withTimeout(Duration.ofSeconds(10))
            .withOutput(64L << 10)
            .withCallDepth(20_000);

    /** The most a single attack may take before the test fails (the sandbox should stop far sooner). */
    static final Duration WALL = Duration.ofSeconds(30);

    static final LuaVM VM = TestTier.vm(); // -Dluavm.test.tier=interp|auto|compile-all

    static Sandbox sandbox() {
        return VM.sandbox(Capabilities.standard(), TIGHT);
    }

    static Sandbox sandbox(Limits limits) {
        return VM.sandbox(Capabilities.standard(), limits);
    }

    /** Runs {@code script} in a fresh standard sandbox and returns its results. */
    static List<Object> run(String script) {
        return run(TIGHT, script);
    }

    static List<Object> run(Limits limits, String script) {
        return assertTimeoutPreemptively(WALL, () -> {
            try (Sandbox sb = sandbox(limits)) {
                return sb.evalAll("attack", script);
            }
        });
    }

    static Object run1(String script) {
        List<Object> r = run(script);
        return r.isEmpty() ? null : r.get(0);
    }

    /** The script must end with the given limit. */
    static LuaLimitException assertLimit(Limit expected, String script) {
        return assertLimit(expected, TIGHT, script);
    }

    static LuaLimitException assertLimit(Limit expected, Limits limits, String script) {
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> run(limits, script), script);
        assertEquals(expected, e.limit(), () -> "limit for: " + script);
        return e;
    }

    /** The script must end with one of the given limits (a builtin may hit gas or memory first). */
    static LuaLimitException assertAnyLimit(String script, Limit... allowed) {
        LuaLimitException e = assertThrows(LuaLimitException.class, () -> run(script), script);
        assertTrue(List.of(allowed).contains(e.limit()), () -> "unexpected limit " + e.limit() + " for: " + script);
        return e;
    }

    /** The script must raise a Lua error whose message contains {@code fragment}. */
    static LuaScriptException assertScriptError(String fragment, String script) {
        LuaScriptException e = assertThrows(LuaScriptException.class, () -> run(script), script);
        assertTrue(e.getMessage().contains(fragment), () -> "message '" + e.getMessage() + "' lacks '" + fragment + "'");
        return e;
    }

    /**
     * The script must end cleanly from the host's point of view: a result or any
     * {@link LuaException}, never a Java error such as StackOverflowError.
     */
    static void assertContained(String script) {
        try {
            run(script);
        } catch (LuaException expected) {
            // a Lua error or a limit: contained
        } catch (Throwable t) {
            fail("escaped the sandbox: " + t, t);
        }
    }
}
