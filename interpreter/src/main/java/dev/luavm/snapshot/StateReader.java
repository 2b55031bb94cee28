package dev.luavm.snapshot;

import dev.luavm.bytecode.Prototype;
import dev.luavm.compiler.LuaCompiler;
import dev.luavm.lib.SnapshotIn;
import dev.luavm.lib.SnapshotParticipant;
import dev.luavm.lib.Unpersister;
import dev.luavm.meter.Collector;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.Builtin;
import dev.luavm.value.Identity;
import dev.luavm.value.LuaClosure;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Upvalue;
import dev.luavm.value.Userdata;
import dev.luavm.vm.Coroutine;
import dev.luavm.vm.CoroutineImage;
import dev.luavm.vm.Load;
import dev.luavm.vm.LuaError;
import dev.luavm.vm.LuaState;
import dev.luavm.vm.MeteredCompile;
import dev.luavm.vm.VmSnapshots;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a snapshot into a freshly installed sandbox (docs/SNAPSHOT.md): our own bounded reader,
 * never a reflective deserializer (threat T28). Sizes and counts are checked against the bytes
 * left before anything is allocated; every reference is checked for the kind of object its
 * place needs; every structure is checked for what the VM relies on (table layouts, coroutine
 * frames, links between coroutines) before the state is installed, so a malformed snapshot ends
 * in a {@link SnapshotProblem} and nothing of it is installed. The reader never recurses on the
 * snapshot's structure: objects are flat records, read in two passes (make every object, then
 * fill them), so any graph, cycles included, is read in constant Java stack.
 *
 * <p>What is built is charged as it is built: memory to the restored sandbox's meter (a valid
 * snapshot larger than its cap ends in {@code not enough memory}, reported as the MEMORY limit),
 * work to a gas meter of the restore's own (one unit per value, the byte rule for bytes, the
 * compiler's work for the chunks), bounded by the limits of a run.
 */
public final class StateReader {
    /** Where a snapshot is read into: a sandbox right after its bundles were installed. */
    public record Target(LuaState state, MemoryMeter meter, GasMeter gas, Permanents permanents,
                         Map<String, Unpersister> unpersisters, ModuleCheck modules, byte[] key) {}

    /**
     * Whether the restoring host vouches that module {@code module} is this chunk's text now (its
     * module directories or its resolver give that text for it): a snapshot cannot make code
     * belong to a module by saying so.
     */
    @FunctionalInterface
    public interface ModuleCheck {
        boolean vouches(String module, String chunkName, byte[] text);
    }

    /** What the caller applies itself: the memory figures, the collector state, a paused run. */
    public record Result(long memoryLive, long memorySinceWalk, Paused paused) {}

    /** A paused run read from the snapshot. */
    public record Paused(byte[] token, long runGas, long runOutput, long runNanos, String callName,
                         Map<String, long[]> hostCalls) {}

    /** A state of the format that is fine but does not fit the new limits (the frames of a deep coroutine). */
    public static final class DepthExceeded extends RuntimeException {
        DepthExceeded() {
            super("call depth", null, false, false);
        }
    }

    private static final int MAX_NAME = 1 << 16;
    private static final int MAX_PATH = 1 << 16;

    private final byte[] bytes;
    private final Target t;
    private final LuaState st;
    private final MemoryMeter meter;
    private final GasMeter gas;

    private long seed;
    private int idCounter;
    private long memLive;
    private long memSince;
    private boolean gcRunning;
    private int gcCollections;
    private Prototype[] chunks = new Prototype[0];
    private int[][] constantRefs = new int[0][];
    private Object[] perms = new Object[0];
    private Object[] objects = new Object[0];
    private Tag[] kinds = new Tag[0];
    private ByteIn[] rest = new ByteIn[0];
    private final IdentityHashMap<Coroutine, CoroutineImage> images = new IdentityHashMap<>();
    private final IdentityHashMap<Upvalue, Boolean> openUpvalues = new IdentityHashMap<>();

    private StateReader(byte[] bytes, Target t) {
        this.bytes = bytes;
        this.t = t;
        this.st = t.state();
        this.meter = t.meter();
        this.gas = t.gas();
    }

    /** The random seed a snapshot carries (the sandbox is built with it before the rest is read); checks the header. */
    public static long seedOf(byte[] snapshot) {
        SnapshotFormat.Header h = SnapshotFormat.Header.read(snapshot);
        ByteIn in = h.sections(snapshot);
        expect(in, Tag.STATE);
        ByteIn s = in.part("state section");
        return s.i64();
    }

