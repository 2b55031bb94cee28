package dev.luavm.value;

/** Type names and truthiness, shared by the VM and the libraries. */
public final class LuaValues {
    private LuaValues() {}

    public static final LuaString NIL = LuaString.of("nil");
    public static final LuaString BOOLEAN = LuaString.of("boolean");
    public static final LuaString NUMBER = LuaString.of("number");
    public static final LuaString STRING = LuaString.of("string");
    public static final LuaString TABLE = LuaString.of("table");
    public static final LuaString FUNCTION = LuaString.of("function");
    public static final LuaString USERDATA = LuaString.of("userdata");
    public static final LuaString THREAD = LuaString.of("thread");

    /** Lua's {@code type(v)} as a Java string. */
    public static String typeName(Object v) {
        if (v == null) return "nil";
        if (v instanceof Boolean) return "boolean";
        if (v instanceof Long || v instanceof Double) return "number";
        if (v instanceof LuaString) return "string";
        if (v instanceof LuaTable) return "table";
        if (v instanceof LuaFunction) return "function";
        if (v instanceof Userdata) return "userdata";
        return "thread";
    }

    /** Lua's {@code type(v)} as a Lua string (no allocation). */
    public static LuaString type(Object v) {
        if (v == null) return NIL;
        if (v instanceof Boolean) return BOOLEAN;
        if (v instanceof Long || v instanceof Double) return NUMBER;
        if (v instanceof LuaString) return STRING;
        if (v instanceof LuaTable) return TABLE;
        if (v instanceof LuaFunction) return FUNCTION;
        if (v instanceof Userdata) return USERDATA;
        return THREAD;
    }

    /** Everything but nil and false is true. */
    public static boolean isTruthy(Object v) {
        return v != null && v != Boolean.FALSE && !(v instanceof Boolean b && !b);
    }
}
