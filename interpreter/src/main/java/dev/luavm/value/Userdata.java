package dev.luavm.value;

/**
 * A full userdata: an opaque host object travelling through Lua. Scripts cannot inspect the
 * payload; they see only its metatable (if the host gives one) and identity.
 */
public final class Userdata {
    private final Object payload;
    private LuaTable metatable;
    /** the script-visible identity, assigned on first use ({@link Identity}); 0 until then */
    int identity;

    public Userdata(Object payload, LuaTable metatable) {
        this.payload = payload;
        this.metatable = metatable;
    }

    /** The host object; never exposed to Lua. */
    public Object payload() {
        return payload;
    }

    public LuaTable getMetatable() {
        return metatable;
    }

    public void setMetatable(LuaTable mt) {
        this.metatable = mt;
    }
}
