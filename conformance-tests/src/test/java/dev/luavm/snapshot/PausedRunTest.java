package dev.luavm.snapshot;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaSnapshotException;
import dev.luavm.LuaSuspendedException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.host.HostCallPolicy;
import dev.luavm.vm.tier.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs paused at a host call by the policy ({@code Decision.suspend}) and resumed from their
 * snapshot: the resumed run prints, returns and uses exactly what the run would have without
 * the pause, had the host function returned the same values, in every tier.
 */
class PausedRunTest {
    static Capabilities caps(Object answer) {
        return Capabilities.builder().standard()
                .declare("approve", "asks a human").unsafe().grant(call -> answer)
                .build();
    }

    static LuaVM vm(Tier tier, HostCallPolicy policy) {
        return LuaVM.builder().tier(tier).policy(policy).build();
    }

    static final HostCallPolicy PAUSE = request -> HostCallPolicy.Decision.suspend("needs a human");

    /** The script run twice: straight through (approve returns {@code answer}), and paused then resumed with {@code answer}. */
    static void sameAsUninterrupted(Tier tier, String script, Object answer) {
        LuaVM straight = vm(tier, HostCallPolicy.allowAll());
        Sandbox a = straight.sandbox().capabilities(caps(answer)).randomSeed(5).build();
        Object expected = a.eval("job", script);
        String out = a.output();
        long gas = a.usage().gas();

        LuaVM pausing = vm(tier, PAUSE);
        Sandbox b = pausing.sandbox().capabilities(caps("never returned")).randomSeed(5).build();
        LuaSuspendedException paused = assertThrows(LuaSuspendedException.class, () -> b.eval("job", script));
        assertEquals("approve", paused.callName());
        String before = b.output();
        Sandbox c = LuaVM.builder().tier(tier).build().sandbox().capabilities(caps(answer))
                .resumeFrom(paused.snapshot(), answer).build();
        assertEquals(out, before + c.output(), "output");
        assertEquals(gas, c.usage().gas(), "gas");
        assertEquals(expected, c.resumedResults().first());
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void plainCall(Tier tier) {
        sameAsUninterrupted(tier, "local x = 10 print('asking') local ok = approve(x * 2, 'refund') print('got', ok, x) return ok", true);
    }

    @ParameterizedTest
    @EnumSource(Tier.class)
    void insideHotLoopsCoroutinesAndPcall(Tier tier) {
        sameAsUninterrupted(tier, """
                local function work(n)
                  local acc = 0.5
                  for i = 1, n do acc = acc + i * 0.25 end
                  return acc
                end
                local s = 0
                for i = 1, 2000 do s = s + work(20) end
                local gen = coroutine.wrap(function(a)
                  local t = {}
                  for i = 1, 3 do
                    local w = work(i)
                    local ok, v = pcall(approve, w, i)
                    t[#t + 1] = tostring(v) .. ':' .. w
                    coroutine.yield(#t)
                  end
                  return table.concat(t, ',')
                end)
                print(gen(), s)
                print(gen(), gen(), gen())
                return s
                """, "yes");
    }

    /**
     * A host call inside a typed loop of a compiled function: the loop keeps float locals unboxed
     * across calls that come back, so a pause (which leaves the method) must box them first, or
     * the resumed frame would compute with stale registers.
     */
    @ParameterizedTest
    @EnumSource(Tier.class)
    void insideACompiledTypedLoop(Tier tier) {
        sameAsUninterrupted(tier, """
                local function f(n)
                  local acc, k = 0.5, 3
                  for i = 1, n do
                    acc = acc * 1.5 + i * 0.25
                    k = k * 2 + i
                    local r = approve(acc, k)
                    acc = acc + (r == 'yes' and 1 or 0)
                  end
                  return acc, k
                end
                for i = 1, 600 do f(0) end
                print(f(4))
                return f(2)
                """, "yes");
    }

    @Test
    void eachPauseResumesOnce() {
        LuaVM pausing = vm(Tier.INTERP, PAUSE);
        Sandbox b = pausing.sandbox().capabilities(caps(null)).build();
        LuaSuspendedException paused = assertThrows(LuaSuspendedException.class,
                () -> b.eval("for i = 1, 3 do print(i, approve(i)) end"));
        LuaVM vm = LuaVM.create();
        byte[] snap = paused.snapshot();
        byte[] copy = LuaVM.fork(snap);
        // the resumed run pauses again at the next call: policy of the new runtime pauses too
        LuaVM resumer = vm(Tier.INTERP, PAUSE);
        LuaSuspendedException again = assertThrows(LuaSuspendedException.class,
                () -> resumer.sandbox().capabilities(caps(null)).resumeFrom(snap, "one").build());
        assertEquals(List.of(2L), again.arguments());
        LuaSnapshotException twice = assertThrows(LuaSnapshotException.class,
                () -> resumer.sandbox().capabilities(caps(null)).resumeFrom(snap, "one").build());
        assertTrue(twice.getMessage().contains("resumed already"), twice.getMessage());
        Sandbox forked = vm.sandbox().capabilities(caps("x")).resumeFrom(copy, "uno").build();
        assertEquals("1\tuno\n2\tx\n3\tx\n", forked.output());
    }

    @Test
    void resumedWithAnError() {
        LuaVM pausing = vm(Tier.INTERP, PAUSE);
        Sandbox b = pausing.sandbox().capabilities(caps(null)).build();
        LuaSuspendedException paused = assertThrows(LuaSuspendedException.class,
                () -> b.eval("job", "local ok, err = pcall(approve, 1)\nprint(ok, err)\nreturn approve(2)"));
        LuaVM plain = LuaVM.create();
        LuaSuspendedException again = assertThrows(LuaSuspendedException.class, () -> vm(Tier.INTERP, PAUSE).sandbox()
                .capabilities(caps(null)).resumeFailing(paused.snapshot(), "denied by Alice").build());
        LuaScriptException e = assertThrows(LuaScriptException.class, () -> plain.sandbox().capabilities(caps(null))
                .resumeFailing(again.snapshot(), "denied by Bob").build());
        assertEquals("job:3: denied by Bob", e.getMessage());
    }

    @Test
    void cannotPauseInsideALibraryCallback() {
        LuaVM pausing = vm(Tier.INTERP, PAUSE);
        Sandbox b = pausing.sandbox().capabilities(caps(null)).build();
        LuaScriptException e = assertThrows(LuaScriptException.class,
                () -> b.eval("job", "local t = {3, 1, 2} table.sort(t, function(x, y) approve(x) return x < y end)"));
        assertTrue(e.getMessage().contains("cannot pause at approve here"), e.getMessage());
        // the sandbox goes on
        assertEquals(3L, b.eval("return 1 + 2"));
    }

    @Test
    void thePausedSandboxRunsAgain() {
        LuaVM pausing = vm(Tier.INTERP, PAUSE);
        Sandbox b = pausing.sandbox().capabilities(caps(null)).build();
        b.eval("x = 41");
        assertThrows(LuaSuspendedException.class, () -> b.eval("x = x + 1 approve() x = 100"));
        assertEquals(42L, b.eval("return x"));
    }
}
