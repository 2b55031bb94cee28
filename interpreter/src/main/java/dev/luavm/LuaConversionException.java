package dev.luavm;

/**
 * A value could not cross between Java and Lua: nested deeper than the conversion depth, more
 * elements than the conversion allows, or cyclic. Conversion never overflows the Java stack.
 */
public class LuaConversionException extends LuaException {
    public LuaConversionException(String message) {
        super(message, null);
    }
}
