package dev.luavm.meter;

import dev.luavm.bytecode.Prototype;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;
import dev.luavm.value.Userdata;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.function.Consumer;

/**
 * Measures the live Lua heap of one sandbox: the {@link MemoryMeter.LiveSizer} behind the
 * memory cap.
 *
 * <p>A mark phase without the sweep: starting from the sandbox's roots (globals, registry,
 * metatables, every coroutine's stack and frames), it visits every reachable object once, by
 * identity, and sums the same fixed estimates the meter charges ({@link Sizes}):
 * <pre>
 *   string       STRING_HEADER + length
 *   table        {@link LuaTable#estimatedBytes()} (header, array slots, hash slots)
 *   closure      CLOSURE_HEADER + REF per upvalue
 *   upvalue      UPVALUE
 *   userdata     USERDATA
 *   builtin      {@link Builtin#estimatedBytes()}, and the Lua values it reports through
 *                {@link Builtin#forEachReference} are walked: a gmatch iterator's subject and
 *                pattern, a coroutine.wrap function's coroutine. Library builtins, shared by
 *                every sandbox, report nothing and weigh 0
 *   prototype    (shared compiled code) not counted, but its constants and nested prototypes are
 *                walked, so strings held only by code are counted once
 *   numbers, booleans   nothing: immediate values
 * </pre>
 * Objects the walker does not know (coroutines, VM frames) are handed to an {@link Extension}
 * supplied by the VM ({@code dev.luavm.vm.LiveRoots}). It counts a coroutine's registers only up
 * to the top of its live frames and its frames only below the frame count: what returned frames
 * left behind is not held by the script. Like the atomic phase of PUC's collector, which clears
 * a thread's stack above its top, the extension also clears those dead slots and the references
 * of popped frames as it goes, so the JVM does not keep what the walk did not count. The walk is
 * iterative (an explicit work stack), so no heap shape can overflow the Java stack, and it
 * depends only on the Lua object graph, so the figure is the same on every JVM.
 */
public final class LiveHeapWalker implements MemoryMeter.LiveSizer {
    /** Sizes and expands objects of types the walker does not know. */
    @FunctionalInterface
    public interface Extension {
        /**
         * Returns the size of {@code o} and pushes what it references through {@code push},
         * or returns -1 when {@code o} is not one of the extension's types either.
         */
        long visit(Object o, Consumer<Object> push);
    }

    /** Pushes the sandbox's roots. */
    @FunctionalInterface
    public interface Roots {
        void pushRoots(Consumer<Object> push);
    }

    private final Roots roots;
    private final Extension extension;
    /** weak tables, finalizers: the collector's state (null: a plain measuring walk) */
    private final Collector collector;
    private long lastWork;

    public LiveHeapWalker(Roots roots, Extension extension) {
        this(roots, extension, null);
    }

    public LiveHeapWalker(Roots roots, Extension extension, Collector collector) {
        this.roots = roots;
        this.extension = extension;
        this.collector = collector;
    }

    @Override
    public long lastWalkWork() {
        return lastWork;
    }

    @Override
    public long liveBytes() {
        Mark m = new Mark();
        roots.pushRoots(m);
        if (collector != null) collector.pushRoots(m);
        m.propagate();
        if (collector == null) {
            lastWork = m.effort;
            return m.total;
        }
        collector.collect(m);
        lastWork = m.effort;
        return m.total;
    }

    /**
     * One mark: the objects reached (by identity), the work stack, the bytes counted, and the
     * weak tables met, whose weak parts are not followed (see {@link Collector}).
     */
    final class Mark implements Consumer<Object> {
        final IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        final ArrayDeque<Object> work = new ArrayDeque<>();
        /** weak tables met, in the order met, with their mode bits */
        final java.util.ArrayList<LuaTable> weak = new java.util.ArrayList<>();
        final java.util.ArrayList<Integer> modes = new java.util.ArrayList<>();
        /** closures whose child-closure caches are weak (cleared of what the mark did not reach) */
        final java.util.ArrayList<LuaClosure> caches = new java.util.ArrayList<>();
        long total;
        /** references followed and slots scanned: the walk's cost, charged as gas */
        long effort;

        @Override
        public void accept(Object o) {
            effort++;
            if (o != null && !(o instanceof Long || o instanceof Double || o instanceof Boolean)
                    && seen.put(o, Boolean.TRUE) == null) {
                this.work.push(o);
            }
        }

        boolean marked(Object o) {
            return !Collector.collectable(o) || seen.containsKey(o);
        }

        void propagate() {
            while (!work.isEmpty()) {
                total += visit(work.pop(), this);
            }
        }

        /** A table: its strong parts are followed; a weak one is remembered for the collector. */
        long table(LuaTable t) {
            int mode = collector == null ? 0 : Collector.weakMode(t);
            if (mode == 0) {
                t.forEachReference(this);
                return t.estimatedBytes();
            }
            weak.add(t);
            modes.add(mode);
            LuaTable mt = t.getMetatable();
            if (mt != null) accept(mt);
            int n = t.slots();
            effort += n;
            for (int i = 0; i < n; i++) {
                Object v = t.valueAt(i);
                if (v == null) continue;
                Object k = t.keyAt(i);
                // what cannot be collected (strings, numbers) is kept and counted either way
                if ((mode & Collector.WEAK_KEYS) == 0 || !Collector.collectable(k)) accept(k);
                if ((mode & Collector.WEAK_VALUES) == 0) {
                    // an ephemeron: the value is followed only once its key is marked (see Collector)
                    if ((mode & Collector.WEAK_KEYS) == 0 || marked(k)) accept(v);
                } else if (!Collector.collectable(v)) {
                    accept(v);
                }
            }
            return t.estimatedBytes();
        }
    }

    private long visit(Object o, Consumer<Object> push) {
        if (o instanceof LuaString s) return Sizes.string(s.length());
        if (o instanceof LuaTable t) return ((Mark) push).table(t);
        if (o instanceof LuaClosure c) {
            for (Upvalue u : c.upvals) push.accept(u);
            push.accept(c.proto);
            if (c.childCache != null) {
                // the closure cache is weak for the collector, as PUC's Proto cache: a cached
                // closure nothing else reaches is dropped from the cache, not kept alive by it
                if (push instanceof Mark m && collector != null) m.caches.add(c);
                else for (LuaClosure child : c.childCache) push.accept(child);
            }
            return Sizes.CLOSURE_HEADER + (long) c.upvals.length * Sizes.REF;
        }
        if (o instanceof Upvalue u) {
            // an open upvalue's register may belong to a coroutine nothing else reaches
            push.accept(u.get());
            return Sizes.UPVALUE;
        }
        if (o instanceof Prototype p) {
            // a loaded chunk's code is the script's data too (a chunk compiled by the host is
            // counted in each sandbox running it); the source name may be the whole source
            push.accept(p.source);
            for (Object k : p.constants) push.accept(k);
            for (Prototype child : p.protos) push.accept(child);
            return p.heapBytes();
        }
        if (o instanceof Userdata u) {
            push.accept(u.getMetatable());
            return Sizes.USERDATA;
        }
        if (o instanceof Builtin b) {
            b.forEachReference(push);
            return b.estimatedBytes();
        }
        long size = extension == null ? -1 : extension.visit(o, push);
        if (size < 0) throw new IllegalStateException("live heap walk met an unknown object: " + o.getClass().getName());
        return size;
    }
}
