package dev.luavm.contract;

import dev.luavm.Capabilities;
import dev.luavm.host.HostCallPolicy;

/**
 * A host's registry of functions, packaged for the command line: {@code luavm run --contract}
 * finds modules with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.luavm.contract.HostModule}) or by {@code --host NAME|CLASS}, and
 * binds the contract to the registry. A contract grants a subset of it by name.
 */
public interface HostModule {
    /** The module's short name, for {@code --host}. */
    String name();

    /** Every function the host offers, declared with its safety class and effects. */
    Capabilities registry();

    /** Decides the UNSAFE calls (after the contract's quotas); allow all by default. */
    default HostCallPolicy policy() {
        return HostCallPolicy.allowAll();
    }
}
