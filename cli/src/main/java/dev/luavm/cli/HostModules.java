package dev.luavm.cli;

import dev.luavm.Capabilities;
import dev.luavm.contract.HostModule;
import dev.luavm.host.HostCallPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The host registry for the contract subcommands: the {@link HostModule}s on the class path
 * (found with {@link ServiceLoader}), or the one named by {@code --host NAME|CLASS}; their
 * registries merged, their policies combined (first deny wins).
 */
final class HostModules {
    final Capabilities registry;
    final HostCallPolicy policy;
    final List<String> names;

    private HostModules(Capabilities registry, HostCallPolicy policy, List<String> names) {
        this.registry = registry;
        this.policy = policy;
        this.names = names;
    }

    /** The modules to use: {@code host} (a module name or a class name), or every module found when null. */
    static HostModules load(String host) {
        List<HostModule> found = new ArrayList<>();
        for (HostModule m : ServiceLoader.load(HostModule.class, HostModules.class.getClassLoader())) found.add(m);
        List<HostModule> chosen = new ArrayList<>();
        if (host == null) {
            chosen.addAll(found);
        } else {
            for (HostModule m : found) if (m.name().equals(host) || m.getClass().getName().equals(host)) chosen.add(m);
            if (chosen.isEmpty()) chosen.add(byClass(host, found));
        }
        Capabilities.Builder caps = Capabilities.builder();
        List<HostCallPolicy> policies = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (HostModule m : chosen) {
            names.add(m.name());
            // as declared: the module a grant is bound to and where it runs included
            for (Capabilities.Grant g : m.registry().hostFunctions().values()) caps.grant(g);
            policies.add(m.policy());
        }
        HostCallPolicy policy = policies.isEmpty() ? HostCallPolicy.allowAll()
                : policies.size() == 1 ? policies.get(0) : HostCallPolicy.firstDenyWins(policies.toArray(new HostCallPolicy[0]));
        return new HostModules(caps.build(), policy, names);
    }

    private static HostModule byClass(String name, List<HostModule> found) {
        try {
            Class<?> c = Class.forName(name, true, HostModules.class.getClassLoader());
            if (!HostModule.class.isAssignableFrom(c)) throw new IllegalArgumentException(name + " is not a HostModule");
            return (HostModule) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            List<String> names = new ArrayList<>();
            for (HostModule m : found) names.add(m.name());
            throw new IllegalArgumentException("no host module '" + name + "' (found: "
                    + (names.isEmpty() ? "none" : String.join(", ", names)) + ")");
        }
    }
}
