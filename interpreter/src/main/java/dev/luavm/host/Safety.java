package dev.luavm.host;

/**
 * The safety class of a granted host function: how the {@link HostGateway} decides whether a
 * call may run. Argument types and constraints are checked first in every class.
 */
public enum Safety {
    /** Always runs: reading public data, pure computation. The policy is not consulted. */
    SAFE,
    /** Runs only when the {@link HostCallPolicy} allows it (possibly after asking an operator). */
    UNSAFE,
    /**
     * Never runs, whatever the policy says: refused before any policy is consulted, so a
     * misconfigured policy cannot open it. The script can see the name and the refusal; the
     * call is still audited.
     */
    FORBIDDEN
}
