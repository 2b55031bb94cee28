package dev.luavm.jsr223;

import dev.luavm.CompiledChunk;

import javax.script.CompiledScript;
import javax.script.ScriptContext;
import javax.script.ScriptEngine;
import javax.script.ScriptException;

/** A chunk compiled by {@link LuaScriptEngine#compile}; each {@code eval} runs it in that engine's sandbox. */
final class LuaCompiledScript extends CompiledScript {
    private final LuaScriptEngine engine;
    private final CompiledChunk chunk;

    LuaCompiledScript(LuaScriptEngine engine, CompiledChunk chunk) {
        this.engine = engine;
        this.chunk = chunk;
    }

    @Override
    public Object eval(ScriptContext context) throws ScriptException {
        return engine.run(chunk, context);
    }

    @Override
    public ScriptEngine getEngine() {
        return engine;
    }
}
