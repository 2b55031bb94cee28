package dev.luavm.value;

import java.util.HashMap;
import java.util.Map;

/**
 * One instance of each metamethod event name ({@code "__index"}, {@code "__add"}, ...), shared
 * by the VM's metamethod lookups and by every chunk's string constants.
 *
 * <p>The VM looks events up with its own string objects ({@code Meta.INDEX}); a script writes
 * {@code mt.__index = c} with a constant of its chunk. When they are different objects, every
 * {@code __index} lookup in a metatable finds its slot by comparing bytes (PUC compares interned
 * pointers). So the compiler gives a chunk's constant the instance held here
 * ({@link #canonical}), and the lookup matches by identity. Sharing is harmless: a
 * {@link LuaString} is immutable and its hash depends on its bytes only; every name here is
 * shorter than {@link LuaString#FREE_COMPARE_BYTES} and {@link LuaTable#FREE_HASH_BYTES}, so an
 * identity match and a byte match are charged the same gas (none), whichever sandbox hashed
 * the shared instance first. The map is built once and never written (VM rule 4).
 */
public final class EventNames {
    private EventNames() {}

    private static final String[] NAMES = {"__index", "__newindex", "__gc", "__mode", "__len", "__eq", "__lt", "__le",
        "__concat", "__call", "__tostring", "__name", "__metatable", "__pairs", "__add", "__sub", "__mul", "__mod",
        "__pow", "__div", "__idiv", "__band", "__bor", "__bxor", "__shl", "__shr", "__unm", "__bnot"};

    private static final Map<LuaString, LuaString> CANONICAL;

    static {
        Map<LuaString, LuaString> m = new HashMap<>();
        for (String n : NAMES) {
            LuaString s = LuaString.of(n);
            s.hashCode(); // cached before any sandbox sees it
            m.put(s, s);
        }
        CANONICAL = Map.copyOf(m);
    }

    /** The shared instance of event name {@code name}; throws for a name that is not an event. */
    public static LuaString of(String name) {
        LuaString s = CANONICAL.get(LuaString.of(name));
        if (s == null) throw new IllegalArgumentException("not a metamethod event: " + name);
        return s;
    }

    /** The shared instance equal to {@code s}, or null when {@code s} is no event name. */
    public static LuaString canonical(LuaString s) {
        if (s.length() > 12 || s.length() < 4) return null;
        return CANONICAL.get(s);
    }
}
