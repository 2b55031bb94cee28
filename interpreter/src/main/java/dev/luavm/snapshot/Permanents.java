package dev.luavm.snapshot;

import dev.luavm.value.Builtin;
import dev.luavm.value.LuaTable;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.VmSnapshots;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What a snapshot's names stand for in the sandbox being restored (Eris' permanents): the
 * library builtins its installed bundles provide, found by walking the tables of the freshly
 * installed sandbox (plus each bundle's {@link dev.luavm.lib.Library#internalBuiltins()}) and
 * named by qualified name, and its granted host functions, named by grant name. A name two
 * different builtins share is ambiguous and resolves to nothing. A snapshot can name only what
 * the new capabilities grant: a missing name fails the restore and the message names it.
 */
public final class Permanents {
    private static final Object AMBIGUOUS = new Object();
    private final Map<String, Object> library = new HashMap<>();
    private final Map<String, Builtin> host;

    private Permanents(Map<String, Builtin> host) {
        this.host = host;
    }

    /**
     * The permanents of {@code st} right after its bundles were installed: {@code host} maps each
     * grant name to its builtin; {@code internal} are the bundles' internal builtins.
     */
    public static Permanents of(LuaState st, Map<String, Builtin> host, Iterable<Builtin> internal) {
        Permanents p = new Permanents(Map.copyOf(host));
        IdentityHashMap<Object, Boolean> grants = new IdentityHashMap<>();
        for (Builtin b : host.values()) grants.put(b, Boolean.TRUE);
        IdentityHashMap<LuaTable, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<LuaTable> todo = new ArrayDeque<>();
        for (LuaTable t : VmSnapshots.roots(st)) if (t != null && seen.put(t, Boolean.TRUE) == null) todo.push(t);
        while (!todo.isEmpty()) {
            LuaTable t = todo.pop();
            LuaTable mt = t.getMetatable();
            if (mt != null && seen.put(mt, Boolean.TRUE) == null) todo.push(mt);
            for (int i = 0; i < t.slots(); i++) {
                Object v = t.valueAt(i);
                if (v == null) continue;
                for (Object x : new Object[] {t.keyAt(i), v}) {
                    if (x instanceof LuaTable nt) {
                        if (seen.put(nt, Boolean.TRUE) == null) todo.push(nt);
                    } else if (x instanceof Builtin b && b.estimatedBytes() == 0 && !grants.containsKey(b)) {
                        p.addLibrary(b);
                    }
                }
            }
        }
        for (Builtin b : internal) p.addLibrary(b);
        return p;
    }

    private void addLibrary(Builtin b) {
        Object had = library.putIfAbsent(b.qualifiedName, b);
        if (had != null && had != b) library.put(b.qualifiedName, AMBIGUOUS);
    }

    /** What {@code name} of {@code kind} stands for here; a {@link SnapshotProblem} naming it when nothing does. */
    Object resolve(Tag kind, String name) {
        if (kind == Tag.HOST) {
            Builtin b = host.get(name);
            if (b == null) throw new SnapshotProblem("the snapshot needs host function '" + name
                    + "', which the capabilities do not grant");
            return b;
        }
        Object b = library.get(name);
        if (b == AMBIGUOUS) throw new SnapshotProblem("the snapshot needs library function '" + name
                + "', a name two functions of the installed bundles share");
        if (b == null) throw new SnapshotProblem("the snapshot needs library function '" + name
                + "', which the capabilities do not grant (its bundle is not installed)");
        return b;
    }
}