    /** Whether a snapshot (its header checked) holds a paused run. */
    public static boolean isPaused(byte[] snapshot) {
        return SnapshotFormat.Header.read(snapshot).paused();
    }

    /**
     * Reads {@code snapshot} into {@code target} and installs it: roots, coroutines, identity
     * counter and collector lists. The caller puts the memory figures in place.
     */
    public static Result read(byte[] snapshot, Target target) {
        return new StateReader(snapshot, target).run();
    }

    private static void expect(ByteIn in, Tag section) {
        Tag got = in.tag(Tag.Group.SECTION);
        if (got != section) throw ByteIn.bad("the " + section.name().toLowerCase() + " section expected, found "
                + got.name().toLowerCase());
    }

    /** the snapshot's seal verified under the restoring runtime's key: its module claims are honoured */
    private boolean trusted;

    private Result run() {
        SnapshotFormat.Header h = SnapshotFormat.Header.read(bytes);
        if (h.sealed() && t.key() != null) {
            if (!SnapshotFormat.sealVerifies(t.key(), bytes, h)) {
                throw new SnapshotProblem("the snapshot's seal does not verify under this runtime's snapshot key");
            }
            trusted = true;
        }
        ByteIn in = h.sections(bytes);
        expect(in, Tag.STATE);
        readState(in.part("state section"));
        expect(in, Tag.CHUNKS);
        readChunks(in.part("chunks section"));
        expect(in, Tag.PERMANENTS);
        readPermanents(in.part("permanents section"));
        expect(in, Tag.OBJECTS);
        readObjects(in.part("objects section"));
        expect(in, Tag.ROOTS);
        ByteIn roots = in.part("roots section");
        Paused paused = null;
        Tag next = in.tag(Tag.Group.SECTION);
        if (h.paused()) {
            if (next != Tag.PAUSED) throw ByteIn.bad("a paused snapshot without its paused-run section");
            paused = readPaused(in.part("paused-run section"));
            next = in.tag(Tag.Group.SECTION);
        }
        List<Runnable> extensions = new ArrayList<>();
        Set<String> names = new HashSet<>();
        while (next == Tag.EXTENSION) {
            ByteIn e = in.part("extension section");
            String name = new String(e.bytes(MAX_NAME, "extension name"), StandardCharsets.UTF_8);
            if (!names.add(name)) throw ByteIn.bad("two extension sections named '" + name + "'");
            SnapshotParticipant p = participant(name);
            ByteIn body = e.part("extension state");
            e.expectEnd("extension section");
            extensions.add(() -> {
                p.readState(new PlainIn(body));
                body.expectEnd("state of '" + name + "'");
            });
            next = in.tag(Tag.Group.SECTION);
        }
        if (next != Tag.END) throw ByteIn.bad("section " + next.name().toLowerCase() + " out of place");
        in.expectEnd("the snapshot");
        installRoots(roots, paused != null);
        for (Runnable r : extensions) r.run();
        return new Result(memLive, memSince, paused);
    }

    private SnapshotParticipant participant(String name) {
        for (SnapshotParticipant p : st.snapshotParticipants()) if (p.snapshotName().equals(name)) return p;
        throw new SnapshotProblem("the snapshot holds the state of '" + name + "', which the capabilities do not grant");
    }

    private void work(long units) {
        gas.charge(units);
    }

    // ---- sections

    private void readState(ByteIn s) {
        seed = s.i64();
        idCounter = (int) s.varint(0xFFFFFFFFL, "identity counter");
        memLive = s.varint(Long.MAX_VALUE / 4, "live memory");
        memSince = s.varint(Long.MAX_VALUE / 4, "memory charged since the last walk");
        int running = s.u8();
        if (running > 1) throw ByteIn.bad("collector flag " + running);
        gcRunning = running == 1;
        gcCollections = s.int32(Integer.MAX_VALUE, "collection count");
        s.expectEnd("state section");
    }

