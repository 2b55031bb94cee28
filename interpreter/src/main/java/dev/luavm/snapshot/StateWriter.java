package dev.luavm.snapshot;

import dev.luavm.bytecode.Prototype;
import dev.luavm.lib.Persistent;
import dev.luavm.lib.SnapshotOut;
import dev.luavm.lib.SnapshotParticipant;
import dev.luavm.meter.Collector;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.value.Builtin;
import dev.luavm.value.Identity;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;
import dev.luavm.value.Userdata;
import dev.luavm.vm.Coroutine;
import dev.luavm.vm.CoroutineImage;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.VmSnapshots;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a sandbox's state in the snapshot format (docs/SNAPSHOT.md): a walk of everything a
 * script can reach from the roots (the same graph the memory walk measures, weak entries and
 * closure caches included, since the original still holds them until its next collection),
 * then one section after another. It reads the state and changes nothing in it (no identity
 * number is assigned, no weak entry cleared, no string hashed).
 *
 * <p>Refused, with the reason and where the value was found: a userdata whose payload is a host
 * object (a Java handle), a function a library made that it cannot rebuild, a function compiled
 * without its source, any other Java object. A run in progress is refused by the caller.
 */
public final class StateWriter {
    /** The sandbox to write. {@code grantNames}: each granted host function's builtin and its grant name. */
    public record Source(LuaState state, MemoryMeter meter, long seed, Map<Builtin, String> grantNames, Paused paused,
                         long maxBytes, byte[] key) {}

    /**
     * A run paused at a host call: its resume token, what it consumed so far and the call's name.
     * {@code hostCalls}: per grant name, the calls that ran in the sandbox and in the run.
     */
    public record Paused(byte[] token, long runGas, long runOutput, long runNanos, String callName,
                         Map<String, long[]> hostCalls) {}

    private final Source src;
    private final LuaState st;
    private final IdentityHashMap<Object, Integer> index = new IdentityHashMap<>();
    private final List<Object> objects = new ArrayList<>();
    private final IdentityHashMap<Object, Integer> permIndex = new IdentityHashMap<>();
    private final LinkedHashMap<String, Integer> permByName = new LinkedHashMap<>();
    private final List<Tag> permKinds = new ArrayList<>();
    private final List<String> permNames = new ArrayList<>();
    private final IdentityHashMap<Prototype, Integer> chunkIndex = new IdentityHashMap<>();
    private final List<Prototype> chunks = new ArrayList<>();
    private final IdentityHashMap<Coroutine, CoroutineImage> images = new IdentityHashMap<>();
    /** stack array of each coroutine written, for telling open upvalues whose owner is carried */
    private final IdentityHashMap<Object[], Coroutine> stacks = new IdentityHashMap<>();
    private final ArrayDeque<Object> work = new ArrayDeque<>();

    private StateWriter(Source src) {
        this.src = src;
        this.st = src.state();
    }

    /** The snapshot of {@code src}. */
    public static byte[] write(Source src) {
        return new StateWriter(src).run();
    }

