package dev.luavm.threats;

import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaLimitException.Limit;
import dev.luavm.Sandbox;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.luavm.threats.ThreatSupport.assertLimit;
import static dev.luavm.threats.ThreatSupport.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * T19 Meter blind spots: values reachable only through a builtin (a gmatch iterator's subject, a
 * wrapped coroutine), through a frame that returned, or through a buffer built before its limit
 * check. Everything a script can reach is counted by the memory walk; what returned frames left
 * behind is neither counted nor kept; no buffer larger than its limit is assembled; and one
 * tenant can never drive the JVM into an OutOfMemoryError that hits another.
 */
class T19MeterBlindSpotsTest {
    /** 64 MiB held; gas and time out of the way, so only memory can end these runs. */
    static final Limits CAP64 = Limits.unlimited().withMemory(64L << 20).withTimeout(Duration.ofSeconds(60))
            .withOutput(64L << 10);

    /** Each of {@code n} iterators keeps a distinct 4 MiB subject (64: 256 MiB reachable under a 64 MiB cap). */
    static String gmatchSubjects(int n) {
        return String.join("\n",
            "local its = {}",
            "for i = 1, " + n + " do",
            "  its[i] = string.gmatch(string.rep('x', 4 << 20), 'x')",
            "end",
            "return #its");
    }

    /**
     * Each of 64 wrapped coroutines keeps a distinct 4 MiB string on its suspended stack (made
     * outside it: a memory error inside would reach the host through wrap as a positioned error
     * message, as in PUC).
     */
    static String wrapStacks(int n) {
        return String.join("\n",
            "local ws = {}",
            "for i = 1, " + n + " do",
            "  local w = coroutine.wrap(function(s) coroutine.yield(#s) return s end)",
            "  w(string.rep('x', 4 << 20))",
            "  ws[i] = w",
            "end",
            "return #ws");
    }

    /**
     * Leaves a distinct 4 MiB string in the registers, frame and closure of a call that returned,
     * at a different depth each time (so no later call overwrites it), {@code n} times; returns
     * how many it left. The script holds none of them.
     */
    static String leaveInReturnedFrames(int n) {
        return String.join("\n",
                "local function leave(depth, i)",
                "  if depth > 0 then return (leave(depth - 1, i)) end",
                "  local f = (function() local s = string.rep('x', 4 << 20) return function() return #s end end)()",
                "  return f()",
                "end",
                "for i = 1, " + n + " do leave(" + (n + 10) + " - i, i) end");
    }

    /**
     * As {@link #leaveInReturnedFrames}, but then a call with 190 locals, three deep, overwrites
     * the stack slots the returned calls used: only their frame objects still point at the closures
     * (and through them at the strings).
     */
    static String leaveInReturnedFrameObjects(int n) {
        StringBuilder locals = new StringBuilder("local a1");
        for (int i = 2; i <= 190; i++) locals.append(", a").append(i);
        return String.join("\n",
                "local function leave(depth)",
                "  if depth > 0 then return (leave(depth - 1)) end",
                "  return ((function() local s = string.rep('x', 4 << 20) return function() return #s end end)())()",
                "end",
                "local function wipe(n) " + locals + " = 0 if n > 0 then wipe(n - 1) end end",
                // two levels apart: the next, shallower round's calls reach one level short of this one's frame
                "for i = 1, " + n + " do leave(" + (2 * n + 10) + " - 2 * i) wipe(3) end");
    }