    private void readChunks(ByteIn s) {
        int n = s.count(68, "chunk count");
        chunks = new Prototype[n];
        constantRefs = new int[n][];
        for (int c = 0; c < n; c++) {
            byte[] name = s.bytes(MAX_NAME, "chunk name");
            byte[] text = s.bytes(s.remaining(), "chunk text");
            byte[] textHash = s.raw(32);
            byte[] codeHash = s.raw(32);
            work(1 + GasMeter.byteWork(text.length));
            if (!Arrays.equals(textHash, SnapshotFormat.sha256(text))) {
                throw ByteIn.bad("the text of chunk " + shown(name) + " does not match its hash");
            }
            Prototype p;
            try {
                p = LuaCompiler.compile(text, new String(name, StandardCharsets.ISO_8859_1), new MeteredCompile(gas, meter));
            } catch (LuaError e) {
                if (MemoryMeter.isOutOfMemory(e)) throw e;
                throw new SnapshotProblem("chunk " + shown(name) + " of the snapshot does not compile: " + e.getMessage());
            }
            p.attachChunkText(text);
            if (!Arrays.equals(codeHash, p.codeDigest())) {
                throw new SnapshotProblem("chunk " + shown(name) + " compiles to other code with this runtime than when the"
                        + " snapshot was made (another version of luavm made it)");
            }
            meter.charge(Load.codeBytes(p));
            chunks[c] = p;
            int refs = s.count(3, "shared constant count");
            int[] r = new int[refs * 3];
            for (int i = 0; i < r.length; i++) r[i] = s.int32(Integer.MAX_VALUE, "shared constant");
            constantRefs[c] = r;
        }
        s.expectEnd("chunks section");
    }

    private static String shown(byte[] name) {
        String s = new String(name, StandardCharsets.ISO_8859_1);
        if (s.startsWith("@") || s.startsWith("=")) s = s.substring(1);
        return "'" + (s.length() > 60 ? s.substring(0, 60) + "..." : s) + "'";
    }

    private void readPermanents(ByteIn s) {
        int n = s.count(2, "permanent count");
        perms = new Object[n];
        for (int i = 0; i < n; i++) {
            Tag kind = s.tag(Tag.Group.PERMANENT);
            String name = new String(s.bytes(MAX_NAME, "permanent name"), StandardCharsets.UTF_8);
            work(1);
            perms[i] = t.permanents().resolve(kind, name);
        }
        s.expectEnd("permanents section");
    }

    // ---- objects

