package dev.luavm.contract;

/**
 * How a contracted run ended. Exactly one per run; when several apply, the first in this order
 * wins (a blocked call is reported even when the script caught it and went on to fail or
 * succeed otherwise).
 */
public enum Category {
    /** The input failed the contract's input schema; no Lua ran. */
    MALFORMED_INPUT("malformed-input", 5),
    /** The script called a function that was denied (by the policy, a quota, a constraint) or forbidden, even if it caught the error. */
    BLOCKED_CAPABILITY("blocked-capability", 6),
    /** A limit ended the run: gas, memory, time, output, depth (or a cancel). */
    LIMIT("limit", 3),
    /** An uncaught Lua error, a syntax error included. */
    LOGIC_ERROR("logic-error", 1),
    /** The script returned, but its result failed the contract's output schema (or is not JSON); it is withheld. */
    BAD_OUTPUT("bad-output", 7),
    /** The script returned a result that meets the output schema. */
    OK("ok", 0);

    /** The name in outcome JSON and documents. */
    public final String label;
    /** The exit status of {@code luavm run --contract}. */
    public final int exitStatus;

    Category(String label, int exitStatus) {
        this.label = label;
        this.exitStatus = exitStatus;
    }

    /** The category named {@code label}, or null. */
    public static Category of(String label) {
        for (Category c : values()) if (c.label.equals(label)) return c;
        return null;
    }
}
