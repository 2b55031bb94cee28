package dev.luavm.contract;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What became of one item run under a contract with its approved-version store: the result to
 * use, or the item marked for review. Never a silent change: a failed run's result is withheld,
 * and any result that is used came from an approved version whose run was {@link Category#OK}.
 *
 * @param disposition what to do with the item
 * @param primary     the run of the version asked for; null when it did not run (not approved, or revoked)
 * @param fallback    the run of the previous approved version ({@code last-approved}), or null
 * @param fallbackSha that version's SHA-256, or null
 * @param reason      why the item was rolled back or is marked for review; null when accepted
 */
public record Decision(Disposition disposition, Outcome primary, Outcome fallback, String fallbackSha, String reason) {
    /** What to do with the item. */
    public enum Disposition {
        /** the version asked for ran and its result stands */
        ACCEPTED,
        /** the version asked for failed or may not run; the previous approved version's result stands */
        ROLLED_BACK,
        /** no result stands: a person must look at the item */
        REVIEW
    }

    /** The result to use, or null when the item is marked for review. */
    public JsonNode result() {
        return switch (disposition) {
            case ACCEPTED -> primary.result();
            case ROLLED_BACK -> fallback.result();
            case REVIEW -> null;
        };
    }

    /** True when a person must look at the item. */
    public boolean review() {
        return disposition == Disposition.REVIEW;
    }
}