    private void readObjects(ByteIn s) {
        int n = s.count(2, "object count");
        objects = new Object[n];
        kinds = new Tag[n];
        rest = new ByteIn[n];
        Coroutine main = null;
        // pass 1: every object, made empty (strings whole)
        for (int i = 0; i < n; i++) {
            Tag kind = s.tag(Tag.Group.OBJECT);
            ByteIn b = s.part("object");
            kinds[i] = kind;
            rest[i] = b;
            work(1);
            switch (kind) {
                case STRING -> {
                    int flags = b.u8();
                    if (flags > 1) throw ByteIn.bad("string flags " + flags);
                    int len = b.int32(b.remaining(), "string length");
                    work(GasMeter.byteWork(len));
                    meter.charge(Sizes.string(len));
                    LuaString str = LuaString.wrap(b.raw(len));
                    if (flags == 1) str.hashCode();
                    b.expectEnd("string");
                    objects[i] = str;
                }
                case TABLE -> {
                    int id = identity(b);
                    LuaTable tab = new LuaTable(meter);
                    Identity.restore(tab, id);
                    objects[i] = tab;
                }
                case CLOSURE -> {
                    int id = identity(b);
                    Prototype main0 = chunks[b.int32(chunks.length - 1, "chunk index")];
                    int depth = b.int32(MAX_PATH, "function path length");
                    int[] path = new int[depth];
                    Prototype p = main0;
                    for (int d = 0; d < depth; d++) {
                        path[d] = b.int32(p.protos.length - 1, "function path");
                        p = p.protos[path[d]];
                    }
                    String module = new String(b.bytes(MAX_NAME, "module name"), StandardCharsets.UTF_8);
                    LuaClosure cl = VmSnapshots.newClosure(st, main0, path, p, module.isEmpty() ? null : moduleRoot(main0, module));
                    Identity.restore(cl, id);
                    objects[i] = cl;
                }
                case UPVALUE -> {
                    meter.charge(Sizes.UPVALUE);
                    Tag state = b.tag(Tag.Group.UPVALUE_STATE);
                    if (state == Tag.OPEN) {
                        Upvalue u = new Upvalue(null, b.int32(Integer.MAX_VALUE - 1, "upvalue index"));
                        b.expectEnd("open upvalue");
                        openUpvalues.put(u, Boolean.FALSE);
                        objects[i] = u;
                    } else {
                        objects[i] = Upvalue.closed(null);
                    }
                }
                case COROUTINE -> {
                    int id = identity(b);
                    int isMain = b.u8();
                    if (isMain > 1) throw ByteIn.bad("coroutine flags " + isMain);
                    Coroutine co;
                    if (isMain == 1) {
                        if (main != null) throw ByteIn.bad("two main coroutines");
                        co = main = st.mainCoroutine();
                    } else {
                        co = CoroutineImage.newCoroutine(st);
                    }
                    Identity.restore(co, id);
                    objects[i] = co;
                }
                case USERDATA -> {
                    int id = identity(b);
                    int mark = b.pos;
                    skipValue(b); // the metatable, resolved in pass 2
                    String kindName = new String(b.bytes(MAX_NAME, "userdata kind"), StandardCharsets.UTF_8);
                    ByteIn payload = b.part("userdata payload");
                    Object value = unpersister(kindName).restore(new PlainIn(payload));
                    payload.expectEnd("payload of '" + kindName + "'");
                    b.expectEnd("userdata");
                    meter.charge(Sizes.USERDATA);
                    Userdata u = new Userdata(value, null);
                    Identity.restore(u, id);
                    objects[i] = u;
                    b.pos = mark; // pass 2 reads the metatable
                }
                case WRAP, LIBRARY_OBJECT -> { } // made in pass 1b: they hold other objects
                default -> throw ByteIn.bad("object kind " + kind);
            }
        }
        s.expectEnd("objects section");
        // pass 1b: functions that hold other objects from the start
        for (int i = 0; i < n; i++) {
            if (kinds[i] == Tag.WRAP) {
                ByteIn b = rest[i];
                int id = identity(b);
                Coroutine co = ref(b, Coroutine.class, "the coroutine of a wrap function");
                b.expectEnd("wrap function");
                Builtin w = VmSnapshots.newWrap(st, co);
                Identity.restore(w, id);
                objects[i] = w;
            }
        }
        for (int i = 0; i < n; i++) {
            if (kinds[i] == Tag.LIBRARY_OBJECT) {
                ByteIn b = rest[i];
                int id = identity(b);
                String kindName = new String(b.bytes(MAX_NAME, "library object kind"), StandardCharsets.UTF_8);
                ByteIn state = b.part("library object state");
                b.expectEnd("library object");
                Object o = unpersister(kindName).restore(new ValueIn(state));
                state.expectEnd("state of '" + kindName + "'");
                if (!(o instanceof Builtin fn) || fn.estimatedBytes() <= 0) {
                    throw new IllegalStateException("unpersister of '" + kindName + "' made no sandbox builtin");
                }
                Identity.restore(fn, id);
                objects[i] = fn;
            }
        }
        applySharedConstants();
        // pass 2: contents
        for (int i = 0; i < n; i++) {
            ByteIn b = rest[i];
            switch (kinds[i]) {
                case TABLE -> fillTable((LuaTable) objects[i], b);
                case CLOSURE -> fillClosure((LuaClosure) objects[i], b);
                case UPVALUE -> {
                    Upvalue u = (Upvalue) objects[i];
                    if (!openUpvalues.containsKey(u)) {
                        u.set(luaValue(b));
                        b.expectEnd("closed upvalue");
                    }
                }
                case COROUTINE -> images.put((Coroutine) objects[i], readCoroutine(b));
                case USERDATA -> {
                    ((Userdata) objects[i]).setMetatable(optional(b, LuaTable.class, "a userdata's metatable"));
                    b.pos = b.end;
                }
                default -> { }
            }
            rest[i] = null;
        }
    }

    /** The one root cell per chunk and module the restored closures of that module share; the host must vouch for the claim. */
    private dev.luavm.value.Heat moduleRoot(Prototype main, String module) {
        dev.luavm.value.Heat h = moduleRoots.get(main) == null ? null : moduleRoots.get(main).get(module);
        if (h != null) return h;
        String name = new String(main.source.bytesUnsafe(), StandardCharsets.ISO_8859_1);
        if (!trusted) {
            // a snapshot could otherwise hand a module's rights to code it wrote, or change a
            // module's own variables: only one sealed under this runtime's key may carry them
            throw new SnapshotProblem("the snapshot holds functions of module '" + module + "', which only a snapshot sealed"
                    + " with this runtime's key may carry (LuaVM.Builder.snapshotKey)");
        }
        if (!t.modules().vouches(module, name, main.chunkText())) {
            throw new SnapshotProblem("the snapshot's functions of module '" + module + "' are not that module's code as the"
                    + " host gives it now");
        }
        h = dev.luavm.value.Heat.ofModule(module);
        moduleRoots.computeIfAbsent(main, k -> new HashMap<>()).put(module, h);
        return h;
    }

    private final IdentityHashMap<Prototype, Map<String, dev.luavm.value.Heat>> moduleRoots = new IdentityHashMap<>();

