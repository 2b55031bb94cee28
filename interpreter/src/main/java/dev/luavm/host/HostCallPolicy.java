package dev.luavm.host;

import java.util.List;
import java.util.Objects;

/**
 * Decides each call of an {@link Safety#UNSAFE UNSAFE} host function: allow, deny with a
 * reason, ask an {@link Operator}, or pause the run ({@link Decision#suspend}). {@code SAFE} functions run without asking it and
 * {@code FORBIDDEN} ones are refused before it is asked, so no policy can open them. Argument
 * types and {@link ArgConstraint constraints} are checked before the policy too, so a policy
 * only ever sees well-formed requests.
 *
 * <p>A policy decides from a read-only {@link CallRequest}: sandbox, function, converted
 * arguments, call number, the function's earlier calls in the run and the sandbox, elapsed time,
 * the calling chunk and line. A denied call is a Lua error the script can catch:
 * {@code permission denied: payments.refund: <reason>}. Every decision is written to the
 * audit log with its reason.
 *
 * <p>Implementations are called on the sandbox's thread, may be shared by many sandboxes at once
 * (so must be thread-safe), and should be quick: the run's clock keeps running. Those built in:
 * {@link #allowAll()}, {@link #denyAll()}, {@link #auditOnly()}, {@link #ask(Operator)},
 * {@link #quota(String, long, long)} and {@link #firstDenyWins(HostCallPolicy...)}.
 */
@FunctionalInterface
public interface HostCallPolicy {
    /** What the policy says about one call. Immutable. */
    final class Decision {
        /** The three answers. */
        public enum Kind {
            /** The call runs. */
            ALLOW,
            /** The call fails with a Lua error naming the reason. */
            DENY,
            /** An {@link Operator} decides, within the run's time. */
            ASK,
            /**
             * The run pauses at this call: it ends with {@code LuaSuspendedException}, which
             * carries a snapshot of the run and the pending call, and {@code LuaVM.resume}
             * continues it later, in any JVM, as if the call had returned what the host gives.
             */
            SUSPEND
        }

        private static final Decision ALLOW = new Decision(Kind.ALLOW, "allowed", null);

        private final Kind kind;
        private final String reason;
        private final Operator operator;

        private Decision(Kind kind, String reason, Operator operator) {
            this.kind = kind;
            this.reason = reason;
            this.operator = operator;
        }

        /** Lets the call run. */
        public static Decision allow() {
            return ALLOW;
        }

        /** Lets the call run, saying why in the audit log ({@code "audit-only"}, {@code "operator"}). */
        public static Decision allow(String reason) {
            return new Decision(Kind.ALLOW, reason == null ? "allowed" : reason, null);
        }

        /** Refuses the call; the script gets {@code permission denied: name: reason}. */
        public static Decision deny(String reason) {
            return new Decision(Kind.DENY, reason == null ? "not allowed" : reason, null);
        }

        /**
         * Pauses the run at this call instead of waiting (an approval that takes a day): the run
         * ends with {@code LuaSuspendedException} carrying its snapshot and the pending call, and
         * {@code LuaVM.resume(snapshot, caps, limits, results...)} continues it as if the call had
         * returned {@code results}. A call that cannot pause (made from inside a library
         * function, a metamethod called by the VM from Java, or a finalizer) fails instead with
         * the Lua error {@code cannot pause at name here (...)}.
         */
        public static Decision suspend(String reason) {
            return new Decision(Kind.SUSPEND, reason == null ? "paused" : reason, null);
        }

        /** Hands the call to {@code operator}, whose answer decides; the run waits (see {@link Operator}). */
        public static Decision ask(Operator operator) {
            return new Decision(Kind.ASK, "operator asked", Objects.requireNonNull(operator, "operator"));
        }

        /** Which of the three answers. */
        public Kind kind() {
            return kind;
        }

        /** True for allow. */
        public boolean allowed() {
            return kind == Kind.ALLOW;
        }

        /** Why, as the audit log and (for a denial) the script see it. */
        public String reason() {
            return reason;
        }

        /** The operator of an ask, else null. */
        public Operator operator() {
            return operator;
        }

        @Override
        public String toString() {
            return kind + (reason != null ? " (" + reason + ")" : "");
        }
    }

    /**
     * Decides one call of an UNSAFE host function, on the sandbox's thread, before it runs.
     *
     * @param request the call: grant, arguments, counts, position
     * @return the decision
     */
    Decision check(CallRequest request);

    /** Lets every granted function run: granting is the only control (the default). */
    static HostCallPolicy allowAll() {
        return Policies.ALLOW_ALL;
    }

    /** Refuses every UNSAFE call (SAFE functions still run). */
    static HostCallPolicy denyAll() {
        return Policies.DENY_ALL;
    }

    /** Allows every call, marked {@code audit-only} in the log: a policy that only watches. */
    static HostCallPolicy auditOnly() {
        return Policies.AUDIT_ONLY;
    }

    /** Asks {@code operator} about every call. */
    static HostCallPolicy ask(Operator operator) {
        Decision d = Decision.ask(operator);
        return request -> d;
    }

    /**
     * At most {@code perRun} calls of {@code function} in one run and {@code perSandbox} over
     * the sandbox's life (counting the calls that ran); other functions are allowed. Like every
     * policy it governs UNSAFE functions only (SAFE ones never consult the policy). Combine with
     * {@link #firstDenyWins} to add it to another policy. {@code Long.MAX_VALUE} means no bound.
     */
    static HostCallPolicy quota(String function, long perRun, long perSandbox) {
        return new Policies.Quota(function, perRun, perSandbox);
    }

    /**
     * Consults {@code policies} in order: the first deny wins (later ones are not consulted);
     * otherwise, when some asked, their operators are asked in turn (the first to deny wins);
     * otherwise the call is allowed, with the first policy's reason.
     */
    static HostCallPolicy firstDenyWins(HostCallPolicy... policies) {
        return new Policies.FirstDenyWins(List.of(policies));
    }
}