    @Test
    void gmatchIteratorsKeepTheirSubjectsCounted() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertLimit(Limit.MEMORY, CAP64, gmatchSubjects(64)));
    }

    @Test
    void oneGmatchIteratorOverABigSubjectIsCountedOnce() {
        // the subject is reachable both from the iterator and a local: counted once, so this fits
        assertEquals(List.of(3L), run(CAP64, "local s = string.rep('ab ', 10 << 20) local it = s:gmatch('%a+') "
                + "local t = {} for i = 1, 3 do t[i] = it() end local big = string.rep('y', 20 << 20) return #t"));
    }

    @Test
    void wrappedCoroutinesKeepTheirStacksCounted() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertLimit(Limit.MEMORY, CAP64, wrapStacks(64)));
    }

    @Test
    void returnedFramesAreNotCounted() {
        // 40 x 4 MiB left behind by returned calls, then 48 MiB held for real under the 64 MiB cap
        String script = leaveInReturnedFrames(40) + "\n"
                + "local keep = {} for i = 1, 12 do keep[i] = string.rep('y', 4 << 20) .. i end return #keep";
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(List.of(12L), run(CAP64, script)));
    }

    @Test
    void returnedFrameObjectsKeepNothing() {
        String script = leaveInReturnedFrameObjects(40) + "\n"
                + "local keep = {} for i = 1, 12 do keep[i] = string.rep('y', 4 << 20) .. i end return #keep";
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(List.of(12L), run(CAP64, script)));
    }

    @Test
    void valuesOfAFinishedRunAreNotCountedInTheNext() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = ThreatSupport.sandbox(CAP64)) {
                sb.eval(leaveInReturnedFrames(10));
                sb.eval("local t = {} for i = 1, 10 do t[i] = string.rep('z', 4 << 20) .. i end return select('#', table.unpack(t))");
                assertEquals(12L, sb.eval("local keep = {} for i = 1, 12 do keep[i] = string.rep('y', 4 << 20) .. i end return #keep"));
            }
        });
    }

    @Test
    void liveFramesStillKeepTheirClosuresCounted() {
        // the closures are reachable only from the frames of a deep recursion that has not returned
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertLimit(Limit.MEMORY, CAP64, String.join("\n",
                "local function down(n)",
                "  if n == 0 then return 0 end",
                "  local f = (function() local s = string.rep('x', 4 << 20) .. n return function() return #s end end)()",
                "  return f() + down(n - 1) + 0",
                "end",
                "return down(64)")));
    }

    @Test
    void deadCoroutinesKeepNothingTheirLastBuiltinHeld() {
        // each coroutine last ran a gmatch iterator over a distinct 4 MiB subject, then died:
        // the script holds 200 dead coroutines and none of the subjects
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertEquals(List.of(200L), run(CAP64, String.join("\n",
                "local cos = {}",
                "for i = 1, 200 do",
                "  local co = coroutine.create(function() local it = string.gmatch(string.rep('x', 4 << 20), 'x') it() end)",
                "  assert(coroutine.resume(co))",
                "  cos[i] = co",
                "end",
                "return #cos"))));
    }

    @Test
    void printNeverAssemblesALineBeyondTheOutputCap() {
        // a 1 GiB line (256 references to one 4 MiB string) under a 64 KiB output cap
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = ThreatSupport.VM.sandbox().limits(CAP64).output(out).build()) {
                LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(
                        "local s = string.rep('p', 4 << 20) local t = {} for i = 1, 256 do t[i] = s end print(table.unpack(t))"));
                assertEquals(Limit.OUTPUT, e.limit());
                assertEquals(64L << 10, sb.usage().outputBytes());
                // gas was charged for what was written, not for the whole line
                assertTrue(sb.usage().gas() < 2_000_000, "gas " + sb.usage().gas());
            }
        });
        assertEquals(64 << 10, out.size());
    }

    @Test
    void printWritesEachPieceAsItComesAsPucDoes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Sandbox sb = ThreatSupport.VM.sandbox().limits(CAP64).output(out).build()) {
            sb.eval("print('a', setmetatable({}, {__tostring = function() print('inner') return 'B' end}), 3)");
            assertEquals("ainner\n\tB\t3\n", out.toString(StandardCharsets.UTF_8));
            out.reset();
            assertThrows(dev.luavm.LuaScriptException.class,
                    () -> sb.eval("print(1, setmetatable({}, {__tostring = function() error('x') end}))"));
            assertEquals("1", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void requireNeverAssemblesAnUnchargedNotFoundMessage() {
        // 100 searchers return one 4 MiB message: 400 MiB of "not found" text, charged as it grows
        dev.luavm.Capabilities caps = dev.luavm.Capabilities.standard().toBuilder().bundle("package").build();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = ThreatSupport.VM.sandbox(caps, CAP64)) {
                LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(
                        "local big = string.rep('m', 4 << 20) package.searchers = {} "
                                + "for i = 1, 100 do package.searchers[i] = function() return big end end require('x')"));
                assertEquals(Limit.MEMORY, e.limit());
            }
        });
    }

    @Test
    void searchpathNeverAssemblesAMessageBeyondTheCap() {
        // 1,000 templates, each naming a 1 MiB module name: a 1 GiB "no file" message
        dev.luavm.Capabilities caps = dev.luavm.Capabilities.standard().toBuilder().bundle("package").build();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (Sandbox sb = ThreatSupport.VM.sandbox(caps, CAP64)) {
                LuaLimitException e = assertThrows(LuaLimitException.class, () -> sb.eval(
                        "return package.searchpath(string.rep('n', 1 << 20), string.rep('?;', 1000))"));
                assertEquals(Limit.MEMORY, e.limit());
            }
        });
    }

    @Test
    void osDateOutputIsChargedAsItGrows() {
        // '%c' writes 24 bytes per 2 format bytes: a 16 MiB format would build 192 MiB
        assertLimit(Limit.MEMORY, CAP64, "return #os.date(string.rep('%c', 8 << 20), 0)");
    }

    @Test
    void errorWithAHugeMessageIsChargedBeforeItIsBuilt() {
        // the position prefix makes a copy of the 40 MiB message: charged first, so MEMORY, never a JVM error
        assertLimit(Limit.MEMORY, CAP64, "error(string.rep('e', 40 << 20))");
    }

    // ---- one JVM, several tenants

    /**
     * The memory attacks a {@link NeighbourHarness} runs beside well-behaved sandboxes: {name,
     * expected end, script}. Each would hold well over 512 MiB if a blind spot let it.
     */
    static final List<String[]> ATTACKS = List.of(
            new String[] {"gmatch-subjects", "MEMORY", gmatchSubjects(150)},
            new String[] {"wrap-stacks", "MEMORY", wrapStacks(150)},
            new String[] {"returned-frames", "MEMORY", leaveInReturnedFrames(150)
                    + "\nlocal keep = {} for i = 1, 1e9 do keep[i] = string.rep('y', 1 << 20) end"},
            new String[] {"returned-frame-objects", "MEMORY", leaveInReturnedFrameObjects(150)
                    + "\nlocal keep = {} for i = 1, 1e9 do keep[i] = string.rep('y', 1 << 20) end"},
            new String[] {"dead-coroutine-builtins", "MEMORY", String.join("\n",
                    "local cos = {}",
                    "for i = 1, 150 do",
                    "  local co = coroutine.create(function() local it = string.gmatch(string.rep('x', 4 << 20), 'x') it() end)",
                    "  coroutine.resume(co)",
                    "  cos[i] = co",
                    "end",
                    "local keep = {} for i = 1, 1e9 do keep[i] = string.rep('y', 1 << 20) end")},
            new String[] {"print-line", "OUTPUT",
                    "local s = string.rep('p', 4 << 20) local t = {} for i = 1, 200 do t[i] = s end print(table.unpack(t))"},
            new String[] {"string-doubling", "MEMORY", "local s = 'x' while true do s = s .. s end"},
            new String[] {"table-count", "MEMORY", "local t = {} for i = 1, 1e9 do t[i] = {} end"},
            new String[] {"hash-growth", "MEMORY", "local t = {} for i = 1, 1e9 do t['k' .. i] = i end"},
            new String[] {"closure-count", "MEMORY", "local t = {} for i = 1, 1e9 do t[i] = function() return i end end"},
            new String[] {"coroutine-count", "MEMORY", "local t = {} for i = 1, 1e9 do t[i] = coroutine.create(print) end"});

    @Test
    void noTenantCausesAnOutOfMemoryErrorInAnother() throws Exception {
        String java = System.getProperty("java.home") + "/bin/java";
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), NeighbourHarness.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(15, TimeUnit.MINUTES), "harness did not finish");
        } finally {
            p.destroyForcibly();
        }
        System.out.println("[T19] one 512 MiB JVM, attackers beside neighbours:\n" + output);
        assertTrue(!output.contains("OutOfMemoryError"), output);
        for (String[] a : ATTACKS) {
            assertTrue(output.contains("attacker " + a[0] + ": " + a[1]), "attacker " + a[0] + " did not end with " + a[1]);
        }
        assertTrue(output.contains("neighbours: all succeeded"), output);
        assertEquals(0, p.exitValue(), output);
    }
}
