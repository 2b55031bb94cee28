package dev.luavm.contract;

import java.time.Instant;

/**
 * One approved version of a script in an {@link ApprovedStore}.
 *
 * @param sha256       SHA-256 of the script's bytes, in hex (the version's identity)
 * @param name         the script's file name when approved (for people; not part of the identity)
 * @param approver     who approved it
 * @param approvedAt   when
 * @param revokedBy    who revoked it, or null while it stands
 * @param revokedAt    when it was revoked, or null
 * @param revokeReason why, or null
 */
public record ApprovedVersion(String sha256, String name, String approver, Instant approvedAt,
                              String revokedBy, Instant revokedAt, String revokeReason) {
    /** True once revoked: a revoked version never runs again. */
    public boolean revoked() {
        return revokedAt != null;
    }

    ApprovedVersion revoke(String by, Instant at, String reason) {
        return new ApprovedVersion(sha256, name, approver, approvedAt, by, at, reason);
    }
}
