package dev.luavm.host;

/**
 * Thrown by a {@link HostFunction} to raise a Lua error whose message the script may see
 * ("vendor not found"). The message should say nothing the script must not know. The
 * {@code chunk:line:} of the calling Lua code is prepended, as for {@code error()}.
 */
public class HostFunctionException extends Exception {
    /**
     * An error whose message the script sees as written.
     *
     * @param message the message
     */
    public HostFunctionException(String message) {
        super(message, null, false, false);
    }
}
