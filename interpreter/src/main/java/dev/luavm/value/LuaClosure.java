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
    /** compiled tier: its prototype's heat and code in this sandbox, shared by the prototype's closures ({@link Heat}) */
    public final Heat heat;

    /** A closure with a heat cell of its own (a bare prototype outside any sandbox's tree). */
    public LuaClosure(Prototype proto, Upvalue[] upvals) {
        this(proto, upvals, new Heat());
    }

    public LuaClosure(Prototype proto, Upvalue[] upvals, Heat heat) {
        this.proto = proto;
        this.upvals = upvals;
        this.heat = heat;
    }
}
