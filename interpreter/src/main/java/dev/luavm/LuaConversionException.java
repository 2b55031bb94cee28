package dev.luavm;

/**
 * A value could not cross between Java and Lua: nested deeper than the conversion depth, more
 * elements than the conversion allows, or cyclic. Conversion never overflows the Java stack.
 */
public class LuaConversionException extends LuaException {
    /**
     * A conversion failure; hosts may throw it from their own conversions too.
     *
     * @param message what could not be converted, and why
     */
    public LuaConversionException(String message) {
        super(message, null);
    }
}
