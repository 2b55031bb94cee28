package dev.luavm.contract;

/** What happens to an item whose run failed (or whose script version was revoked). */
public enum Rollback {
    /** The item is returned marked for review by a person; nothing else runs. */
    MANUAL_REVIEW("manual-review"),
    /**
     * The previous approved version of the script runs on the same input (both runs are
     * recorded); if there is none, or it fails too, the item is marked for review.
     */
    LAST_APPROVED("last-approved");

    /** The name used in contract files. */
    public final String label;

    Rollback(String label) {
        this.label = label;
    }

    static Rollback of(String label) {
        for (Rollback r : values()) if (r.label.equals(label)) return r;
        return null;
    }
}
