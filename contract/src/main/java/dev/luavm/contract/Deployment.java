package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.luavm.audit.Digests;

import java.util.Objects;
import java.util.Optional;

/**
 * A contract with its store of approved versions: only approved versions run, and a failure
 * goes where the contract's {@code rollback} says.
 *
 * <ul>
 *   <li>{@link #run(String, byte[], JsonNode, ContractRunner.Settings)} runs one version. When
 *       it is not approved, or was revoked, it does not run; otherwise it runs under the
 *       contract. A run that is not {@link Category#OK}, or a version that may not run, then
 *       follows the rule: {@link Rollback#MANUAL_REVIEW} returns the item marked for review;
 *       {@link Rollback#LAST_APPROVED} runs the previous approved version (the newest standing
 *       one approved before it) on the same input, both runs recorded in the {@link Decision},
 *       and marks the item for review when there is none or it fails too.</li>
 *   <li>{@link #run(JsonNode, ContractRunner.Settings)} runs the current version (the newest
 *       that stands).</li>
 *   <li>{@link #approve} accepts approvals from the contract's {@code approval_owner} only.</li>
 * </ul>
 */
public final class Deployment {
    private final ContractRunner runner;
    private final ApprovedStore store;

    public Deployment(ContractRunner runner, ApprovedStore store) {
        this.runner = Objects.requireNonNull(runner, "runner");
        this.store = Objects.requireNonNull(store, "store");
    }

    public ContractRunner runner() {
        return runner;
    }

    public ApprovedStore store() {
        return store;
    }

    /**
     * Approves a version of the script under this contract: only the contract's
     * {@code approval_owner} may (the name is compared as written; luavm has no identity system
     * of its own, so the host vouches for who is asking).
     *
     * @throws IllegalArgumentException when {@code approver} is not the contract's approval owner
     */
    public ApprovedVersion approve(byte[] script, String name, String approver) {
        String owner = runner.contract().approvalOwner();
        if (!owner.equals(approver)) {
            throw new IllegalArgumentException("only " + owner + " approves versions under " + runner.contract().file()
                    + " (approval_owner), not " + approver);
        }
        return store.approve(script, name, approver);
    }

    /** Revokes a version: anyone may stop a version from running; who and why are recorded. */
    public ApprovedVersion revoke(String sha256, String by, String reason) {
        return store.revoke(sha256, by, reason);
    }

    /** Runs the current approved version on {@code input}; with none, the item is marked for review. */
    public Decision run(JsonNode input, ContractRunner.Settings settings) {
        Optional<ApprovedVersion> current = store.current();
        if (current.isEmpty()) return new Decision(Decision.Disposition.REVIEW, null, null, null, "no approved version");
        ApprovedVersion v = current.get();
        return run(chunkName(v), store.script(v.sha256()), input, settings);
    }

    /** Runs the version {@code script} on {@code input}, following the contract's rollback rule on failure. */
    public Decision run(String chunkName, byte[] script, JsonNode input, ContractRunner.Settings settings) {
        String sha = Digests.sha256(script);
        Optional<ApprovedVersion> v = store.find(sha);
        Outcome primary = null;
        String why;
        if (v.isEmpty()) {
            why = "version " + sha + " is not approved";
        } else if (v.get().revoked()) {
            why = "version " + sha + " was revoked by " + v.get().revokedBy() + ": " + v.get().revokeReason();
        } else {
            primary = runner.run(chunkName, script, input, settings);
            if (primary.ok()) return new Decision(Decision.Disposition.ACCEPTED, primary, null, null, null);
            why = "the run failed: " + primary.category().label + (primary.message() != null ? ": " + primary.message() : "");
        }
        if (runner.contract().rollback() == Rollback.MANUAL_REVIEW) {
            return new Decision(Decision.Disposition.REVIEW, primary, null, null, why + "; marked for manual review");
        }
        Optional<ApprovedVersion> prev = store.previous(sha);
        if (prev.isEmpty()) {
            return new Decision(Decision.Disposition.REVIEW, primary, null, null, why + "; no earlier approved version, marked for review");
        }
        ApprovedVersion p = prev.get();
        Outcome fallback = runner.run(chunkName(p), store.script(p.sha256()), input, settings);
        if (fallback.ok()) {
            return new Decision(Decision.Disposition.ROLLED_BACK, primary, fallback, p.sha256(),
                    why + "; rolled back to the last approved version " + p.sha256());
        }
        return new Decision(Decision.Disposition.REVIEW, primary, fallback, p.sha256(),
                why + "; the last approved version " + p.sha256() + " failed too (" + fallback.category().label
                        + "), marked for review");
    }

    private static String chunkName(ApprovedVersion v) {
        return v.name().isEmpty() ? v.sha256().substring(0, 12) + ".lua" : v.name();
    }
}
