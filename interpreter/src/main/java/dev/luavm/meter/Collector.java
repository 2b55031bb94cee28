package dev.luavm.meter;

import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Lua's collector for one sandbox, run by the live-heap walk ({@link LiveHeapWalker}): weak
 * tables and {@code __gc} finalizers, deterministic because the walk is.
 *
 * <p>There is no sweep: the JVM reclaims what nothing references. What the collector adds to
 * the walk's mark is what Lua can observe, in the order of PUC 5.3's atomic phase:
 * <ol>
 *   <li>The mark from the roots does not follow the weak parts of tables whose metatable has a
 *       {@code __mode} containing {@code 'k'} and/or {@code 'v'}. A weak-key table is an
 *       <em>ephemeron</em> table: a value is marked only once its key is marked, repeated until
 *       nothing changes (so a value that refers to its own key does not keep it alive).</li>
 *   <li>Entries whose value was not marked are cleared from weak-value tables.</li>
 *   <li>Objects registered for finalization ({@link #register}: {@code setmetatable} with a
 *       metatable that has a {@code __gc} field, as {@code luaC_checkfinalizer}) that were not
 *       marked are <em>separated</em>: they leave the registry (a finalizer runs at most once)
 *       and join the queue of objects to finalize, and are marked again with all they reach
 *       (resurrection: they stay alive until their finalizer has run, and after that if the
 *       finalizer stores them somewhere).</li>
 *   <li>Entries whose key is still not marked are cleared from weak-key tables, and weak-value
 *       tables met only through resurrected objects are cleared of unmarked values. So, as PUC's
 *       manual says, resurrected objects are removed from weak values before their finalizers
 *       run, and from weak keys only at the next collection that finds them unreachable.</li>
 * </ol>
 * Strings, numbers, booleans and the library's builtins (shared, never collected, like C
 * functions) are values, not objects: they are never removed from weak tables.
 *
 * <p>Finalizers are queued here and run by whoever calls {@link #nextToFinalize} (the base
 * library's {@code collectgarbage}, and the VM at the end of a run): each is called with its
 * object as the only argument, in the reverse order of registration among those separated by the
 * same walk (PUC's order), in the sandbox, under its gas and limits. The queue is a root until
 * each has run.
 */
public final class Collector {
    /** {@code __mode} bits */
    public static final int WEAK_KEYS = 1;
    public static final int WEAK_VALUES = 2;

    private static final LuaString MODE = LuaString.of("__mode");
    private static final LuaString GC = LuaString.of("__gc");

    /** objects whose metatable had __gc when it was set, in registration order */
    private final ArrayList<Object> finobj = new ArrayList<>();
    /** the same objects, for the at-most-once test in constant time */
    private final java.util.IdentityHashMap<Object, Boolean> marked = new java.util.IdentityHashMap<>(4); // grows with use
    /** separated objects waiting for their finalizer, next first */
    private final ArrayDeque<Object> tobefnz = new ArrayDeque<>(0);
    private int collections;
    /**
     * Work credited by {@code collectgarbage("step")} since the latest collection, in bytes:
     * when it covers the heap, the step finishes the cycle ({@link #step})
     */
    private long stepCredit;
    /**
     * What one basic step ({@code collectgarbage("step")} or {@code ("step", 0)}) credits: PUC
     * 5.3's GCSTEPSIZE, {@code 100 * sizeof(TString)} bytes
     */
    static final long BASIC_STEP_BYTES = 2400;
    /** true while finalizers run (a collection inside one queues, never runs, further finalizers) */
    private boolean finalizing;

    /** The {@code __mode} bits of {@code t}'s metatable (0: a strong table). */
    static int weakMode(LuaTable t) {
        LuaTable mt = t.getMetatable();
        if (mt == null) return 0;
        if (!(mt.getStr(MODE) instanceof LuaString s)) return 0;
        int mode = 0;
        byte[] b = s.bytesUnsafe();
        for (int i = 0; i < s.length(); i++) {
            if (b[i] == 'k') mode |= WEAK_KEYS;
            else if (b[i] == 'v') mode |= WEAK_VALUES;
        }
        return mode;
    }

    /** False for values a weak table never loses: nil, numbers, booleans, strings, shared builtins. */
    static boolean collectable(Object o) {
        if (o == null || o instanceof Long || o instanceof Double || o instanceof Boolean || o instanceof LuaString) {
            return false;
        }
        return !(o instanceof Builtin b) || b.estimatedBytes() > 0;
    }

    /**
     * {@code setmetatable(o, mt)}: marks {@code o} for finalization when {@code mt} has a
     * {@code __gc} field (any non-nil value) and {@code o} is not marked already.
     */
    public void register(Object o, LuaTable mt) {
        if (mt == null || mt.getStr(GC) == null) return;
        if (marked.put(o, Boolean.TRUE) == null) finobj.add(o);
    }

    /**
     * Queues every object still marked for finalization, reachable or not, after those queued
     * already, in the reverse order of their marking ({@code separatetobefnz(g, 1)}, as
     * {@code lua_close} does): for the finalizers a closing sandbox runs.
     */
    public void separateAll() {
        for (int i = finobj.size() - 1; i >= 0; i--) tobefnz.addLast(finobj.get(i));
        finobj.clear();
        marked.clear();
    }

    /** The next object whose finalizer is due, or null; it leaves the queue. */
    public Object nextToFinalize() {
        return tobefnz.pollFirst();
    }

    /** {@code collectgarbage("stop")}/{@code "restart"}: only reported by {@code "isrunning"}; the meter still walks at the cap. */
    private boolean running = true;

    public boolean isRunning() {
        return running;
    }

    public void setRunning(boolean on) {
        running = on;
    }

    /** Claims the running of finalizers; false when they are running already (below on the stack). */
    public boolean enterFinalizers() {
        if (finalizing) return false;
        finalizing = true;
        return true;
    }

    public void exitFinalizers() {
        finalizing = false;
    }

    /** True when finalizers are due. */
    public boolean hasPending() {
        return !tobefnz.isEmpty();
    }

    /** The {@code __gc} of {@code o}'s metatable now (nil or not a function: nothing to call). */
    public static Object finalizerOf(Object o) {
        LuaTable mt = o instanceof LuaTable t ? t.getMetatable()
                : o instanceof dev.luavm.value.Userdata u ? u.getMetatable() : null; // a library's handle (io's files)
        return mt == null ? null : mt.getStr(GC);
    }

    /**
     * {@code collectgarbage("step", kib)}: PUC 5.3's collector is incremental, and a step does
     * about {@code kib} KiB of its work plus a basic step ({@link #BASIC_STEP_BYTES}), returning
     * true when that finished a cycle. Here a collection is one walk, so steps are paced the same
     * way instead: each credits that much work, and the step whose credit reaches
     * {@code heapBytes} (what the sandbox holds) finishes the cycle: it returns true and the
     * caller collects; the others return false and collect nothing. So
     * {@code repeat until collectgarbage("step")} ends after a number of steps that grows with
     * the heap, a step of 20,000 KiB finishes at once, and a fresh state answers a lone
     * {@code collectgarbage("step")} with false, as lua5.3 does. Any collection restarts the
     * count. Deterministic: it depends on the accounted heap only. The credit is not part of a
     * snapshot (a restored sandbox starts a fresh cycle).
     */
    public boolean step(long kib, long heapBytes) {
        long work = kib <= 0 ? BASIC_STEP_BYTES
                : kib >= Long.MAX_VALUE / 1024 - BASIC_STEP_BYTES ? Long.MAX_VALUE / 2 : kib * 1024 + BASIC_STEP_BYTES;
        stepCredit = Math.min(stepCredit + work, Long.MAX_VALUE / 2);
        if (stepCredit < heapBytes) return false;
        stepCredit = 0;
        return true;
    }

    /** How many walks have collected (for tests and {@code collectgarbage("step")}). */
    public int collections() {
        return collections;
    }

    // ---- snapshots

    /** Objects marked for finalization, in registration order (a snapshot keeps the order). */
    public List<Object> finalizable() {
        return java.util.Collections.unmodifiableList(finobj);
    }

    /** Objects separated and waiting for their finalizer, next first. */
    public List<Object> pendingFinalizers() {
        return List.copyOf(tobefnz);
    }

    /**
     * Takes a snapshot's collector state: the objects marked for finalization (in order), those
     * waiting for their finalizer, whether {@code collectgarbage("stop")} was in effect and how
     * many collections ran. Restore only, before any script runs.
     */
    public void restore(List<Object> finalizable, List<Object> pending, boolean isRunning, int collectionCount) {
        finobj.clear();
        marked.clear();
        tobefnz.clear();
        for (Object o : finalizable) {
            if (marked.put(o, Boolean.TRUE) == null) finobj.add(o);
        }
        tobefnz.addAll(pending);
        running = isRunning;
        collections = collectionCount;
        finalizing = false;
        stepCredit = 0;
    }

    /** The queue of objects to finalize is a root: they live until their finalizer ran. */
    void pushRoots(Consumer<Object> push) {
        for (Object o : tobefnz) push.accept(o);
    }

    /** Steps 1 to 4 of the class comment, on a walk whose mark from the roots has propagated. */
    void collect(LiveHeapWalker.Mark m) {
        collections++;
        stepCredit = 0; // a cycle finished
        converge(m, 0);
        // 2. weak values, before resurrection
        int before = m.weak.size();
        for (int i = 0; i < before; i++) {
            if ((m.modes.get(i) & WEAK_VALUES) != 0) clearValues(m, m.weak.get(i));
        }
        // 3. separate the unreached objects marked for finalization, in registration order
        List<Object> separated = new ArrayList<>();
        int kept = 0;
        for (int i = 0; i < finobj.size(); i++) {
            Object o = finobj.get(i);
            if (m.seen.containsKey(o)) {
                finobj.set(kept++, o);
            } else {
                separated.add(o);
                marked.remove(o); // finalized once; a later setmetatable may mark it again
            }
        }
        finobj.subList(kept, finobj.size()).clear();
        m.effort += finobj.size() + separated.size();
        // PUC calls them in the reverse order of their marking
        for (int i = separated.size() - 1; i >= 0; i--) tobefnz.addLast(separated.get(i));
        if (!separated.isEmpty()) {
            for (Object o : separated) m.accept(o);
            m.propagate();
            converge(m, 0);
        }
        // closure caches (weak, as PUC's): what only a cache held is forgotten
        for (dev.luavm.value.LuaClosure c : m.caches) {
            dev.luavm.value.LuaClosure[] cache = c.childCache;
            if (cache == null) continue;
            for (int i = 0; i < cache.length; i++) if (cache[i] != null && !m.seen.containsKey(cache[i])) cache[i] = null;
        }
        // 4. weak keys with the final marks; weak values of tables met through resurrected objects
        for (int i = 0; i < m.weak.size(); i++) {
            int mode = m.modes.get(i);
            if ((mode & WEAK_KEYS) != 0) clearKeys(m, m.weak.get(i));
            if (i >= before && (mode & WEAK_VALUES) != 0) clearValues(m, m.weak.get(i));
        }
    }

    /** Ephemerons: marks the values of weak-key (only) tables whose keys got marked, until nothing changes. */
    private static void converge(LiveHeapWalker.Mark m, int from) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = from; i < m.weak.size(); i++) {
                if (m.modes.get(i) != WEAK_KEYS) continue;
                LuaTable t = m.weak.get(i);
                int n = t.slots();
                m.effort += n;
                for (int s = 0; s < n; s++) {
                    Object v = t.valueAt(s);
                    if (v != null && !m.marked(v) && m.marked(t.keyAt(s))) {
                        m.accept(v);
                        changed = true;
                    }
                }
            }
            m.propagate();
        }
    }

    private static void clearValues(LiveHeapWalker.Mark m, LuaTable t) {
        int n = t.slots();
        m.effort += n;
        for (int s = 0; s < n; s++) {
            Object v = t.valueAt(s);
            if (v != null && !m.marked(v)) t.clearAt(s);
        }
    }

    private static void clearKeys(LiveHeapWalker.Mark m, LuaTable t) {
        int n = t.slots();
        m.effort += n;
        for (int s = 0; s < n; s++) {
            if (t.valueAt(s) != null && !m.marked(t.keyAt(s))) t.clearAt(s);
        }
    }
}
