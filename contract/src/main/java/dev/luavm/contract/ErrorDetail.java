package dev.luavm.contract;

/**
 * How much of a failed run's story leaves with its outcome (the contract's {@code error_detail}).
 * The script chooses the text of its errors, and the data it sees can be put there, so a
 * contract that withholds results also decides what the other categories may say:
 *
 * <ul>
 *   <li>{@link #NONE}: the category alone ({@code bad-output (details withheld)}); not even
 *       which limit;</li>
 *   <li>{@link #LOCATION} (the default): where and what kind, never script-chosen text: a Lua
 *       error is {@code chunk:line: kind (message withheld)} with the contract's script name and
 *       a kind from a fixed vocabulary ({@code error}, {@code attempt to index a nil value},
 *       ...); a schema failure names the schema's paths ({@code #/properties/value/type}), never
 *       the input's or the result's keys or values; a blocked call names the function and the
 *       verdict;</li>
 *   <li>{@link #FULL}: every message as the runtime wrote it, usage figures included.</li>
 * </ul>
 *
 * Usage figures (gas, memory, output bytes, time) leave with an outcome only under {@link #FULL}:
 * a script can spend exactly as much as a secret says.
 */
public enum ErrorDetail {
    /** The category alone. */
    NONE("none"),
    /** Where and what kind, never script-chosen text. */
    LOCATION("location"),
    /** Every message as written, and the usage figures. */
    FULL("full");

    /** The name used in contract files. */
    public final String label;

    ErrorDetail(String label) {
        this.label = label;
    }

    static ErrorDetail of(String label) {
        for (ErrorDetail d : values()) if (d.label.equals(label)) return d;
        return null;
    }
}
