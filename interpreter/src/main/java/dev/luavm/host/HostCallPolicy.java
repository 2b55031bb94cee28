package dev.luavm.host;

/**
 * Decides whether a call from Lua into a host function may proceed. Every such call passes
 * through the one {@link HostGateway}, which asks the policy first; this is the seam for
 * allow/deny/ask rules, quotas and audit logs.
 *
 * <p>Implementations are called on the sandbox's thread, may be shared by many sandboxes at
 * once (so must be thread-safe), and should be quick: the script's clock keeps running.
 */
@FunctionalInterface
public interface HostCallPolicy {
    /** What the policy says about one call. */
    record Decision(boolean allowed, String reason) {
        private static final Decision ALLOW = new Decision(true, null);

        public static Decision allow() {
            return ALLOW;
        }

        /** Denies the call; the script gets a Lua error {@code host function 'f' denied: reason}. */
        public static Decision deny(String reason) {
            return new Decision(false, reason == null ? "not allowed" : reason);
        }
    }

    Decision check(HostCall call);

    /** Lets every granted function run: granting is the only control. */
    static HostCallPolicy allowAll() {
        return call -> Decision.allow();
    }
}