    private byte[] run() {
        LuaTable[] roots = VmSnapshots.roots(st);
        for (LuaTable t : roots) visit(t);
        Coroutine main = st.mainCoroutine();
        visit(main);
        Coroutine current = VmSnapshots.current(st);
        visit(current);
        Collector gc = src.meter().collector();
        List<Object> finobj = gc == null ? List.of() : gc.finalizable();
        List<Object> pending = gc == null ? List.of() : gc.pendingFinalizers();
        for (Object o : finobj) visit(o);
        for (Object o : pending) visit(o);
        while (!work.isEmpty()) expand(work.pop());
        for (Map.Entry<Coroutine, CoroutineImage> e : images.entrySet()) stacks.put(stackOf(e.getKey()), e.getKey());

        ByteOut out = new ByteOut(4096, src.maxBytes());
        out.raw(SnapshotFormat.MAGIC, 0, SnapshotFormat.MAGIC.length);
        out.u8(SnapshotFormat.VERSION >>> 8);
        out.u8(SnapshotFormat.VERSION & 0xFF);
        out.varint((src.paused() != null ? SnapshotFormat.FLAG_PAUSED : 0) | (src.key() != null ? SnapshotFormat.FLAG_SEALED : 0));
        int tokenPos = -1;
        ByteOut body = new ByteOut(256, src.maxBytes());

        writeState(body, gc);
        section(out, Tag.STATE, body);
        writeChunks(body);
        section(out, Tag.CHUNKS, body);
        writePermanents(body);
        section(out, Tag.PERMANENTS, body);
        writeObjects(out);
        body = new ByteOut(256, src.maxBytes());
        for (LuaTable t : roots) value(body, t);
        value(body, main);
        value(body, current);
        body.varint(finobj.size());
        for (Object o : finobj) value(body, o);
        body.varint(pending.size());
        for (Object o : pending) value(body, o);
        section(out, Tag.ROOTS, body);
        if (src.paused() != null) {
            writePaused(body, src.paused());
            out.tag(Tag.PAUSED);
            out.varint(body.size());
            tokenPos = out.size(); // the token opens the section
            out.raw(body.array(), 0, body.size());
            body.reset();
        }
        for (SnapshotParticipant p : st.snapshotParticipants()) {
            body.bytes(p.snapshotName().getBytes(StandardCharsets.UTF_8));
            ByteOut state = new ByteOut(256, src.maxBytes());
            p.writeState(new PlainOut(state));
            body.part(state);
            section(out, Tag.EXTENSION, body);
        }
        out.tag(Tag.END);
        if (src.key() != null) {
            byte[] seal = SnapshotFormat.seal(src.key(), out.array(), out.size(), tokenPos);
            out.raw(seal, 0, seal.length);
        }
        out.u32(SnapshotFormat.crc(out.array(), 0, out.size()));
        return out.toByteArray();
    }

    private static Object[] stackOf(Coroutine co) {
        return VmSnapshots.stackOf(co);
    }

    /** Appends {@code body} as section {@code tag} and empties it for the next section. */
    private static void section(ByteOut out, Tag tag, ByteOut body) {
        out.tag(tag);
        out.part(body);
        body.reset();
    }

    // ---- discovery