    private Unpersister unpersister(String kind) {
        Unpersister u = t.unpersisters().get(kind);
        if (u == null) throw new SnapshotProblem("the snapshot holds a library object of kind '" + kind
                + "', which no installed bundle rebuilds");
        return u;
    }

    private int identity(ByteIn b) {
        long id = b.varint(0xFFFFFFFFL, "identity");
        if (id != 0 && Long.compareUnsigned(id, idCounter & 0xFFFFFFFFL) > 0) {
            throw ByteIn.bad("identity " + id + " beyond the counter " + Integer.toUnsignedString(idCounter));
        }
        return (int) id;
    }

    /** The recompiled chunks use the snapshot's own instance of string constants the state also holds. */
    private void applySharedConstants() {
        for (int c = 0; c < chunks.length; c++) {
            int[] r = constantRefs[c];
            if (r.length == 0) continue;
            List<Prototype> pre = SnapshotFormat.preorder(chunks[c]);
            for (int i = 0; i < r.length; i += 3) {
                if (r[i] >= pre.size()) throw ByteIn.bad("shared constant of a function the chunk lacks");
                Object[] k = pre.get(r[i]).constants;
                if (r[i + 1] >= k.length || r[i + 2] >= objects.length) throw ByteIn.bad("shared constant out of range");
                if (!(k[r[i + 1]] instanceof LuaString had) || !(objects[r[i + 2]] instanceof LuaString mine)
                        || !had.equals(mine)) {
                    throw ByteIn.bad("shared constant does not match the chunk's");
                }
                k[r[i + 1]] = mine;
            }
        }
    }

    private void fillTable(LuaTable tab, ByteIn b) {
        LuaTable mt = optional(b, LuaTable.class, "a metatable");
        byte absent = (byte) b.u8();
        int arrayCap = b.count(1, "array size");
        meter.charge((long) arrayCap * Sizes.ARRAY_SLOT);
        Object[] array = new Object[arrayCap];
        for (int i = 0; i < arrayCap; i++) array[i] = luaValue(b);
        int hashCap = b.int32(1 << 30, "hash size");
        int used = b.count(3, "hash entries");
        if (used > hashCap) throw ByteIn.bad("more hash entries than slots");
        // a table's hash part holds at least 3/8 of its slots once rehashed; only a constructor's
        // size hint leaves it emptier, and never larger than its fields, which the code bounds
        if (hashCap > Math.max(1 << 16, 8L * used)) throw ByteIn.bad("a hash part of " + hashCap + " slots for " + used + " keys");
        meter.charge((long) hashCap * Sizes.HASH_SLOT);
        Object[] keys = new Object[hashCap];
        Object[] values = new Object[hashCap];
        int last = -1;
        for (int i = 0; i < used; i++) {
            int slot = b.int32(hashCap - 1, "hash slot");
            if (slot <= last) throw ByteIn.bad("hash slots out of order");
            last = slot;
            Object k = luaValue(b);
            if (k == null) throw ByteIn.bad("a nil key");
            keys[slot] = k;
            values[slot] = luaValue(b);
        }
        b.expectEnd("table");
        work(hashCap / 8 + 1);
        String problem = tab.restoreLayout(array, keys, values, absent);
        if (problem != null) throw ByteIn.bad("table layout: " + problem);
        tab.setMetatable(mt);
    }

    private void fillClosure(LuaClosure cl, ByteIn b) {
        int n = b.int32(cl.upvals.length, "upvalue count");
        if (n != cl.upvals.length) throw ByteIn.bad("a closure with " + n + " upvalues where its function has "
                + cl.upvals.length);
        for (int i = 0; i < n; i++) cl.upvals[i] = ref(b, Upvalue.class, "a closure's upvalue");
        int cache = b.int32(cl.proto.protos.length, "closure cache size");
        if (cache != 0) {
            if (cache != cl.proto.protos.length) throw ByteIn.bad("closure cache of the wrong size");
            LuaClosure[] c = VmSnapshots.newChildCache(st, cl);
            for (int i = 0; i < cache; i++) {
                LuaClosure child = optional(b, LuaClosure.class, "a cached closure");
                if (child != null && child.proto != cl.proto.protos[i]) throw ByteIn.bad("a cached closure of another function");
                c[i] = child;
            }
        }
        b.expectEnd("closure");
    }

