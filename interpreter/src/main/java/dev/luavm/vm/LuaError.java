package dev.luavm.vm;

import dev.luavm.value.LuaString;

/**
 * A Lua error in flight: what {@code error(v)} raises and {@code pcall} catches. It carries
 * the raised Lua value unchanged (a string message, a table, nil...). Message strings carry
 * their {@code chunk:line:} prefix already, added where the error was raised, as in PUC.
 *
 * <p>It is control flow, not a Java bug report: no Java stack trace is captured (scripts may
 * raise and catch errors in loops), and nothing of the host leaks into the value. The Lua
 * traceback, when wanted, is recorded by the VM as the error unwinds.
 */
public class LuaError extends RuntimeException {
    private final Object value;
    private String luaTraceback;

    public LuaError(Object value) {
        super(null, null, false, false);
        this.value = value;
    }

    /** An error whose value is the given message string (no position is added). */
    public static LuaError of(String message) {
        return new LuaError(LuaString.of(message));
    }

    /** The raised Lua value. */
    public Object value() {
        return value;
    }

    public String luaTraceback() {
        return luaTraceback;
    }

    public void setLuaTraceback(String traceback) {
        this.luaTraceback = traceback;
    }

    /** The value as a host-readable message: strings and numbers as text, other values by type. */
    @Override
    public String getMessage() {
        if (value instanceof LuaString s) return s.toString();
        if (value instanceof Long || value instanceof Double) return String.valueOf(value);
        if (value == null) return "nil";
        return "(error object is a " + value.getClass().getSimpleName() + " value)";
    }
}
