/**
 * The {@code javax.script} engine for Lua ({@link dev.luavm.jsr223.LuaScriptEngineFactory}, names
 * {@code lua} and {@code luavm}). It uses only the runtime's API; the standard library comes in
 * through the runtime's service binding, and so does the compiled tier (on by default).
 */
module dev.luavm.jsr223 {
    requires transitive dev.luavm;
    requires transitive java.scripting;
    requires dev.luavm.stdlib;
    requires dev.luavm.jit;

    exports dev.luavm.jsr223;

    provides javax.script.ScriptEngineFactory with dev.luavm.jsr223.LuaScriptEngineFactory;
}
