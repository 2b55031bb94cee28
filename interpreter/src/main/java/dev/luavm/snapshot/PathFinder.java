package dev.luavm.snapshot;

import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;
import dev.luavm.value.Userdata;
import dev.luavm.vm.Coroutine;
import dev.luavm.vm.CoroutineImage;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.VmSnapshots;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;

/**
 * Where a value sits in a sandbox, for the message of a refused snapshot: {@code global 'conn'},
 * {@code field 'db.handle'}, {@code an upvalue of global 'f'}... A breadth-first search from the
 * globals (then the registry and the coroutines), run only when a snapshot is refused, so the
 * shortest path is named.
 */
final class PathFinder {
    private PathFinder() {}

    /** A description of where {@code target} is reachable, or null when no path was found. */
    static String describe(LuaState st, Object target) {
        IdentityHashMap<Object, String> seen = new IdentityHashMap<>();
        ArrayDeque<Object> queue = new ArrayDeque<>();
        LuaTable[] roots = VmSnapshots.roots(st);
        offer(seen, queue, roots[0], "the globals");
        offer(seen, queue, roots[1], "the registry");
        offer(seen, queue, st.mainCoroutine(), "the main coroutine");
        while (!queue.isEmpty()) {
            Object o = queue.poll();
            String where = seen.get(o);
            if (o == target) return where;
            if (o instanceof LuaTable t) {
                boolean globals = t == roots[0];
                offer(seen, queue, t.getMetatable(), "the metatable of " + where);
                for (int i = 0; i < t.arrayCapacity(); i++) offer(seen, queue, t.arrayAt(i), field(where, globals, (long) (i + 1)));
                for (int i = 0; i < t.hashCapacity(); i++) {
                    Object k = t.hashKeyAt(i);
                    if (k == null || t.hashValueAt(i) == null) continue;
                    offer(seen, queue, t.hashValueAt(i), field(where, globals, k));
                    offer(seen, queue, k, "a key of " + where);
                }
            } else if (o instanceof LuaClosure c) {
                for (int i = 0; i < c.upvals.length; i++) {
                    String name = c.proto.upvalues[i].name();
                    offer(seen, queue, c.upvals[i].get(), "upvalue '" + name + "' of " + where);
                }
            } else if (o instanceof Upvalue u) {
                offer(seen, queue, u.get(), where);
            } else if (o instanceof Coroutine co) {
                CoroutineImage m = CoroutineImage.of(co);
                offer(seen, queue, m.body, "the body of " + where);
                for (Object v : m.live) offer(seen, queue, v, "a local of " + where);
            } else if (o instanceof Userdata u) {
                offer(seen, queue, u.getMetatable(), "the metatable of " + where);
            } else if (VmSnapshots.isWrap(o)) {
                offer(seen, queue, VmSnapshots.wrapped(o), "the coroutine of " + where);
            }
        }
        return null;
    }

    private static void offer(IdentityHashMap<Object, String> seen, ArrayDeque<Object> queue, Object v, String where) {
        if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Double || v instanceof LuaString) return;
        if (seen.putIfAbsent(v, where) == null) queue.add(v);
    }

    private static String field(String where, boolean inGlobals, Object key) {
        String k = key instanceof LuaString s ? s.toString() : key instanceof Long || key instanceof Double ? String.valueOf(key) : "?";
        if (k.length() > 60) k = k.substring(0, 60) + "...";
        if (inGlobals) return "global '" + k + "'";
        if (where.startsWith("global '") || where.startsWith("field '")) {
            String inner = where.substring(where.indexOf('\'') + 1, where.length() - 1);
            return "field '" + inner + "." + k + "'";
        }
        return "field '" + k + "' of " + where;
    }
}
