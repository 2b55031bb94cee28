package dev.luavm.spark;

import dev.luavm.Capabilities;

import java.io.Serializable;
import java.util.function.Supplier;

/**
 * What reaches the executors when a job grants host functions: a serializable supplier of the
 * {@link Capabilities} each row's sandbox gets. Host functions are Java objects that cannot
 * travel, so the job ships this factory and each executor calls it (once per partition) to
 * build its own grants:
 * <pre>{@code
 * LuaSpark.rows(df)
 *     .capabilities((CapabilitiesFactory) () -> Capabilities.standard().toBuilder()
 *         .declare("rates.lookup", "The fee rate of a country").safe()
 *         .param("country", "string", "ISO code")
 *         .grant(call -> Rates.of(call.stringArg(0)))
 *         .build())
 * }</pre>
 * A lambda cast to this type is serializable when everything it captures is. {@code map()} calls
 * the factory once on the driver to check the grants: a grant that declares effects
 * ({@code writes:...}, {@code network}, ...) is refused unless it also declares the effect
 * {@value LuaSpark#IDEMPOTENT}, because Spark re-runs rows on retries and speculation.
 */
@FunctionalInterface
public interface CapabilitiesFactory extends Supplier<Capabilities>, Serializable {
    /**
     * The capabilities of every row's sandbox on this executor.
     *
     * @return bundles and host functions; the same grants on every call
     */
    @Override
    Capabilities get();
}