    private void visit(Object v) {
        if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Double) return;
        if (index.containsKey(v) || permIndex.containsKey(v)) return;
        if (v instanceof LuaString || v instanceof LuaTable || v instanceof Upvalue || v instanceof Coroutine) {
            add(v);
        } else if (v instanceof LuaClosure c) {
            Prototype main = c.proto.chunkMain();
            if (main == null) throw refuse(v, "a function compiled without its source text");
            if (!chunkIndex.containsKey(main)) {
                chunkIndex.put(main, chunks.size());
                chunks.add(main);
            }
            add(v);
        } else if (v instanceof Userdata u) {
            if (!(u.payload() instanceof Persistent p)) throw refuse(v, "a host object (userdata), which a snapshot cannot carry");
            if (p.refusal() != null) throw refuse(v, p.refusal());
            add(v);
        } else if (v instanceof Builtin b) {
            String grant = src.grantNames().get(b);
            if (grant != null) {
                permanent(b, Tag.HOST, grant);
            } else if (VmSnapshots.isWrap(b)) {
                add(v);
            } else if (b instanceof Persistent p) {
                if (p.refusal() != null) throw refuse(v, p.refusal());
                add(v);
            } else if (b.estimatedBytes() == 0) {
                permanent(b, Tag.LIBRARY, b.qualifiedName);
            } else {
                throw refuse(v, "a function made by a library that a snapshot cannot rebuild ('" + b.qualifiedName + "')");
            }
        } else {
            throw refuse(v, "a Java object of class " + v.getClass().getName());
        }
    }

    private void add(Object v) {
        index.put(v, objects.size());
        objects.add(v);
        if (!(v instanceof LuaString)) work.push(v);
    }

    private void permanent(Builtin b, Tag kind, String name) {
        String key = kind.name() + ":" + name;
        Integer i = permByName.get(key);
        if (i == null) {
            i = permNames.size();
            permByName.put(key, i);
            permKinds.add(kind);
            permNames.add(name);
        }
        permIndex.put(b, i);
    }

    private void expand(Object o) {
        if (o instanceof LuaTable t) {
            visit(t.getMetatable());
            for (int i = 0; i < t.arrayCapacity(); i++) visit(t.arrayAt(i));
            for (int i = 0; i < t.hashCapacity(); i++) {
                Object k = t.hashKeyAt(i);
                if (k == null) continue;
                visit(k);
                visit(t.hashValueAt(i));
            }
        } else if (o instanceof LuaClosure c) {
            for (Upvalue u : c.upvals) visit(u);
            if (c.childCache != null) for (LuaClosure child : c.childCache) visit(child);
        } else if (o instanceof Upvalue u) {
            visit(u.get());
        } else if (o instanceof Coroutine co) {
            CoroutineImage m = CoroutineImage.of(co);
            images.put(co, m);
            visit(m.body);
            visit(m.resumer);
            for (Object v : m.live) visit(v);
            for (CoroutineImage.Frame f : m.frames) {
                visit(f.closure);
                visit(f.builtin);
                visit(f.handler);
            }
            for (Upvalue u : m.open) visit(u);
        } else if (o instanceof Userdata u) {
            visit(u.getMetatable());
        } else if (VmSnapshots.isWrap(o)) {
            visit(VmSnapshots.wrapped(o));
        } else if (o instanceof Builtin b) {
            b.forEachReference(this::visit);
        }
    }

    private SnapshotProblem refuse(Object v, String what) {
        String where = PathFinder.describe(st, v);
        return new SnapshotProblem("cannot snapshot " + (where == null ? "the state" : where) + ": it holds " + what);
    }

    // ---- sections

    private void writeState(ByteOut b, Collector gc) {
        b.i64(src.seed());
        b.varint(src.meter().identityCounter() & 0xFFFFFFFFL);
        b.varint(src.meter().liveAtLastWalk());
        b.varint(src.meter().chargedSinceWalk());
        b.u8(gc == null || gc.isRunning() ? 1 : 0);
        b.varint(gc == null ? 0 : gc.collections());
    }

    private void writeChunks(ByteOut b) {
        b.varint(chunks.size());
        for (Prototype main : chunks) {
            b.bytes(main.source.bytesUnsafe());
            byte[] text = main.chunkText();
            b.bytes(text);
            b.raw(SnapshotFormat.sha256(text), 0, 32);
            b.raw(main.codeDigest(), 0, 32);
            // string constants that are also objects of the snapshot: the recompiled chunk uses those
            List<Prototype> pre = SnapshotFormat.preorder(main);
            ByteOut refs = new ByteOut(16, src.maxBytes());
            int n = 0;
            for (int p = 0; p < pre.size(); p++) {
                Object[] k = pre.get(p).constants;
                for (int i = 0; i < k.length; i++) {
                    Integer obj = k[i] instanceof LuaString ? index.get(k[i]) : null;
                    if (obj == null) continue;
                    refs.varint(p);
                    refs.varint(i);
                    refs.varint(obj);
                    n++;
                }
            }
            b.varint(n);
            b.raw(refs.array(), 0, refs.size());
        }
    }

    private void writePermanents(ByteOut b) {
        b.varint(permNames.size());
        for (int i = 0; i < permNames.size(); i++) {
            b.tag(permKinds.get(i));
            b.bytes(permNames.get(i).getBytes(StandardCharsets.UTF_8));
        }
    }

    private void writeObjects(ByteOut out) {
        out.tag(Tag.OBJECTS);
        ByteOut section = new ByteOut(Math.max(256, objects.size() * 16), src.maxBytes());
        section.varint(objects.size());
        ByteOut body = new ByteOut(256, src.maxBytes());
        for (Object o : objects) {
            Tag tag = writeObject(body, o);
            section.tag(tag);
            section.part(body);
            body.reset();
        }
        out.part(section);
    }

    private Tag writeObject(ByteOut b, Object o) {
        if (o instanceof LuaString s) {
            b.u8(s.cachedHash() != 0 ? 1 : 0);
            b.bytes(s.bytesUnsafe());
            return Tag.STRING;
        }
        if (o instanceof LuaTable t) {
            b.varint(Identity.peek(t) & 0xFFFFFFFFL);
            value(b, t.getMetatable());
            b.u8(t.metaAbsent);
            b.varint(t.arrayCapacity());
            for (int i = 0; i < t.arrayCapacity(); i++) value(b, t.arrayAt(i));
            b.varint(t.hashCapacity());
            b.varint(t.hashUsed());
            for (int i = 0; i < t.hashCapacity(); i++) {
                Object k = t.hashKeyAt(i);
                if (k == null) continue;
                b.varint(i);
                value(b, k);
                value(b, t.hashValueAt(i));
            }
            return Tag.TABLE;
        }
        if (o instanceof LuaClosure c) {
            b.varint(Identity.peek(c) & 0xFFFFFFFFL);
            b.varint(chunkIndex.get(c.proto.chunkMain()));
            int[] path = c.proto.chunkPath();
            b.varint(path.length);
            for (int i : path) b.varint(i);
            // the module the function's code belongs to (grants bound to a module check it), or none
            b.bytes(c.heat.module == null ? new byte[0] : c.heat.module.getBytes(StandardCharsets.UTF_8));
            b.varint(c.upvals.length);
            for (Upvalue u : c.upvals) value(b, u);
            LuaClosure[] cache = c.childCache;
            b.varint(cache == null ? 0 : cache.length);
            if (cache != null) for (LuaClosure child : cache) value(b, child);
            return Tag.CLOSURE;
        }
        if (o instanceof Upvalue u) {
            Coroutine owner = u.isOpen() ? stacks.get(u.stack) : null;
            if (owner != null) {
                b.tag(Tag.OPEN);
                b.varint(u.index);
            } else {
                // open on a coroutine nothing else reaches: that coroutine can never run again, so
                // the variable keeps the value it has now, as when PUC frees such a thread
                b.tag(Tag.CLOSED);
                value(b, u.get());
            }
            return Tag.UPVALUE;
        }
        if (o instanceof Coroutine co) {
            writeCoroutine(b, co, images.get(co));
            return Tag.COROUTINE;
        }
        if (o instanceof Userdata u) {
            Persistent p = (Persistent) u.payload();
            b.varint(Identity.peek(u) & 0xFFFFFFFFL);
            value(b, u.getMetatable());
            b.bytes(p.persistKind().getBytes(StandardCharsets.UTF_8));
            ByteOut payload = new ByteOut(64, src.maxBytes());
            p.persist(new PlainOut(payload));
            b.part(payload);
            return Tag.USERDATA;
        }
        if (VmSnapshots.isWrap(o)) {
            b.varint(Identity.peek(o) & 0xFFFFFFFFL);
            value(b, VmSnapshots.wrapped(o));
            return Tag.WRAP;
        }
        Builtin fn = (Builtin) o;
        Persistent p = (Persistent) fn;
        b.varint(Identity.peek(fn) & 0xFFFFFFFFL);
        b.bytes(p.persistKind().getBytes(StandardCharsets.UTF_8));
        ByteOut state = new ByteOut(64, src.maxBytes());
        p.persist(new ValueOut(state));
        b.part(state);
        return Tag.LIBRARY_OBJECT;
    }

    private void writeCoroutine(ByteOut b, Coroutine co, CoroutineImage m) {
        b.varint(Identity.peek(co) & 0xFFFFFFFFL);
        b.u8(co == st.mainCoroutine() ? 1 : 0);
        b.tag(switch (m.status) {
            case SUSPENDED -> Tag.SUSPENDED;
            case RUNNING -> Tag.RUNNING;
            case NORMAL -> Tag.NORMAL;
            case DEAD -> Tag.DEAD;
        });
        b.u8(m.started ? 1 : 0);
        value(b, m.body);
        value(b, m.resumer);
        b.varint(m.nny);
        b.varint(m.yieldFunc);
        b.zigzag(m.yieldNres);
        b.varint(m.resumeDepth);
        b.varint(m.metaDepth);
        b.varint(m.stackCapacity);
        b.varint(m.top);
        b.varint(m.live.length);
        for (Object v : m.live) value(b, v);
        b.varint(m.frameCapacity);
        b.varint(m.framesAllocated);
        b.varint(m.frames.length);
        for (CoroutineImage.Frame f : m.frames) {
            b.tag(switch (f.kind) {
                case CoroutineImage.LUA -> Tag.FRAME_LUA;
                case CoroutineImage.PCALL -> Tag.FRAME_PCALL;
                case CoroutineImage.XPCALL -> Tag.FRAME_XPCALL;
                case CoroutineImage.RESUME -> Tag.FRAME_RESUME;
                case CoroutineImage.WRAP -> Tag.FRAME_WRAP;
                case CoroutineImage.SUSPEND -> Tag.FRAME_PAUSED;
                default -> throw new IllegalStateException("frame kind " + f.kind);
            });
            b.varint(f.flags);
            value(b, f.closure);
            b.varint(f.func);
            b.varint(f.base);
            b.varint(f.pc);
            b.zigzag(f.nresults);
            value(b, f.builtin);
            b.u8(f.failed ? 1 : 0);
            value(b, f.handler);
            b.varint(f.aux);
            b.varint(f.handlerDepth);
            b.varint(f.handlerNny);
            b.varint(f.savedMetaDepth);
        }
        b.varint(m.open.length);
        for (Upvalue u : m.open) value(b, u);
    }

    private void writePaused(ByteOut b, Paused p) {
        b.raw(p.token(), 0, SnapshotFormat.TOKEN_BYTES);
        b.varint(p.runGas());
        b.varint(p.runOutput());
        b.varint(p.runNanos());
        b.bytes(p.callName().getBytes(StandardCharsets.UTF_8));
        b.varint(p.hostCalls().size());
        for (Map.Entry<String, long[]> e : p.hostCalls().entrySet()) {
            b.bytes(e.getKey().getBytes(StandardCharsets.UTF_8));
            b.varint(e.getValue()[0]);
            b.varint(e.getValue()[1]);
        }
    }

    // ---- values

    void value(ByteOut b, Object v) {
        if (v == null) {
            b.tag(Tag.NIL);
        } else if (v instanceof Boolean x) {
            b.tag(x ? Tag.TRUE : Tag.FALSE);
        } else if (v instanceof Long l) {
            b.tag(Tag.INTEGER);
            b.zigzag(l);
        } else if (v instanceof Double d) {
            b.tag(Tag.FLOAT);
            b.i64(Double.doubleToRawLongBits(d));
        } else {
            Integer i = index.get(v);
            if (i != null) {
                b.tag(Tag.REF);
                b.varint(i);
                return;
            }
            Integer p = permIndex.get(v);
            if (p == null) throw new IllegalStateException("value not discovered: " + v.getClass().getName());
            b.tag(Tag.PERMANENT);
            b.varint(p);
        }
    }

    /** What a {@link Persistent} builtin writes: plain data and the Lua values it holds. */
    private final class ValueOut extends PlainOut {
        ValueOut(ByteOut b) {
            super(b);
        }

        @Override
        public void writeValue(Object luaValue) {
            value(b, luaValue);
        }
    }

    /** What a userdata payload or a participant writes: plain data only. */
    private static class PlainOut implements SnapshotOut {
        final ByteOut b;

        PlainOut(ByteOut b) {
            this.b = b;
        }

        @Override
        public void writeLong(long v) {
            b.i64(v);
        }

        @Override
        public void writeVarint(long v) {
            b.varint(v);
        }

        @Override
        public void writeBytes(byte[] bytes) {
            b.bytes(bytes);
        }

        @Override
        public void writeValue(Object luaValue) {
            throw new IllegalStateException("plain data only: a userdata payload or participant cannot write Lua values");
        }
    }
}