    private CoroutineImage readCoroutine(ByteIn b) {
        CoroutineImage m = new CoroutineImage();
        Tag status = b.tag(Tag.Group.STATUS);
        m.status = switch (status) {
            case SUSPENDED -> Coroutine.Status.SUSPENDED;
            case RUNNING -> Coroutine.Status.RUNNING;
            case NORMAL -> Coroutine.Status.NORMAL;
            default -> Coroutine.Status.DEAD;
        };
        int started = b.u8();
        if (started > 1) throw ByteIn.bad("coroutine started flag " + started);
        m.started = started == 1;
        m.body = optional(b, LuaFunction.class, "a coroutine's body");
        m.resumer = optional(b, Coroutine.class, "a coroutine's resumer");
        m.nny = b.int32(1 << 20, "non-yieldable count");
        m.yieldFunc = b.int32(Integer.MAX_VALUE, "yield slot");
        m.yieldNres = b.zigzag32(-1, 511, "yield results");
        m.resumeDepth = b.int32(1 << 20, "resume depth");
        m.metaDepth = b.int32(1 << 20, "metamethod depth");
        m.stackCapacity = b.int32(Integer.MAX_VALUE - 8, "stack size");
        m.top = b.int32(Integer.MAX_VALUE - 8, "stack top");
        int live = b.count(1, "live registers");
        if (live > m.stackCapacity) throw ByteIn.bad("more registers than the stack holds");
        m.live = new Object[live];
        for (int i = 0; i < live; i++) m.live[i] = luaValue(b);
        m.frameCapacity = b.int32(Integer.MAX_VALUE - 8, "frame capacity");
        m.framesAllocated = b.int32(Integer.MAX_VALUE - 8, "frames allocated");
        int nframes = b.count(14, "frame count");
        m.frames = new CoroutineImage.Frame[nframes];
        for (int i = 0; i < nframes; i++) {
            CoroutineImage.Frame f = new CoroutineImage.Frame();
            f.kind = switch (b.tag(Tag.Group.FRAME)) {
                case FRAME_LUA -> CoroutineImage.LUA;
                case FRAME_PCALL -> CoroutineImage.PCALL;
                case FRAME_XPCALL -> CoroutineImage.XPCALL;
                case FRAME_RESUME -> CoroutineImage.RESUME;
                case FRAME_WRAP -> CoroutineImage.WRAP;
                default -> CoroutineImage.SUSPEND;
            };
            f.flags = b.int32(CoroutineImage.KNOWN_FLAGS, "frame flags");
            f.closure = optional(b, LuaClosure.class, "a frame's function");
            f.func = b.int32(Integer.MAX_VALUE - 8, "frame function slot");
            f.base = b.int32(Integer.MAX_VALUE - 8, "frame base");
            f.pc = b.int32(Integer.MAX_VALUE - 8, "frame pc");
            f.nresults = b.zigzag32(-1, 511, "frame results");
            f.builtin = optional(b, Builtin.class, "a marker's builtin");
            int failed = b.u8();
            if (failed > 1) throw ByteIn.bad("frame failed flag " + failed);
            f.failed = failed == 1;
            f.handler = luaValue(b);
            f.aux = b.int32(Integer.MAX_VALUE - 8, "frame auxiliary slot");
            f.handlerDepth = b.int32(1 << 20, "handler depth");
            f.handlerNny = b.int32(1 << 20, "handler count");
            f.savedMetaDepth = b.int32(1 << 20, "saved metamethod depth");
            m.frames[i] = f;
        }
        int open = b.count(2, "open upvalue count");
        m.open = new Upvalue[open];
        for (int i = 0; i < open; i++) {
            Upvalue u = ref(b, Upvalue.class, "an open upvalue");
            Boolean claimed = openUpvalues.get(u);
            if (claimed == null) throw ByteIn.bad("a closed upvalue in a coroutine's open list");
            if (claimed) throw ByteIn.bad("an upvalue open on two coroutines");
            openUpvalues.put(u, Boolean.TRUE);
            m.open[i] = u;
        }
        b.expectEnd("coroutine");
        return m;
    }

    // ---- roots

