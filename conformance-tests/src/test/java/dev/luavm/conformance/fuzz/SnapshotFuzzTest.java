package dev.luavm.conformance.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaException;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaSuspendedException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;

import java.time.Duration;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzzing of snapshot restore (threat T28): the fuzzer's bytes choose changes to
 * a rich snapshot (or to the snapshot of a paused run): which bytes, what they become, bytes
 * inserted or cut, and whether the checksum is renewed afterwards, as a forger would. Whatever it
 * chooses, the restore (or resume) ends in a working sandbox, whose use ends normally or with a
 * Lua error or a limit, or in {@link LuaSnapshotException} (with no cause: an unexpected exception
 * the reader did not foresee is kept as the cause, and counts as a finding), or, for a state that
 * is well formed but too large, in {@link LuaLimitException}. Nothing else may escape, and no
 * limit may stand for a Java {@code StackOverflowError} or {@code OutOfMemoryError}.
 */
class SnapshotFuzzTest {
    private static final LuaVM VM = LuaVM.create();
    private static final LuaVM PAUSING = LuaVM.builder().policy(r -> HostCallPolicy.Decision.suspend("fuzz")).build();
    private static final Limits LIMITS = Limits.defaults().withGas(300_000).withMemory(8L << 20).withCallDepth(200)
            .withOutput(64L << 10).withTimeout(Duration.ofSeconds(2));
    private static final Capabilities CAPS = Capabilities.builder().standard()
            .declare("ask", "pauses the run").unsafe().grant(call -> "answer").build();

    private static final String STATE = String.join("\n",
            "local function counter() local n = 0 return function() n = n + 1 return n end end",
            "c1 = counter() c1() c2 = counter()",
            "mt = {__index = function(t, k) return k end, __add = function(a, b) return 1 end}",
            "obj = setmetatable({x = 1, [2.5] = 'f', [true] = false}, mt)",
            "gen = coroutine.wrap(function() for i = 1, 100 do coroutine.yield(i) end end) gen()",
            "co = coroutine.create(function(a) local t = {} while true do local ok = pcall(function() t[#t + 1] = a end) a = coroutine.yield(#t) end end)",
            "coroutine.resume(co, 1)",
            "weak = setmetatable({}, {__mode = 'k'}) weak[obj] = 1 weak[{}] = 2",
            "bin = '\\0\\255\\1' .. string.rep('x', 40)",
            "it = string.gmatch('a b c d', '%a')",
            "f = load('return ...', '=f')",
            "nums = {1/0, -0.0, 0/0, math.mininteger, 0.1}",
            "for i = 1, 20 do obj[i] = {i, tostring(i)} end",
            "r = math.random(1000)");
    private static final String USE = String.join("\n",
            "local s = 0 for k, v in pairs(_G) do s = s + 1 end",
            "print(c1(), c2(), obj.y, obj[2.5], gen(), coroutine.resume(co, 2), it(), f(1, 2), #bin, math.random(10))",
            "for k, v in pairs(weak) do s = s + 1 end",
            "collectgarbage()",
            "return s");
    private static final byte[] PLAIN;
    private static final byte[] PAUSED;

    static {
        // the states are built under roomy limits: the first runs load and instrument the classes
        Limits roomy = Limits.defaults().withTimeout(Duration.ofMinutes(2));
        Sandbox sb = VM.sandbox().capabilities(CAPS).limits(roomy).randomSeed(3).build();
        sb.eval("state", STATE);
        PLAIN = sb.snapshot();
        Sandbox p = PAUSING.sandbox().capabilities(CAPS).limits(roomy).randomSeed(3).build();
        byte[] paused;
        try {
            p.eval("state", STATE + "\nlocal v = coroutine.wrap(function() return pcall(ask, obj, 'x') end)() print(v)");
            throw new IllegalStateException("the run did not pause");
        } catch (LuaSuspendedException e) {
            paused = e.snapshot();
        }
        PAUSED = paused;
    }

    @FuzzTest(maxDuration = "30m")
    void restore(FuzzedDataProvider data) {
        boolean pausedRun = data.consumeBoolean();
        byte[] b = (pausedRun ? PAUSED : PLAIN).clone();
        int changes = data.consumeInt(0, 8);
        for (int i = 0; i < changes && b.length > 16; i++) {
            int at = data.consumeInt(0, b.length - 5);
            switch (data.consumeInt(0, 3)) {
                case 0 -> b[at] = data.consumeByte();
                case 1 -> b[at] ^= (byte) (1 << data.consumeInt(0, 7));
                case 2 -> b = splice(b, at, 0, data.consumeBytes(data.consumeInt(1, 8)));
                default -> b = splice(b, at, Math.min(data.consumeInt(1, 16), b.length - at - 4), new byte[0]);
            }
        }
        if (data.consumeBoolean()) reseal(b);
        Sandbox sb;
        try {
            Sandbox.Builder builder = VM.sandbox().capabilities(CAPS).limits(LIMITS);
            sb = pausedRun ? builder.resumeFrom(b, "resumed").build() : builder.restoreFrom(b).build();
        } catch (LuaSnapshotException e) {
            if (e.getCause() != null) throw new AssertionError("the reader did not foresee: " + e.getMessage(), e.getCause());
            return;
        } catch (LuaLimitException e) {
            checkLimit(e);
            return;
        } catch (LuaScriptException e) {
            if (!pausedRun) throw new AssertionError("a restore ran code", e);
            return; // the resumed run raised an error: a working sandbox's outcome
        }
        try {
            sb.eval("use", USE);
        } catch (LuaScriptException e) {
            // a working sandbox whose state the change made the script fail on
        } catch (LuaLimitException e) {
            checkLimit(e);
        } catch (LuaException e) {
            throw new AssertionError("a restored sandbox failed with " + e, e);
        }
        try {
            sb.snapshot();
        } catch (LuaSnapshotException e) {
            throw new AssertionError("a restored state cannot be snapshotted again: " + e.getMessage(), e);
        }
    }

    private static void checkLimit(LuaLimitException e) {
        if (e.getCause() instanceof StackOverflowError || e.getCause() instanceof OutOfMemoryError) {
            throw new AssertionError("a Java " + e.getCause().getClass().getSimpleName() + " was caught", e.getCause());
        }
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] out = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
        return out;
    }

    private static void reseal(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length - 4);
        int v = (int) c.getValue();
        for (int i = 0; i < 4; i++) b[b.length - 4 + i] = (byte) (v >>> (24 - 8 * i));
    }
}
