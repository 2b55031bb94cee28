package dev.luavm.binding;

import dev.luavm.LuaHandle;
import dev.luavm.host.HostCall;

import java.util.List;

/**
 * One host call's conversions between Lua-side values and a module method's types: the call
 * (for gas and callbacks) and how deep the conversion is, so a self-containing Java collection
 * returned by a method is refused instead of overflowing the Java stack.
 */
final class Crossing {
    /** deeper than the gateway's own ceiling, so Lua values never reach it */
    static final int MAX_DEPTH = 1000;

    private final HostCall call;
    private int depth;

    Crossing(HostCall call) {
        this.call = call;
    }

    String name() {
        return call.name();
    }

    /** 1 gas per value copied (the gas rule's element work), before the copy. */
    void chargeGas(long values) {
        call.chargeGas(values);
    }

    List<Object> callLua(LuaHandle fn, Object... args) {
        return call.callLua(fn, args);
    }

    /** One level into a container; {@link #leave()} after it. */
    void enter() throws BadValue {
        if (++depth > MAX_DEPTH) {
            depth = 0;
            throw new BadValue("value nested too deep (more than " + MAX_DEPTH + " levels)");
        }
    }

    void leave() {
        depth--;
    }
}
