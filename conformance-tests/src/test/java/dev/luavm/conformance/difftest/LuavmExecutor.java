package dev.luavm.conformance.difftest;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import dev.luavm.conformance.TestTier;
import dev.luavm.vm.tier.Tier;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The luavm side: each program in a fresh {@link Sandbox} (standard capabilities) of one
 * {@link LuaVM}, through the public API only. The uncaught error is
 * {@link LuaScriptException#getMessage()}, which reads as lua.c prints it. A Java exception
 * escaping the API is reported as an error text that never matches the reference.
 *
 * <p>The runtime's tier is {@code -Dluavm.test.tier} ({@link TestTier}; unset, the builder's
 * default). When it compiles ({@code auto}, {@code compile-all}) two more things must hold, and
 * a breach is reported the same way, as an error text the reference never prints (so the runner
 * shrinks it like any mismatch): the program runs the same in an interpreting twin runtime
 * (output, error and {@code usage().gas()}, the tiers' invariant), and the code generator
 * produced no class that it threw on or the JVM refused (such functions would quietly stay
 * interpreted and the run would prove nothing).
 */
final class LuavmExecutor implements Executor {
    /** Generous enough that no generated program meets them; the reference stops first. */
    private static final Limits LIMITS = Limits.defaults()
            .withGas(500_000_000L)
            .withOutput(64L << 20)
            .withTimeout(Duration.ofSeconds(20));

    private final LuaVM vm;
    /** interpreting twin of a compiling {@link #vm}, else null */
    private final LuaVM twin;
    private final Capabilities caps;

    LuavmExecutor() {
        this(TestTier.requested());
    }

    /** {@code tier} null: the builder's default. */
    LuavmExecutor(Tier tier) {
        this(tier, Capabilities.standard());
    }

    /** Sandboxes granted {@code caps} instead of the standard set. */
    LuavmExecutor(Tier tier, Capabilities caps) {
        vm = tier == null ? LuaVM.create() : LuaVM.builder().tier(tier).build();
        twin = vm.tier() == Tier.INTERP ? null : LuaVM.builder().tier(Tier.INTERP).build();
        this.caps = caps;
    }

    Tier tier() {
        return vm.tier();
    }

    @Override
    public List<Outcome> runAll(List<String> programs, String chunkName) {
        List<Outcome> out = new ArrayList<>(programs.size());
        for (String p : programs) out.add(runChecked(p, chunkName));
        return out;
    }

    private Outcome runChecked(String program, String chunkName) {
        int refusedBefore = twin == null ? 0 : TestTier.compileFailures(vm).size();
        Run r = runOne(vm, caps, program, chunkName);
        if (twin == null) return r.outcome;
        List<String> refused = TestTier.compileFailures(vm);
        if (refused.size() > refusedBefore) {
            return new Outcome(r.outcome.stdout(), "luavm: the compiled tier refused a generated class: "
                    + refused.get(refusedBefore), false);
        }
        Run i = runOne(twin, caps, program, chunkName);
        if (r.timedOut || i.timedOut) return r.outcome; // wall-clock limits are not the tiers' business
        if (!r.outcome.sameAs(i.outcome) || r.outcome.limit() != i.outcome.limit() || r.gas != i.gas) {
            return new Outcome(r.outcome.stdout(), "luavm: " + vm.tier() + " differs from INTERP: "
                    + describe(r) + " vs " + describe(i), false);
        }
        return r.outcome;
    }

    private static String describe(Run r) {
        return "gas " + r.gas + (r.outcome.limit() ? ", limit" : "") + ", " + r.outcome.stdout().length
                + " bytes out, error " + Objects.toString(r.outcome.error(), "none");
    }

    /** One run: its outcome, the gas it used, and whether the wall clock stopped it. */
    private record Run(Outcome outcome, long gas, boolean timedOut) {}

    private static Run runOne(LuaVM vm, Capabilities caps, String program, String chunkName) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Sandbox sb = vm.sandbox().capabilities(caps).limits(LIMITS).output(out)
                .randomSeed(0).build();
        try (sb) {
            try {
                sb.evalAll(chunkName, program);
                return new Run(new Outcome(out.toByteArray(), null, false), sb.usage().gas(), false);
            } catch (LuaLimitException e) {
                return new Run(Outcome.limited(out.toByteArray()), sb.usage().gas(),
                        e.limit() == LuaLimitException.Limit.TIME);
            } catch (LuaScriptException e) {
                return new Run(new Outcome(out.toByteArray(), e.getMessage(), false), sb.usage().gas(), false);
            } catch (RuntimeException | StackOverflowError e) {
                return new Run(new Outcome(out.toByteArray(), "luavm: Java exception escaped the API: " + e, false),
                        sb.usage().gas(), false);
            }
        }
    }
}