    private void installRoots(ByteIn b, boolean paused) {
        LuaTable[] roots = new LuaTable[VmSnapshots.ROOTS];
        for (int i = 0; i < roots.length; i++) {
            roots[i] = i < 2 ? ref(b, LuaTable.class, i == 0 ? "the globals" : "the registry")
                    : optional(b, LuaTable.class, "a metatable of a basic type");
        }
        Coroutine main = ref(b, Coroutine.class, "the main coroutine");
        if (main != st.mainCoroutine()) throw ByteIn.bad("the main coroutine is not marked as such");
        Coroutine current = ref(b, Coroutine.class, "the running coroutine");
        int nfin = b.count(2, "finalizer count");
        List<Object> finobj = new ArrayList<>(nfin);
        for (int i = 0; i < nfin; i++) finobj.add(finalizable(b));
        int npending = b.count(2, "pending finalizer count");
        List<Object> pending = new ArrayList<>(npending);
        for (int i = 0; i < npending; i++) pending.add(finalizable(b));
        b.expectEnd("roots section");
        for (Map.Entry<Upvalue, Boolean> e : openUpvalues.entrySet()) {
            if (!e.getValue()) throw ByteIn.bad("an open upvalue no coroutine holds");
        }
        if (!images.containsKey(main)) throw ByteIn.bad("the main coroutine has no record");
        checkCoroutines(main, current, paused);
        int maxFrames = VmSnapshots.maxFrames(st);
        for (Map.Entry<Coroutine, CoroutineImage> e : images.entrySet()) {
            if (e.getValue().frames.length > maxFrames) throw new DepthExceeded();
            String p = e.getValue().problem(st, e.getKey() == main);
            if (p != null) throw ByteIn.bad("coroutine: " + p);
        }
        for (Map.Entry<Coroutine, CoroutineImage> e : images.entrySet()) e.getValue().applyTo(e.getKey());
        VmSnapshots.restoreRoots(st, roots);
        VmSnapshots.restoreCurrent(st, current);
        Collector gc = meter.collector();
        if (gc != null) gc.restore(finobj, pending, gcRunning, gcCollections);
        meter.restoreIdentityCounter(idCounter);
    }

    private Object finalizable(ByteIn b) {
        Object o = readValueRaw(b);
        if (!(o instanceof LuaTable) && !(o instanceof Userdata)) throw ByteIn.bad("a finalizer list holds a " + kindOf(o));
        return o;
    }

    /**
     * Between runs the main coroutine runs, empty, and every other one is suspended or dead; in a
     * paused run the running coroutine was resumed through a chain of normal ones down to the
     * main one, and waits at the paused call.
     */
    private void checkCoroutines(Coroutine main, Coroutine current, boolean paused) {
        CoroutineImage mm = images.get(main);
        if (!images.containsKey(current)) throw ByteIn.bad("the running coroutine has no record");
        IdentityHashMap<Coroutine, Boolean> chain = new IdentityHashMap<>();
        if (!paused) {
            if (current != main || mm.status != Coroutine.Status.RUNNING) throw ByteIn.bad("between runs the main coroutine runs");
            if (mm.frames.length != 0 || mm.top != 0 || mm.nny != 0 || mm.metaDepth != 0) {
                throw ByteIn.bad("between runs the main coroutine is empty");
            }
            chain.put(main, Boolean.TRUE);
        } else {
            for (Coroutine c = current; ; ) {
                if (chain.put(c, Boolean.TRUE) != null) throw ByteIn.bad("coroutines resume each other in a loop");
                CoroutineImage m = images.get(c);
                if (m == null) throw ByteIn.bad("a resumer with no record");
                if (m.status != (c == current ? Coroutine.Status.RUNNING : Coroutine.Status.NORMAL)) {
                    throw ByteIn.bad("a coroutine of the running chain with the wrong status");
                }
                if (!m.started || m.frames.length == 0) throw ByteIn.bad("a coroutine of the running chain has no frames");
                byte topKind = m.frames[m.frames.length - 1].kind;
                if (c == current ? topKind != CoroutineImage.SUSPEND
                        : topKind != CoroutineImage.RESUME && topKind != CoroutineImage.WRAP) {
                    throw ByteIn.bad("a coroutine of the running chain is not waiting where it should");
                }
                if (c == main) {
                    if (m.resumer != null) throw ByteIn.bad("the main coroutine has a resumer");
                    CoroutineImage.Frame bottom = m.frames[0];
                    if ((bottom.flags & CoroutineImage.FRESH) == 0) throw ByteIn.bad("the paused run has no entry frame");
                    if (m.nny < 1) throw ByteIn.bad("the paused run's main coroutine is yieldable");
                    break;
                }
                if (m.resumer == null) throw ByteIn.bad("a running coroutine that nothing resumed");
                c = m.resumer;
            }
        }
        for (Map.Entry<Coroutine, CoroutineImage> e : images.entrySet()) {
            if (chain.containsKey(e.getKey())) continue;
            CoroutineImage m = e.getValue();
            if (m.status == Coroutine.Status.RUNNING || m.status == Coroutine.Status.NORMAL || m.resumer != null) {
                throw ByteIn.bad("a coroutine outside the running chain is running");
            }
            if (m.status == Coroutine.Status.SUSPENDED && m.started && m.nny != 0) {
                throw ByteIn.bad("a suspended coroutine that cannot yield");
            }
            if (e.getKey() == main) throw ByteIn.bad("the main coroutine is not running");
        }
    }

