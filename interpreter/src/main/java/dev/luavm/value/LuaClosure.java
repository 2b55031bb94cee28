package dev.luavm.value;

import dev.luavm.bytecode.Prototype;

/**
 * A Lua function made by {@code CLOSURE}: a {@link Prototype} plus its captured upvalues.
 *
 * <p>Closure caching (Lua 5.3): evaluating the same function expression twice with the same
 * upvalues yields the same closure. PUC keeps the cache in the shared prototype; here it lives in
 * the <em>enclosing</em> closure ({@link #childCache}, indexed like {@code Prototype.protos}), so
 * the cache is per sandbox and a compiled chunk shared between sandboxes never carries a closure
 * from one sandbox into another.
 */
public final class LuaClosure extends LuaFunction {
    public final Prototype proto;
    public final Upvalue[] upvals;
    /** last closure made for each nested prototype; lazily allocated */
    public LuaClosure[] childCache;
    /** compiled tier: entries into this closure's frames (and weighted loop safepoints), counted to a threshold */
    public int heat;
    /** compiled tier: this closure's compiled code once looked up (dev.luavm.vm.Tiering), or its refusal */
    public Object jit;

    public LuaClosure(Prototype proto, Upvalue[] upvals) {
        this.proto = proto;
        this.upvals = upvals;
    }
}
