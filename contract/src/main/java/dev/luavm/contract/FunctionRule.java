package dev.luavm.contract;

import dev.luavm.host.Safety;

/**
 * One host function a contract grants: its name in the host's registry, its safety class (equal
 * to the host's declaration or stricter: a contract may make an UNSAFE function FORBIDDEN, never
 * the reverse), and an optional bound on its calls per run (enforced as a policy quota).
 *
 * @param maxCallsPerRun the most calls that may run in one run, or {@code Long.MAX_VALUE}
 */
public record FunctionRule(String name, Safety safety, long maxCallsPerRun) {
    /** True when calls may run at all (SAFE or UNSAFE). */
    public boolean runnable() {
        return safety != Safety.FORBIDDEN;
    }
}
