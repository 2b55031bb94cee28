package dev.luavm.conformance.difftest;

import dev.luavm.Capabilities;
import dev.luavm.Limits;
import dev.luavm.LuaLimitException;
import dev.luavm.LuaScriptException;
import dev.luavm.LuaVM;
import dev.luavm.Sandbox;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The luavm side: each program in a fresh {@link Sandbox} (standard capabilities) of one
 * {@link LuaVM}, through the public API only. The uncaught error is
 * {@link LuaScriptException#getMessage()}, which reads as lua.c prints it. A Java exception
 * escaping the API is reported as an error text that never matches the reference.
 */
final class LuavmExecutor implements Executor {
    /** Generous enough that no generated program meets them; the reference stops first. */
    private static final Limits LIMITS = Limits.defaults()
            .withGas(500_000_000L)
            .withOutput(64L << 20)
            .withTimeout(Duration.ofSeconds(20));

    private final LuaVM vm = LuaVM.create();

    @Override
    public List<Outcome> runAll(List<String> programs, String chunkName) {
        List<Outcome> out = new ArrayList<>(programs.size());
        for (String p : programs) out.add(runOne(p, chunkName));
        return out;
    }

    private Outcome runOne(String program, String chunkName) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Sandbox sb = vm.sandbox().capabilities(Capabilities.standard()).limits(LIMITS).output(out)
                .randomSeed(0).build()) {
            sb.evalAll(chunkName, program);
            return new Outcome(out.toByteArray(), null, false);
        } catch (LuaLimitException e) {
            return Outcome.limited(out.toByteArray());
        } catch (LuaScriptException e) {
            return new Outcome(out.toByteArray(), e.getMessage(), false);
        } catch (RuntimeException | StackOverflowError e) {
            return new Outcome(out.toByteArray(), "luavm: Java exception escaped the API: " + e, false);
        }
    }
}