    private Paused readPaused(ByteIn b) {
        byte[] token = b.raw(SnapshotFormat.TOKEN_BYTES);
        long runGas = b.varint(Long.MAX_VALUE, "run gas");
        long runOutput = b.varint(Long.MAX_VALUE, "run output");
        long runNanos = b.varint(Long.MAX_VALUE, "run time");
        String call = new String(b.bytes(MAX_NAME, "paused call name"), StandardCharsets.UTF_8);
        int n = b.count(3, "host call counters");
        Map<String, long[]> calls = new HashMap<>();
        for (int i = 0; i < n; i++) {
            String name = new String(b.bytes(MAX_NAME, "host function name"), StandardCharsets.UTF_8);
            long sandboxCalls = b.varint(Long.MAX_VALUE, "host calls");
            long runCalls = b.varint(sandboxCalls, "host calls in the run");
            calls.put(name, new long[] {sandboxCalls, runCalls});
        }
        b.expectEnd("paused-run section");
        return new Paused(token, runGas, runOutput, runNanos, call, calls);
    }

    // ---- values

    /** Any value, objects of every kind included (internal ones too: the caller checks). */
    private Object readValueRaw(ByteIn b) {
        work(1);
        Tag tag = b.tag(Tag.Group.VALUE);
        return switch (tag) {
            case NIL -> null;
            case FALSE -> Boolean.FALSE;
            case TRUE -> Boolean.TRUE;
            case INTEGER -> b.zigzag();
            case FLOAT -> Double.longBitsToDouble(b.i64());
            case REF -> {
                int i = b.int32(objects.length - 1, "object reference");
                Object o = objects[i];
                if (o == null) throw ByteIn.bad("a reference to an object not yet made (" + kinds[i].name().toLowerCase() + ")");
                yield o;
            }
            default -> perms[b.int32(perms.length - 1, "permanent reference")];
        };
    }

    /** Moves past a value without resolving it (pass 1: the object it names may not exist yet). */
    private static void skipValue(ByteIn b) {
        Tag tag = b.tag(Tag.Group.VALUE);
        switch (tag) {
            case INTEGER, REF, PERMANENT -> b.varint();
            case FLOAT -> b.i64();
            default -> { }
        }
    }

    /** A value a script may hold: anything but an upvalue. */
    private Object luaValue(ByteIn b) {
        Object v = readValueRaw(b);
        if (v instanceof Upvalue) throw ByteIn.bad("an upvalue where a Lua value belongs");
        return v;
    }

    private <T> T optional(ByteIn b, Class<T> type, String what) {
        Object v = readValueRaw(b);
        if (v == null) return null;
        if (!type.isInstance(v)) throw ByteIn.bad(what + " is a " + kindOf(v));
        return type.cast(v);
    }

    private <T> T ref(ByteIn b, Class<T> type, String what) {
        T v = optional(b, type, what);
        if (v == null) throw ByteIn.bad(what + " is missing");
        return v;
    }

    private static String kindOf(Object v) {
        if (v instanceof Upvalue) return "upvalue";
        if (v instanceof Coroutine) return "coroutine";
        if (v instanceof LuaFunction) return "function";
        if (v instanceof LuaTable) return "table";
        if (v instanceof LuaString) return "string";
        if (v instanceof Userdata) return "userdata";
        if (v instanceof Boolean) return "boolean";
        return v instanceof Long || v instanceof Double ? "number" : "nil";
    }

    /** What a userdata payload or a participant reads: plain data. */
    private class PlainIn implements SnapshotIn {
        final ByteIn b;

        PlainIn(ByteIn b) {
            this.b = b;
        }

        @Override
        public long readLong() {
            return b.i64();
        }

        @Override
        public long readVarint(long max) {
            return b.varint(max, "number");
        }

        @Override
        public byte[] readBytes(int max) {
            byte[] r = b.bytes(max, "bytes");
            work(GasMeter.byteWork(r.length));
            return r;
        }

        @Override
        public Object readValue() {
            throw malformed("a Lua value in plain data");
        }

        @Override
        public RuntimeException malformed(String why) {
            return ByteIn.bad(why);
        }

        @Override
        public MemoryMeter memory() {
            return meter;
        }
    }

    /** What a library object reads: plain data and the Lua values it holds. */
    private final class ValueIn extends PlainIn {
        ValueIn(ByteIn b) {
            super(b);
        }

        @Override
        public Object readValue() {
            return luaValue(b);
        }
    }
}
