package dev.luavm.binding;

import dev.luavm.LuaHandle;

import java.util.List;
import java.util.Map;

/**
 * How values of one Java type cross a host call, built once at registration
 * ({@link TypeAdapters#of}). Arguments arrive as the gateway converts them (null, Boolean, Long,
 * Double, String or byte[], Map, List, {@link LuaHandle}, other objects) and {@link #in} turns
 * one into the parameter's type; {@link #out} turns a result into what the gateway converts to
 * Lua (records into maps, enums into names, Optionals into their value or nil).
 */
abstract class TypeAdapter {
    /** The Lua type the gateway checks for a parameter of this type: {@code string}, {@code integer}, {@code table}... */
    abstract String luaType();

    /** The value's shape for docs ({@code "{id: string, total: integer}"}, {@code "list of string"}); the Lua type when no more is known. */
    String shape() {
        return luaType();
    }

    /** True when nil is a value of this type (Optional). */
    boolean acceptsNil() {
        return false;
    }

    /** A non-null argument value to this type; {@code call} charges gas, makes callbacks and bounds the depth. */
    abstract Object in(Object v, Crossing call) throws BadValue;

    /** Nil to this type (only when {@link #acceptsNil()} or the parameter is optional): null, or Optional.empty(). */
    Object nil() {
        return null;
    }

    /** A non-null value of this type to what the gateway converts to Lua. */
    abstract Object out(Object v, Crossing call) throws BadValue;

    /** The Lua type name of a value as the gateway delivers it. */
    static String luaTypeOf(Object v) {
        if (v == null) return "nil";
        if (v instanceof Boolean) return "boolean";
        if (v instanceof Number) return "number";
        if (v instanceof String || v instanceof byte[]) return "string";
        if (v instanceof Map || v instanceof List) return "table";
        if (v instanceof LuaHandle h) return h.type();
        return "userdata";
    }
}
