package dev.luavm;

/**
 * An error raised by the script and not caught in Lua: {@code error(v)}, a runtime error such as
 * {@code attempt to index a nil value}, or an error from a host function.
 *
 * <p>{@link #value()} is the raised Lua value converted to Java (a String for the usual message;
 * a Map for an error table; null for {@code error(nil)}). {@link #getMessage()} is the message
 * as {@code lua.c} would print it ({@code chunk:line: text}; for a non-string value
 * {@code (error object is a table value)}), cut to {@link #MAX_MESSAGE} characters.
 * {@link #chunkName()} and {@link #line()} locate the error when known; {@link #luaTraceback()}
 * is the Lua stack traceback.
 *
 * <p>When a host function threw, {@link #getCause()} is the host's exception, kept for the host;
 * the script only ever saw a message naming the function, without Java class names or stacks.
 */
public class LuaScriptException extends LuaException {
    /** Longest message kept; longer ones are cut and end in "...". */
    public static final int MAX_MESSAGE = 4096;

    private final transient Object value;
    /** the chunk of the error's position, or null */
    private final String chunkName;
    /** the line of the error's position, or -1 */
    private final int line;
    /** the Lua stack at the error, as debug.traceback shows it */
    private final String luaTraceback;
    /** the raised Lua value and the sandbox it lives in, for {@link Sandbox#errorMessage} */
    transient Object luaValue;
    transient Object sandbox;

    LuaScriptException(String message, Object value, String chunkName, int line, String luaTraceback,
                              Throwable cause) {
        super(bound(message), cause);
        this.value = value;
        this.chunkName = chunkName;
        this.line = line;
        this.luaTraceback = luaTraceback;
    }

    /** The raised Lua value, converted to Java (see {@link LuaVM} for the conversion rules). */
    public Object value() {
        return value;
    }

    /** Name of the chunk where the error was raised ("input", "invoice.lua"), or null when unknown. */
    public String chunkName() {
        return chunkName;
    }

    /** Line where the error was raised, or -1 when unknown. */
    public int line() {
        return line;
    }

    /** The Lua traceback ("stack traceback:\n\t..."), or an empty string when none was recorded. */
    public String luaTraceback() {
        return luaTraceback == null ? "" : luaTraceback;
    }

    static String bound(String s) {
        if (s == null) return null;
        return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE - 3) + "...";
    }
}
