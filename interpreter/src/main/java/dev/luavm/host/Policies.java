package dev.luavm.host;

import dev.luavm.host.HostCallPolicy.Decision;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The built-in policies behind {@link HostCallPolicy}'s factories. Immutable, stateless. */
final class Policies {
    private Policies() {}

    // immutable decisions, made once: these policies allocate nothing per call
    private static final Decision ALLOWED_BY_ALL = Decision.allow("allow-all");
    private static final Decision DENIED_TO_ALL = Decision.deny("all host calls are denied");
    private static final Decision AUDITED_ONLY = Decision.allow("audit-only");

    // not lambdas: every runtime's builder initialises this class, and the first non-capturing
    // lambda of a process spins method-handle classes (~3 ms of start-up, PROFILE.md)
    static final HostCallPolicy ALLOW_ALL = new Fixed(ALLOWED_BY_ALL);
    static final HostCallPolicy DENY_ALL = new Fixed(DENIED_TO_ALL);
    static final HostCallPolicy AUDIT_ONLY = new Fixed(AUDITED_ONLY);

    /** A policy that gives every call the same decision. */
    private record Fixed(Decision decision) implements HostCallPolicy {
        @Override
        public Decision check(CallRequest request) {
            return decision;
        }
    }

    /** Counts come from the request (the gateway counts), so one instance serves every sandbox. */
    record Quota(String function, long perRun, long perSandbox) implements HostCallPolicy {
        Quota {
            Objects.requireNonNull(function, "function");
            if (perRun < 0 || perSandbox < 0) throw new IllegalArgumentException("quotas must be >= 0");
        }

        @Override
        public Decision check(CallRequest request) {
            if (!request.name().equals(function)) return Decision.allow("no quota");
            if (request.previousCallsThisRun() >= perRun) {
                return Decision.deny("quota of " + perRun + " call" + (perRun == 1 ? "" : "s") + " per run reached");
            }
            if (request.previousCallsThisSandbox() >= perSandbox) {
                return Decision.deny("quota of " + perSandbox + " call" + (perSandbox == 1 ? "" : "s")
                        + " per sandbox reached");
            }
            return Decision.allow("within quota");
        }
    }

    record FirstDenyWins(List<HostCallPolicy> policies) implements HostCallPolicy {
        FirstDenyWins {
            policies = List.copyOf(policies);
            if (policies.isEmpty()) throw new IllegalArgumentException("no policies to combine");
        }

        @Override
        public Decision check(CallRequest request) {
            Decision first = null;
            List<Operator> asks = null;
            for (HostCallPolicy p : policies) {
                Decision d = p.check(request);
                if (d == null) d = Decision.deny("policy gave no decision");
                switch (d.kind()) {
                    case DENY -> {
                        return d;
                    }
                    case ASK -> {
                        if (asks == null) asks = new ArrayList<>(2);
                        asks.add(d.operator());
                    }
                    case ALLOW -> {
                        if (first == null) first = d;
                    }
                }
            }
            if (asks == null) return first;
            if (asks.size() == 1) return Decision.ask(asks.get(0));
            List<Operator> all = asks;
            return Decision.ask(r -> askInTurn(all, 0, r));
        }

        private static CompletionStage<Decision> askInTurn(List<Operator> ops, int i, CallRequest r) {
            return ops.get(i).ask(r).thenCompose(d -> d.allowed() && i + 1 < ops.size()
                    ? askInTurn(ops, i + 1, r) : CompletableFuture.completedFuture(d));
        }
    }
}
