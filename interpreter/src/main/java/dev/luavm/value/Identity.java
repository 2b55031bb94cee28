package dev.luavm.value;

import dev.luavm.meter.MemoryMeter;
import dev.luavm.vm.Coroutine;

/**
 * The identity a script can observe of a reference value (table, function, userdata,
 * coroutine): the number {@code tostring} shows ({@code table: 0x0000002a}) and the hash that
 * orders a table-, function- or coroutine-keyed {@code pairs}. It must depend only on what the
 * script did (VM rule 7), never on {@code System.identityHashCode}, so a run and its replay in
 * another JVM print the same ids and iterate in the same order.
 *
 * <p>An object gets its number lazily, the first time it is printed or hashed as a key, from a
 * counter its sandbox owns ({@link MemoryMeter#nextIdentity}: the meter is the per-sandbox object
 * every table already holds). Allocation pays nothing; the number is the order of first use, which
 * a deterministic script reproduces exactly. Library builtins are shared by every sandbox of a JVM
 * and must never be written by one: theirs is derived from their qualified name (stable across
 * JVMs). Builtins a sandbox made for itself ({@link Builtin#estimatedBytes()} &gt; 0: iterators,
 * wrapped coroutines) are numbered like tables.
 */
public final class Identity {
    private Identity() {}

    /** {@code v}'s identity number in the sandbox owning {@code ids} (a table's, a state's meter). */
    public static int of(Object v, MemoryMeter ids) {
        if (v instanceof LuaTable t) {
            int id = t.identity;
            return id != 0 ? id : (t.identity = ids.nextIdentity());
        }
        if (v instanceof LuaFunction f) {
            int id = f.identity;
            if (id != 0) return id;
            if (f instanceof Builtin b && b.estimatedBytes() == 0) return b.qualifiedName.hashCode() | 0x80000000;
            return f.identity = ids.nextIdentity();
        }
        if (v instanceof Userdata u) {
            int id = u.identity;
            return id != 0 ? id : (u.identity = ids.nextIdentity());
        }
        if (v instanceof Coroutine co) {
            int id = co.identity;
            return id != 0 ? id : (co.identity = ids.nextIdentity());
        }
        // not a Lua value (a host object passed through): its class name, never its identity hash
        return v.getClass().getName().hashCode();
    }

    /**
     * {@code v}'s identity number if it has one already, without assigning one: 0 for an object
     * not yet numbered; a shared library builtin's derived number; 0 for anything that is not a
     * reference value. For snapshots, which must not change what they copy.
     */
    public static int peek(Object v) {
        if (v instanceof LuaTable t) return t.identity;
        if (v instanceof LuaFunction f) {
            if (f.identity == 0 && f instanceof Builtin b && b.estimatedBytes() == 0) {
                return b.qualifiedName.hashCode() | 0x80000000;
            }
            return f.identity;
        }
        if (v instanceof Userdata u) return u.identity;
        if (v instanceof Coroutine co) return co.identity;
        return 0;
    }

    /**
     * Gives {@code v} (a table, closure, sandbox-made builtin, userdata or coroutine) the number
     * a snapshot recorded for it (0: not yet numbered). Restore only, before any script sees it.
     */
    public static void restore(Object v, int id) {
        if (v instanceof LuaTable t) t.identity = id;
        else if (v instanceof LuaFunction f) f.identity = id;
        else if (v instanceof Userdata u) u.identity = id;
        else if (v instanceof Coroutine co) co.identity = id;
        else throw new IllegalArgumentException("not a reference value: " + v.getClass().getName());
    }

    /** The text after {@code "type: "} in {@code tostring}: {@code 0x} and 8 hex digits. */
    public static String hex(int id) {
        String h = Integer.toHexString(id);
        return "0x" + "00000000".substring(h.length()) + h;
    }
}
