package dev.luavm.spark;

import dev.luavm.Capabilities;
import dev.luavm.LuaLimitException;
import dev.luavm.Limits;
import dev.luavm.Sandbox;
import dev.luavm.host.Safety;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The driver's checks of what a job grants, before anything is shipped: host functions travel
 * only inside a {@link CapabilitiesFactory}; a grant with effects must declare itself
 * {@value LuaSpark#IDEMPOTENT}, since Spark re-runs rows on retries and speculation; the granted
 * libraries must fit in a row's memory limit; and the factory must serialize.
 */
final class Grants {
    private Grants() {}

    /** A factory of {@code caps}' bundles; refuses host functions, which cannot travel. */
    static CapabilitiesFactory bundlesOnly(Capabilities caps, String where) {
        Objects.requireNonNull(caps, "capabilities");
        if (!caps.hostFunctions().isEmpty()) {
            throw new IllegalArgumentException(where + " takes bundles only, and these capabilities grant host functions "
                    + caps.hostFunctions().keySet() + ": host functions reach executors through a serializable "
                    + "CapabilitiesFactory (capabilities((CapabilitiesFactory) () -> ...))");
        }
        return new BundleCapabilities(List.copyOf(caps.bundles()));
    }

    /**
     * Checks the factory on the driver and returns what it grants.
     *
     * @throws IllegalArgumentException the factory does not serialize, returns null, grants an
     *         unknown bundle, grants a function with effects that is not idempotent, or its
     *         libraries do not fit in {@code limits}
     */
    static Capabilities check(CapabilitiesFactory factory, Limits limits) {
        serializes(factory, "the CapabilitiesFactory");
        Capabilities caps = factory.get();
        if (caps == null) throw new IllegalArgumentException("the CapabilitiesFactory returned null");
        List<String> refused = new ArrayList<>();
        for (Capabilities.Grant g : caps.hostFunctions().values()) {
            if (g.safety() == Safety.FORBIDDEN) continue; // never runs
            List<String> effects = new ArrayList<>(g.effects());
            boolean idempotent = effects.remove(LuaSpark.IDEMPOTENT);
            if (!effects.isEmpty() && !idempotent) refused.add(g.path() + " " + effects);
        }
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException("host functions with effects must also declare the effect '"
                    + LuaSpark.IDEMPOTENT + "', since Spark runs a row again when a task is retried or run "
                    + "speculatively: " + String.join(", ", refused));
        }
        try (Sandbox probe = ExecutorRuntime.vm().sandbox().capabilities(caps).limits(limits).build()) {
            return caps;
        } catch (LuaLimitException e) {
            throw new IllegalArgumentException("the memory limit (" + limits.memoryBytes()
                    + " bytes per row) is too small for the granted libraries " + caps.bundles(), e);
        }
    }

    /** Serializes {@code o} as Spark will, to fail here rather than at the first action. */
    static void serializes(Object o, String what) {
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(o);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " does not serialize, so it cannot reach the executors: " + e, e);
        }
    }

    /** The factory of a bundles-only grant: the names travel, the executor builds the rest. */
    private record BundleCapabilities(List<String> bundles) implements CapabilitiesFactory {
        @Override
        public Capabilities get() {
            return Capabilities.builder().bundles(bundles).build();
        }
    }
}
