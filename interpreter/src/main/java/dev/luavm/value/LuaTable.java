package dev.luavm.value;

import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.vm.LuaError;

/**
 * The Lua table: an associative array with an array part and a hash part, after PUC's
 * {@code ltable.c}.
 *
 * <h2>Representation</h2>
 * Keys {@code 1..array.length} whose values are non-nil may live in the <em>array part</em>, a
 * plain {@code Object[]} indexed by {@code key - 1}. Every other key lives in the <em>hash
 * part</em>: open addressing with linear probing over two parallel arrays {@code hkeys} and
 * {@code hvals} whose capacity is a power of two. Values are the runtime's value objects:
 * {@code null} (nil), {@code Boolean}, {@code Long}, {@code Double}, {@link LuaString},
 * {@link LuaTable}, functions, userdata, coroutines.
 *
 * <h2>Keys</h2>
 * A float key with an exact integer value is normalised to its {@code Long} (so {@code t[1.0]}
 * and {@code t[1]} are the same slot); {@code -0.0} becomes {@code 0}. Storing under {@code nil}
 * or NaN raises {@code table index is nil} / {@code table index is NaN}; reading them yields nil.
 *
 * <h2>Deletion and traversal</h2>
 * Assigning nil to a hash key keeps the key in its slot with a null value (a <em>dead key</em>,
 * as PUC does). Slots therefore never move while no new key is inserted, which is exactly the
 * guarantee {@code next} needs: a traversal may clear fields as it goes. Dead keys are dropped
 * at the next rehash. {@code next} walks the array part in index order, then the hash slots in
 * slot order; a key that is not in the table raises {@code invalid key to 'next'}.
 *
 * <h2>Hashing and probing</h2>
 * A key's home slot is its spread hash masked to the capacity: integers by a 64-bit multiply
 * whose high half is folded into the low ({@code mixLong}; floats by their bits the same way),
 * strings by their cached {@link LuaString#hashCode()} times a 32-bit odd constant, booleans and
 * other values likewise, the latter by their per-sandbox {@link Identity} number (never the JVM's
 * identity hash: a {@code pairs} order over table or function keys is the same in every JVM). A lookup walks from the home slot to the key or to the
 * first empty slot. No mixing makes crafted collisions impossible (the functions are public,
 * and with linear probing keys only need to land near each other), so the guarantee comes from
 * charging instead: CPU per unit of gas stays bounded whatever the keys.
 *
 * <h2>What is charged (gas, through {@link MemoryMeter#chargeWork})</h2>
 * <ul>
 *   <li>The first probe of a lookup or insertion and {@value #FREE_PROBES} more are in the
 *       instruction's price; every further probe costs 1 (charged in chunks of
 *       {@value #PROBE_CHUNK} while a long chain runs). A bounded free allowance keeps CPU per
 *       gas bounded and keeps calls off the paths of ordinary tables: {@link #getStr} and
 *       {@link #putStr} walk those free probes inline, by identity, the case of field names
 *       taken from the code's constants.</li>
 *   <li>Comparing a string key with a distinct stored string of the same length and hash costs
 *       the byte rule ({@code GasMeter.byteWork}) when longer than
 *       {@link LuaString#FREE_COMPARE_BYTES}; computing a string key's hash for the first time
 *       costs the byte rule when longer than {@value #FREE_HASH_BYTES}.</li>
 *   <li>A rehash costs 1 per 8 slots of the old parts (the counting pass), then 1 per 8 slots of
 *       the old parts and the new hash part (the move), plus the probes of reinsertion. So
 *       churn that rehashes a table with a large array part again and again pays each time.</li>
 *   <li>{@code next} costs 1 per 8 empty slots it skips (in chunks of {@value #SCAN_CHUNK}).</li>
 * </ul>
 * Nothing is charged while the memory meter has no gas meter linked: outside runs (the host
 * reading or setting globals, even after the gas ran out) and for a {@code TableTemplate}'s
 * scratch table. The common case (the key in its home slot, or a short chain) costs nothing
 * beyond a compare and a local count.
 *
 * <h2>Sizing</h2>
 * The hash part grows only when a new key finds it full (load factor 3/4, dead keys counting).
 * A rehash counts every integer key by power-of-two slices, exactly like PUC's
 * {@code computesizes}: the array part gets the largest size {@code n} (a power of two) such
 * that more than {@code n/2} of the slots {@code 1..n} would be in use; everything else goes to
 * the hash part. So {@code t[#t+1] = v} loops end up in the array part with amortised doubling.
 * Every growth charges the {@link MemoryMeter} before allocating; the new parts are built aside
 * and installed only once complete, so a limit hit during a rehash leaves the table intact.
 *
 * <h2>Length</h2>
 * {@link #length()} returns a <em>border</em> as {@code luaH_getn}: if the last array slot is
 * nil, a binary search inside the array part; otherwise, if the hash part continues the
 * sequence, a doubling search followed by a binary search. Where 5.3 falls back to a linear
 * scan (keys planted at every {@code j * 2^k}), this does as 5.4's {@code hash_search}: the
 * search stays logarithmic. Each lookup of the search beyond the first costs 1, like a probe.
 *
 * <h2>Copies share their hash part until written</h2>
 * A copy of a table ({@link #copyFrom}: a library table copied from its {@code TableTemplate}
 * into each sandbox) takes the source's hash-part arrays as they are, marked shared, and clones
 * an array only when it is about to write into it: the values on the first store, the keys on the
 * first new key (a rehash builds new arrays anyway). The source must never be written again (a
 * template is filled once, before any copy). So a sandbox that never changes {@code string} or
 * {@code math} allocates nothing for them beyond the header, while what it observes (layout,
 * {@code next} order, the memory charged and walked, gas) is exactly that of a copy: a write always
 * lands in the table's own arrays, so nothing a script can change is shared (VM rule 4).
 *
 * <p>Shared keys also carry a {@link Shape}: the layouts that new string keys lead to, learned
 * once and shared by the copies of one template. The globals of every sandbox start as the base
 * library's template and then get the other libraries' names, the same keys in the same order
 * (and one rehash) each time; a new string key put while no gas meter is linked (installing
 * bundles, the host setting globals) into a table without an array part takes the learned step:
 * the next shared keys array, the values moved where the rehash would have put them, the same
 * memory charged. A step is learned by doing the put on a scratch copy, so the layout is exactly
 * the one the put would have made; its key is an immutable string, and the steps a template may
 * learn are bounded ({@value #SHAPE_BUDGET} per template, {@value #SHAPE_FANOUT} from one layout, keys
 * of at most {@code LuaString.FREE_COMPARE_BYTES} bytes),
 * so neither scripts nor hosts can grow them without bound. During a run (gas linked) a new key
 * takes the ordinary path (the keys are cloned first), so the gas charged never depends on them.
 *
 * <h2>Metamethod cache</h2>
 * {@link #metaAbsent} is a bit set of metamethods known to be absent when this table is used as
 * a metatable ({@code flags} in PUC); any raw store into the table clears it.
 */
public final class LuaTable {
    private static final Object[] EMPTY = new Object[0];
    private static final LuaString NIL_INDEX = LuaString.of("table index is nil");
    private static final LuaString NAN_INDEX = LuaString.of("table index is NaN");
    private static final LuaString INVALID_NEXT = LuaString.of("invalid key to 'next'");
    /** largest array part: 2^26 slots, like PUC's MAXASIZE on 32-bit ints */
    private static final int MAX_ARRAY_BITS = 26;
    /** probes beyond the first are charged in chunks of this many while a probe sequence runs */
    static final int PROBE_CHUNK = 256;
    /**
     * further probes of one lookup or insertion that stay in the instruction's price: the short
     * chains of ordinary tables charge nothing (no call on their path), a flood pays from here on
     */
    static final int FREE_PROBES = 4;
    /** hashing a string key longer than this (the first time) is charged the byte rule */
    public static final int FREE_HASH_BYTES = 32;
    /** slots visited or skipped per unit of gas (an empty slot is as cheap as a byte) */
    static final int SLOTS_PER_GAS = 8;
    /** empty slots {@code next} skips between two charges */
    static final int SCAN_CHUNK = 2048;

    private final MemoryMeter meter;
    private Object[] array = EMPTY;
    private Object[] hkeys = EMPTY;
    private Object[] hvals = EMPTY;
    /** slots holding a key, dead or alive */
    private int hused;
    /** {@link #hkeys} is {@code shape.keys}, shared (a template's, or a learned step's): clone before writing; else null */
    private Shape shape;
    /** {@link #hvals} is a template's: clone before writing */
    private boolean sharedVals;

    /** layouts a template's copies may learn in all ({@link Shape}) */
    static final int SHAPE_BUDGET = 64;
    /** steps learned from one layout */
    static final int SHAPE_FANOUT = 8;
    private LuaTable metatable;
    /** cache of absent metamethods when this table is a metatable; see {@link #metaAbsent} */
    public byte metaAbsent;
    /** the script-visible identity, assigned on first use ({@link Identity}); 0 until then */
    int identity;

    public LuaTable(MemoryMeter meter) {
        this.meter = meter;
        meter.charge(Sizes.TABLE_HEADER);
    }

    /** A table presized for {@code narray} array items and {@code nhash} other keys. */
    public LuaTable(MemoryMeter meter, int narray, int nhash) {
        this(meter);
        if (narray > 0) resizeArray(narray);
        if (nhash > 0) {
            int cap = hashCapacityFor(nhash);
            meter.charge((long) cap * Sizes.HASH_SLOT); // before allocating, like every growth
            allocHash(cap);
        }
    }

    /**
     * A copy of {@code t}'s contents with the same layout (so the same {@link #next} order),
     * charged {@code bytes} (header included): what building {@code t} charged. No metatable is
     * copied. {@code t} must never be written afterwards (a template): the copy shares its hash
     * part until the copy writes (see "Copies share their hash part until written").
     */
    public LuaTable(MemoryMeter meter, LuaTable t, long bytes) {
        this.meter = meter;
        meter.charge(Sizes.TABLE_HEADER);
        copyFrom(t, bytes - Sizes.TABLE_HEADER);
    }

    /**
     * When this table is empty (no array or hash part yet), makes it a copy of {@code t} as the
     * copy constructor does, charging {@code bytes}, and returns true; otherwise changes nothing
     * and returns false. As there, {@code t} must never be written afterwards.
     */
    public boolean copyFrom(LuaTable t, long bytes) {
        if (array.length != 0 || hkeys.length != 0) return false;
        meter.charge(bytes);
        if (t.array.length > 0) array = t.array.clone();
        if (t.hkeys.length > 0) {
            // shared until written (see the class comment): the source is a template no one writes
            Shape sh = t.shape; // final fields: safely published without the lock
            shape = sh != null ? sh : t.shapeForCopies();
            hkeys = shape.keys;
            hvals = t.hvals;
            sharedVals = true;
        }
        hused = t.hused;
        metaAbsent = 0;
        return true;
    }

    public LuaTable getMetatable() {
        return metatable;
    }

    public void setMetatable(LuaTable mt) {
        this.metatable = mt;
    }

    // ---- hashing

    /** Spreads a 64-bit key (integers; floats by their bits) over the 32 bits slots are taken from. */
    static int mixLong(long v) {
        long h = v * 0x9E3779B97F4A7C15L; // the low bits of h depend on v's low bits only: fold the high half in
        int x = (int) (h ^ (h >>> 32));
        return x ^ (x >>> 15);
    }

    /** Spreads a 32-bit hash (strings, booleans, identities). */
    static int mixInt(int h) {
        h *= 0x9E3779B1;
        return h ^ (h >>> 15);
    }

    /** A string key's hash; computing it for the first time is byte work over the whole string. */
    private int strHash(LuaString s) {
        int h = s.cachedHash();
        if (h == 0) {
            if (s.length() > FREE_HASH_BYTES) meter.chargeWork(GasMeter.byteWork(s.length()));
            h = s.hashCode();
        }
        return mixInt(h);
    }

    private int hashOf(Object key) {
        if (key instanceof Long l) return mixLong(l);
        if (key instanceof LuaString s) return strHash(s);
        if (key instanceof Double d) return mixLong(Double.doubleToRawLongBits(d));
        if (key instanceof Boolean) return mixInt(key.hashCode());
        return mixInt(Identity.of(key, meter)); // per-sandbox numbers, so pairs order is the same in every JVM
    }

    /**
     * The slot holding {@code key}, or {@code -(s + 1)} where {@code s} is the empty slot ending
     * its probe sequence; {@code i} is the key's home slot. Charges every probe beyond the free ones
     * (in chunks, so a long chain polls the gas meter) and long string compares.
     */
    private int probe(Object key, int i) {
        Object[] ks = hkeys;
        int mask = ks.length - 1;
        int extra = -FREE_PROBES; // the first few further probes are in the instruction's price
        while (true) {
            Object k = ks[i];
            if (k == null) {
                if (extra > 0) meter.chargeWork(extra);
                return -i - 1;
            }
            if (k == key || sameKey(k, key)) {
                if (extra > 0) meter.chargeWork(extra);
                return i;
            }
            i = (i + 1) & mask;
            if (++extra == PROBE_CHUNK) {
                meter.chargeWork(PROBE_CHUNK);
                extra = 0;
            }
        }
    }

    /** Key equality for distinct objects: numbers, booleans and strings by value, the rest by identity. */
    private boolean sameKey(Object stored, Object key) {
        if (stored instanceof LuaString s) return key instanceof LuaString ks && sameStr(s, ks);
        if (stored instanceof Long || stored instanceof Double || stored instanceof Boolean) return stored.equals(key);
        return false;
    }

    /** Both hashes are known here (stored keys were hashed on insertion, the key before probing). */
    private boolean sameStr(LuaString stored, LuaString key) {
        int n = key.length();
        if (stored.length() != n || stored.cachedHash() != key.cachedHash()) return false;
        if (n > LuaString.FREE_COMPARE_BYTES) meter.chargeWork(GasMeter.byteWork(n));
        return java.util.Arrays.equals(stored.bytesUnsafe(), key.bytesUnsafe());
    }

    private int findSlot(Object key) {
        Object[] ks = hkeys;
        if (ks.length == 0) return -1;
        int slot = probe(key, hashOf(key) & (ks.length - 1));
        return slot < 0 ? -1 : slot;
    }

    // ---- reads

    /** Raw get ({@code rawget}). */
    public Object get(Object key) {
        if (key instanceof Long l) return getInt(l);
        if (key instanceof LuaString s) return getStr(s);
        if (key instanceof Double d) {
            Long l = LuaNumbers.floatToInteger(d); // 1.0 and 1 are the same key
            if (l != null) return getInt(l);
            if (d.isNaN()) return null;
        }
        if (key == null) return null;
        return hashGet(key);
    }

    public Object getInt(long key) {
        if (key - 1 >= 0 && key - 1 < array.length) return array[(int) (key - 1)];
        if (hused == 0) return null;
        return hashGetInt(key);
    }

    /** The hash-part lookup of an integer key, out of line so {@link #getInt} stays small enough to inline. */
    private Object hashGetInt(long key) {
        Object[] ks = hkeys;
        int i = mixLong(key) & (ks.length - 1);
        Object k = ks[i];
        if (k instanceof Long l && l == key) return hvals[i];
        if (k == null) return null;
        int slot = probe(key, i);
        return slot < 0 ? null : hvals[slot];
    }

    /**
     * Lookup of a string key. The path kept inline in the dispatch loop is the common one: the
     * key's hash is known and the very same string sits in its home slot (a field name from the
     * code's constants); anything else goes out of line.
     */
    public Object getStr(LuaString key) {
        if (hused == 0) return null;
        int h = key.cachedHash();
        if (h != 0) {
            // the free probes: the same string object (a field name from the code's constants),
            // an equal short string, or the end of the chain; anything else goes out of line
            Object[] ks = hkeys;
            int mask = ks.length - 1;
            int i = mixInt(h) & mask;
            for (int n = 0; n <= FREE_PROBES; n++, i = (i + 1) & mask) {
                Object k = ks[i];
                if (k == key) return hvals[i];
                if (k == null) return null;
                if (k instanceof LuaString s && s.cachedHash() == h) {
                    // the same hash: an equal short string is the key (free, as in hashGetStr)
                    if (s.length() <= LuaString.FREE_COMPARE_BYTES && s.equals(key)) return hvals[i];
                    break;
                }
            }
        }
        return hashGetStr(key);
    }

    /**
     * {@link #getStr}'s free part only: the value (null when absent) where the lookup ends
     * within the free probes, else {@code miss} (nothing charged either way: a caller that
     * gets {@code miss} leaves the read to {@link #getStr}, which then charges all of it).
     */
    public Object peekStr(LuaString key, Object miss) {
        if (hused == 0) return null;
        int h = key.cachedHash();
        if (h == 0) return miss;
        Object[] ks = hkeys;
        int mask = ks.length - 1;
        int i = mixInt(h) & mask;
        for (int n = 0; n <= FREE_PROBES; n++, i = (i + 1) & mask) {
            Object k = ks[i];
            if (k == key) return hvals[i];
            if (k == null) return null;
            if (k instanceof LuaString s && s.cachedHash() == h) {
                if (s.length() <= LuaString.FREE_COMPARE_BYTES && s.equals(key)) return hvals[i];
                return miss;
            }
        }
        return miss;
    }

    /**
     * {@link #getInt}'s free part only: the array part, or the hash part within its free
     * probes; else {@code miss} (nothing charged either way).
     */
    public Object peekInt(long key, Object miss) {
        if (key - 1 >= 0 && key - 1 < array.length) return array[(int) (key - 1)];
        if (hused == 0) return null;
        Object[] ks = hkeys;
        int mask = ks.length - 1;
        int i = mixLong(key) & mask;
        for (int n = 0; n <= FREE_PROBES; n++, i = (i + 1) & mask) {
            Object k = ks[i];
            if (k == null) return null;
            if (k instanceof Long l && l == key) return hvals[i];
        }
        return miss;
    }

    private Object hashGetStr(LuaString key) {
        Object[] ks = hkeys;
        int i = strHash(key) & (ks.length - 1);
        Object k = ks[i];
        if (k == key) return hvals[i];
        if (k == null) return null;
        // an equal short key in the home slot (another instance of the same name): free
        if (k instanceof LuaString s && s.length() <= LuaString.FREE_COMPARE_BYTES && s.equals(key)) return hvals[i];
        int slot = probe(key, i);
        return slot < 0 ? null : hvals[slot];
    }

    private Object hashGet(Object key) {
        int slot = findSlot(key);
        return slot < 0 ? null : hvals[slot];
    }

    // ---- writes

    /** Raw set ({@code rawset}); raises the Lua errors for nil and NaN keys. */
    public void put(Object key, Object value) {
        if (key instanceof Long l) {
            putInt(l, value);
            return;
        }
        if (key instanceof Double d) {
            Long l = LuaNumbers.floatToInteger(d);
            if (l != null) {
                putInt(l, value);
                return;
            }
            if (d.isNaN()) throw new LuaError(NAN_INDEX);
        } else if (key == null) {
            throw new LuaError(NIL_INDEX);
        }
        hashPut(key, value);
    }

    public void putInt(long key, Object value) {
        metaAbsent = 0;
        if (key - 1 >= 0 && key - 1 < array.length) {
            array[(int) (key - 1)] = value;
            return;
        }
        hashPut(key, value);
    }

    public void putStr(LuaString key, Object value) {
        int i = fieldSlot(key);
        if (i >= 0) {
            metaAbsent = 0;
            if (sharedVals) ownVals();
            hvals[i] = value;
            return;
        }
        hashPut(key, value);
    }

    /** Makes the values array this table's own before a write (it was a template's). */
    private void ownVals() {
        hvals = hvals.clone();
        sharedVals = false;
    }

    /** Makes the keys array this table's own before a new key is put into it. */
    private void ownKeys() {
        hkeys = hkeys.clone();
        shape = null;
    }

    /** The shape copies of this table (a template) share: its keys, with no steps learned yet. */
    private synchronized Shape shapeForCopies() {
        if (shape == null) shape = new Shape(hkeys, hused, null); // this table's keys are read-only from now on
        return shape;
    }

    /**
     * A hash layout shared by copies of a template: the keys array (never written), and the steps
     * learned from it, each the layout one new string key leads to (see the class comment).
     * Steps are published as a whole new array, so lookups take no lock.
     */
    private static final class Shape {
        final Object[] keys;
        final int used;
        /** the template's shape, which holds the budget of the whole tree */
        final Shape root;
        private final java.util.concurrent.atomic.AtomicInteger budget;
        private volatile Step[] steps = new Step[0];

        Shape(Object[] keys, int used, Shape root) {
            this.keys = keys;
            this.used = used;
            this.root = root == null ? this : root;
            this.budget = root == null ? new java.util.concurrent.atomic.AtomicInteger(SHAPE_BUDGET) : null;
        }

        /** No step may be learned from here (this layout's or the template's allowance is spent). */
        boolean full() {
            return steps.length >= SHAPE_FANOUT || root.budget.get() <= 0;
        }

        Step find(LuaString key) {
            for (Step st : steps) if (st.key.equals(key)) return st;
            return null;
        }

        /** The step for a new {@code key} from this layout, learned now if need be; null when the budget is spent. */
        synchronized Step learn(LuaString key) {
            Step st = find(key);
            if (st != null) return st;
            if (full()) return null;
            root.budget.decrementAndGet();
            st = Step.of(this, key);
            Step[] more = java.util.Arrays.copyOf(steps, steps.length + 1);
            more[steps.length] = st;
            steps = more;
            return st;
        }
    }

    /**
     * Putting one new string key into a table of a given shape with every key alive: the shape it
     * leads to, the slot of the new key, where each old slot's value goes when the put rehashes
     * (null when it does not), and what the rehash charged. {@code to} is null when the put makes an
     * array part (integer keys among the template's): the ordinary path does those.
     */
    private record Step(LuaString key, Shape to, int slot, int[] moves, long charge) {
        /** Does the put on a scratch table (every old key alive, each value its old slot) and reads off the result. */
        static Step of(Shape from, LuaString key) {
            MemoryMeter scratchMeter = MemoryMeter.unlimited();
            LuaTable scratch = new LuaTable(scratchMeter);
            Object[] vals = new Object[from.keys.length];
            for (int i = 0; i < vals.length; i++) if (from.keys[i] != null) vals[i] = i;
            scratch.hkeys = from.keys.clone();
            scratch.hvals = vals;
            scratch.hused = from.used;
            Object marker = new Object();
            long before = scratchMeter.totalCharged();
            scratch.hashPut(key, marker);
            long charge = scratchMeter.totalCharged() - before;
            if (scratch.array.length != 0) return new Step(key, null, -1, null, 0);
            int slot = -1;
            for (int i = 0; i < scratch.hvals.length; i++) if (scratch.hvals[i] == marker) slot = i;
            int[] moves = null;
            if (scratch.hkeys.length != from.keys.length) {
                moves = new int[from.keys.length];
                java.util.Arrays.fill(moves, -1);
                for (int i = 0; i < scratch.hvals.length; i++) {
                    if (scratch.hvals[i] instanceof Integer old) moves[old] = i;
                }
            }
            return new Step(key, new Shape(scratch.hkeys, scratch.hused, from.root), slot, moves, charge);
        }
    }

    /**
     * Puts new string key {@code key} by the shared shape's learned step (see the class comment),
     * when one applies; false, with nothing changed, when the ordinary path must do it.
     */
    private boolean putByShape(LuaString key, Object value) {
        if (array.length != 0 || meter.chargesWork() || key.length() > LuaString.FREE_COMPARE_BYTES) return false;
        Shape from = shape;
        Step st = from.find(key);
        if (st == null && (from.full() || (st = from.learn(key)) == null)) return false;
        if (st.to == null) return false;
        if (st.moves == null) {
            if (sharedVals) ownVals();
            hvals[st.slot] = value;
            hkeys = st.to.keys;
            hused = st.to.used;
            shape = st.to;
            return true;
        }
        // a rehash: learned with every key alive, so it holds only for such a table
        Object[] vs = hvals;
        int alive = 0;
        for (Object v : vs) if (v != null) alive++;
        if (alive != hused) return false;
        meter.charge(st.charge); // before allocating, as resize does
        Object[] moved = new Object[st.to.keys.length];
        int[] moves = st.moves;
        for (int i = 0; i < moves.length; i++) if (moves[i] >= 0) moved[moves[i]] = vs[i];
        moved[st.slot] = value;
        hkeys = st.to.keys;
        hvals = moved;
        sharedVals = false;
        hused = st.to.used;
        shape = st.to;
        return true;
    }

    /**
     * The slot of string key {@code key} when it is found within the free probes (as in
     * getStr: the same string, or an equal short one); -1 otherwise (absent, or further away).
     */
    private int fieldSlot(LuaString key) {
        int h = key.cachedHash();
        if (h == 0 || hused == 0) return -1;
        Object[] ks = hkeys;
        int mask = ks.length - 1;
        int i = mixInt(h) & mask;
        for (int n = 0; n <= FREE_PROBES; n++, i = (i + 1) & mask) {
            Object k = ks[i];
            if (k == key || k instanceof LuaString s && s.cachedHash() == h
                    && s.length() <= LuaString.FREE_COMPARE_BYTES && s.equals(key)) {
                return i;
            }
            if (k == null || k instanceof LuaString s && s.cachedHash() == h) return -1;
        }
        return -1;
    }

    /**
     * Replaces the value of a string key that holds one, found within the free probes (as
     * {@link #putStr}'s fast path); false, with nothing changed, otherwise. Such a write can run
     * no {@code __newindex} and allocates nothing, whatever the table's metatable.
     */
    public boolean replaceStr(LuaString key, Object value) {
        if (value == null) return false;
        int i = fieldSlot(key);
        if (i < 0 || hvals[i] == null) return false;
        metaAbsent = 0;
        if (sharedVals) ownVals();
        hvals[i] = value;
        return true;
    }

    private void hashPut(Object key, Object value) {
        metaAbsent = 0;
        Object[] ks = hkeys;
        int slot = ks.length == 0 ? -1 : probe(key, hashOf(key) & (ks.length - 1));
        if (slot >= 0) {
            if (sharedVals) ownVals();
            hvals[slot] = value;
            return;
        }
        if (value == null) return; // assigning nil to an absent key changes nothing
        if (shape != null && key instanceof LuaString str && putByShape(str, value)) return;
        if ((hused + 1) * 4L > ks.length * 3L) {
            rehash(key);
            // the rehash may have made room for the key in the array part
            if (key instanceof Long l && l - 1 >= 0 && l - 1 < array.length) {
                array[(int) (l - 1)] = value;
                return;
            }
            insertInto(hkeys, hvals, key, value);
            hused++;
            return;
        }
        // no key is ever removed from its slot, so the empty slot that ended the probe is the key's place
        if (shape != null) ownKeys();
        if (sharedVals) ownVals();
        ks = hkeys;
        ks[-slot - 1] = key;
        hvals[-slot - 1] = value;
        hused++;
    }

    /** Puts a key known to be absent into {@code ks}/{@code vs}, charging probes beyond the free ones. */
    private void insertInto(Object[] ks, Object[] vs, Object key, Object value) {
        int mask = ks.length - 1;
        int i = hashOf(key) & mask;
        int extra = -FREE_PROBES;
        while (ks[i] != null) {
            i = (i + 1) & mask;
            if (++extra == PROBE_CHUNK) {
                meter.chargeWork(PROBE_CHUNK);
                extra = 0;
            }
        }
        if (extra > 0) meter.chargeWork(extra);
        ks[i] = key;
        vs[i] = value;
    }

    // ---- sizing

    private void rehash(Object extraKey) {
        meter.chargeWork(slotWork(array.length + hkeys.length)); // the counting pass visits every slot
        // nums[b] = number of integer keys k with 2^(b-1) < k <= 2^b; null while there is none
        // (a table of string keys, as most are, allocates no counts)
        int[] nums = array.length > 0 ? new int[MAX_ARRAY_BITS + 1] : null;
        int total = nums == null ? 0 : countArray(nums);
        int hashLive = 0;
        for (int i = 0; i < hkeys.length; i++) {
            if (hvals[i] != null) {
                hashLive++;
                if (hkeys[i] instanceof Long) {
                    if (nums == null) nums = new int[MAX_ARRAY_BITS + 1];
                    countIntKey(hkeys[i], nums);
                }
            }
        }
        total += hashLive;
        if (extraKey instanceof Long) {
            if (nums == null) nums = new int[MAX_ARRAY_BITS + 1];
            countIntKey(extraKey, nums);
        }
        total++;
        int arraySize = nums == null ? 0 : computeArraySize(nums);
        int inArray = 0;
        for (int b = 0, twoToB = 1; nums != null && b <= MAX_ARRAY_BITS && twoToB / 2 < arraySize; b++, twoToB <<= 1) {
            inArray += nums[b];
        }
        int hashCount = total - inArray;
        resize(arraySize, hashCapacityFor(hashCount));
    }

    /** Gas for visiting {@code slots} table slots: one unit per 8, as bytes. */
    private static long slotWork(long slots) {
        return (slots + SLOTS_PER_GAS - 1) / SLOTS_PER_GAS;
    }

    private int countArray(int[] nums) {
        int total = 0;
        Object[] a = array;
        for (int i = 0; i < a.length; i++) {
            if (a[i] != null) {
                nums[ceilLog2(i + 1)]++;
                total++;
            }
        }
        return total;
    }

    private static void countIntKey(Object key, int[] nums) {
        if (key instanceof Long l) {
            long k = l;
            if (k >= 1 && k <= (1L << MAX_ARRAY_BITS)) nums[ceilLog2(k)]++;
        }
    }

    /** ceil(log2(x)) for x >= 1 */
    private static int ceilLog2(long x) {
        return x <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(x - 1);
    }

    /** PUC's computesizes: largest power of two n with more than n/2 of slots 1..n in use. */
    private static int computeArraySize(int[] nums) {
        int a = 0;
        int na = 0;
        int optimal = 0;
        for (int b = 0, twoToB = 1; b <= MAX_ARRAY_BITS; b++, twoToB <<= 1) {
            a += nums[b];
            if (a > twoToB / 2) {
                optimal = twoToB;
                na = a;
            }
        }
        return na == 0 ? 0 : optimal;
    }

    private static int hashCapacityFor(int count) {
        if (count <= 0) return 0;
        long needed = (count * 4L + 2) / 3 + 1;
        int cap = 4;
        while (cap < needed) cap <<= 1;
        return cap;
    }

    /**
     * Rebuilds both parts. Everything that may throw (the memory charge, the gas for the slots
     * visited and for the probes of reinsertion) happens while the new hash part is still
     * private; the table's fields change only at the end, so a limit hit midway leaves the table
     * as it was.
     */
    private void resize(int newArraySize, int newHashCap) {
        Object[] oldArray = array;
        Object[] oldKeys = hkeys;
        Object[] oldVals = hvals;
        meter.charge((long) Math.max(0, newArraySize - oldArray.length) * Sizes.ARRAY_SLOT
                + (long) newHashCap * Sizes.HASH_SLOT);
        meter.chargeWork(slotWork((long) oldArray.length + oldKeys.length + newHashCap));
        Object[] newKeys = newHashCap == 0 ? EMPTY : new Object[newHashCap];
        Object[] newVals = newHashCap == 0 ? EMPTY : new Object[newHashCap];
        int used = 0;
        // array items that no longer fit move to the hash part
        for (int i = newArraySize; i < oldArray.length; i++) {
            if (oldArray[i] != null) {
                insertInto(newKeys, newVals, (long) (i + 1), oldArray[i]);
                used++;
            }
        }
        for (int i = 0; i < oldKeys.length; i++) {
            Object v = oldVals[i];
            if (v == null) continue;
            Object k = oldKeys[i];
            if (!(k instanceof Long l && l - 1 >= 0 && l - 1 < newArraySize)) {
                insertInto(newKeys, newVals, k, v);
                used++;
            }
        }
        // nothing below can fail
        Object[] newArray = newArraySize == oldArray.length ? oldArray : java.util.Arrays.copyOf(oldArray, newArraySize);
        for (int i = 0; i < oldKeys.length; i++) {
            Object v = oldVals[i];
            if (v != null && oldKeys[i] instanceof Long l && l - 1 >= 0 && l - 1 < newArraySize) {
                newArray[(int) (l - 1)] = v;
            }
        }
        array = newArray;
        hkeys = newKeys;
        hvals = newVals;
        hused = used;
        shape = null;
        sharedVals = false;
    }

    private void allocHash(int cap) {
        shape = null;
        sharedVals = false;
        if (cap == 0) {
            hkeys = EMPTY;
            hvals = EMPTY;
        } else {
            hkeys = new Object[cap];
            hvals = new Object[cap];
        }
        hused = 0;
    }

    private void resizeArray(int n) {
        meter.charge((long) n * Sizes.ARRAY_SLOT);
        Object[] a = new Object[n];
        System.arraycopy(array, 0, a, 0, Math.min(array.length, n));
        array = a;
    }

    /**
     * Makes sure the array part has room for keys {@code 1..n} (used by table constructors and
     * {@code table.move}-style bulk stores); existing hash entries in that range move over.
     */
    public void ensureArray(int n) {
        if (n > array.length) resize(n, hashCapacityFor(hashLiveCount()));
    }

    private int hashLiveCount() {
        int c = 0;
        for (Object v : hvals) if (v != null) c++;
        return c;
    }

    // ---- length

    /** A border of the table ({@code #t} without {@code __len}), as {@code luaH_getn}. */
    public long length() {
        Object[] a = array;
        int j = a.length;
        if (j > 0 && a[j - 1] == null) {
            // binary search for a border inside the array part
            int i = 0;
            while (j - i > 1) {
                int m = (i + j) >>> 1;
                if (a[m - 1] == null) j = m; else i = m;
            }
            return i;
        }
        if (hused == 0) return j;
        return unboundSearch(j);
    }

    /**
     * Doubling then binary search from the present index {@code j} (or 0). Where 5.3 fell back
     * to a linear scan from 1 for a table with keys at every {@code j * 2^k}, this does as Lua
     * 5.4's {@code hash_search}: {@code maxinteger} if present (a border), else a binary search
     * up to it, so {@code #t} is never more than about 128 lookups.
     */
    private long unboundSearch(long j) {
        long i = j;
        int lookups = 1; // the first is in LEN's price, every further one is a probe
        j++;
        while (getInt(j) != null) {
            i = j;
            lookups++;
            if (j > Long.MAX_VALUE / 2) {
                if (getInt(Long.MAX_VALUE) != null) i = j = Long.MAX_VALUE;
                else j = Long.MAX_VALUE;
                break;
            }
            j *= 2;
        }
        while (j - i > 1) {
            long m = (i + j) >>> 1; // i + j may pass maxinteger: the unsigned halving is still exact
            lookups++;
            if (getInt(m) == null) j = m; else i = m;
        }
        if (lookups > 1) meter.chargeWork(lookups - 1);
        return i;
    }

    // ---- traversal

    /**
     * The entry after {@code key} ({@code next}): writes key and value into {@code out[0]} and
     * {@code out[1]} and returns true, or returns false at the end of the traversal. Empty slots
     * passed over are charged one unit per 8, in chunks, so repeated {@code next(t)} over a
     * sparse array part pays for its scans.
     */
    public boolean next(Object key, Object[] out) {
        int i = traversalIndex(key); // index of the entry after key, in array-then-hash order
        int skipped = 0;
        Object[] a = array;
        for (; i < a.length; i++) {
            if (a[i] != null) {
                if (skipped >= SLOTS_PER_GAS) meter.chargeWork(skipped / SLOTS_PER_GAS);
                out[0] = (long) (i + 1);
                out[1] = a[i];
                return true;
            }
            if (++skipped == SCAN_CHUNK) {
                meter.chargeWork(SCAN_CHUNK / SLOTS_PER_GAS);
                skipped = 0;
            }
        }
        Object[] vs = hvals;
        for (i -= a.length; i < vs.length; i++) {
            if (vs[i] != null) {
                if (skipped >= SLOTS_PER_GAS) meter.chargeWork(skipped / SLOTS_PER_GAS);
                out[0] = hkeys[i];
                out[1] = vs[i];
                return true;
            }
            if (++skipped == SCAN_CHUNK) {
                meter.chargeWork(SCAN_CHUNK / SLOTS_PER_GAS);
                skipped = 0;
            }
        }
        if (skipped >= SLOTS_PER_GAS) meter.chargeWork(skipped / SLOTS_PER_GAS);
        return false;
    }

    private int traversalIndex(Object key) {
        if (key == null) return 0;
        if (key instanceof Double d) {
            Long l = LuaNumbers.floatToInteger(d);
            if (l != null) key = l;
        }
        if (key instanceof Long l && l - 1 >= 0 && l - 1 < array.length) {
            return (int) (long) l;
        }
        int slot = findSlot(key);
        if (slot < 0) throw new LuaError(INVALID_NEXT);
        return array.length + slot + 1;
    }

    // ---- accounting support

    /** Capacity of the array part. */
    public int arrayCapacity() {
        return array.length;
    }

    /** Bytes this table accounts for (header plus both parts), for the live-heap walk. */
    public long estimatedBytes() {
        return Sizes.TABLE_HEADER + array.length * Sizes.ARRAY_SLOT + hkeys.length * Sizes.HASH_SLOT;
    }

    /**
     * Visits every key and value (for the live-heap walk); nil slots are skipped.
     */
    public void forEachReference(java.util.function.Consumer<Object> visitor) {
        for (Object v : array) if (v != null) visitor.accept(v);
        for (int i = 0; i < hkeys.length; i++) {
            if (hvals[i] != null) {
                visitor.accept(hkeys[i]);
                visitor.accept(hvals[i]);
            }
        }
        if (metatable != null) visitor.accept(metatable);
    }

    // ---- snapshots: the exact layout, so a restored table probes, rehashes and iterates as the original

    /** Capacity of the hash part (0 or a power of two). */
    public int hashCapacity() {
        return hkeys.length;
    }

    /** Slots of the hash part holding a key, dead keys (nil values) included. */
    public int hashUsed() {
        return hused;
    }

    /** The key in hash slot {@code i}: null for an empty slot; a dead key when {@link #hashValueAt} is nil. */
    public Object hashKeyAt(int i) {
        return hkeys[i];
    }

    public Object hashValueAt(int i) {
        return hvals[i];
    }

    /** Value {@code i} (0-based) of the array part. */
    public Object arrayAt(int i) {
        return array[i];
    }

    /**
     * Gives this new, empty table the layout a snapshot recorded: the arrays are taken as they
     * are (the caller charged them). Returns null, or why the layout is not one a table can have
     * (nothing is changed then): a hash capacity that is not a power of two or is too full, an
     * integer key the array part covers, a float key with an integer value or NaN, a nil key, a
     * reference key with no identity number, or a key no lookup would find because an empty slot
     * lies between its home slot and its own (linear probing: checked cluster by cluster, in time
     * linear in the capacity).
     */
    public String restoreLayout(Object[] arrayPart, Object[] keys, Object[] values, byte absentMeta) {
        if (array.length != 0 || hkeys.length != 0) return "table already filled";
        int cap = keys.length;
        if (values.length != cap) return "hash part of mismatched sizes";
        if (cap != 0 && (cap < 4 || Integer.bitCount(cap) != 1)) return "hash capacity " + cap + " is not a power of two";
        if (arrayPart.length > 1 << MAX_ARRAY_BITS) return "array part too large";
        int used = 0;
        int[] home = new int[cap];
        for (int i = 0; i < cap; i++) {
            Object k = keys[i];
            if (k == null) {
                if (values[i] != null) return "value without a key in slot " + i;
                continue;
            }
            used++;
            String bad = keyProblem(k, arrayPart.length);
            if (bad != null) return bad;
            int h = restoredHash(k);
            if (h == 0 && !(k instanceof Long || k instanceof Double || k instanceof Boolean || k instanceof LuaString)) {
                return "a reference key has no identity number";
            }
            home[i] = h & (cap - 1);
        }
        if (cap != 0 && used * 4L > cap * 3L) return "hash part fuller than a table keeps it";
        if (cap != 0 && !probeChainsIntact(keys, home)) return "a key is not where a lookup would find it";
        if (cap != 0 && hasDuplicateKeys(keys)) return "a key appears twice";
        array = arrayPart.length == 0 ? EMPTY : arrayPart;
        hkeys = cap == 0 ? EMPTY : keys;
        hvals = cap == 0 ? EMPTY : values;
        shape = null;
        sharedVals = false;
        hused = used;
        metaAbsent = absentMeta;
        return null;
    }

    private static String keyProblem(Object k, int arrayLength) {
        if (k instanceof Long l) {
            if (l >= 1 && l <= arrayLength) return "integer key " + l + " belongs to the array part";
        } else if (k instanceof Double d) {
            if (d.isNaN()) return "a NaN key";
            if (LuaNumbers.floatToInteger(d) != null) return "a float key with an integer value";
        }
        return null;
    }

    /** The hash a stored key has, without assigning an identity (0 for a reference key that has none). */
    private static int restoredHash(Object key) {
        if (key instanceof Long l) return mixLong(l);
        if (key instanceof LuaString s) return mixInt(s.hashCode());
        if (key instanceof Double d) return mixLong(Double.doubleToRawLongBits(d));
        if (key instanceof Boolean) return mixInt(key.hashCode());
        int id = Identity.peek(key);
        return id == 0 ? 0 : mixInt(id);
    }

    /**
     * Every key lies in the run of occupied slots that starts at or before its home slot: within
     * each cluster (a maximal run of occupied slots, wrapping around), a key's home is between the
     * cluster's first slot and its own slot.
     */
    private static boolean probeChainsIntact(Object[] keys, int[] home) {
        int cap = keys.length;
        int empty = -1;
        for (int i = 0; i < cap; i++) if (keys[i] == null) { empty = i; break; }
        if (empty < 0) return false;
        int start = -1;
        for (int n = 1; n <= cap; n++) {
            int i = (empty + n) & (cap - 1);
            if (keys[i] == null) {
                start = -1;
                continue;
            }
            if (start < 0) start = i;
            int distHome = (i - home[i]) & (cap - 1);
            int distStart = (i - start) & (cap - 1);
            if (distHome > distStart) return false;
        }
        return true;
    }

    /** Two slots holding equal keys (values by value, objects by identity). */
    private static boolean hasDuplicateKeys(Object[] keys) {
        java.util.HashSet<Object> values = new java.util.HashSet<>();
        java.util.IdentityHashMap<Object, Boolean> objects = new java.util.IdentityHashMap<>();
        for (Object k : keys) {
            if (k == null) continue;
            boolean byValue = k instanceof LuaString || k instanceof Long || k instanceof Double || k instanceof Boolean;
            if (byValue ? !values.add(k) : objects.put(k, Boolean.TRUE) != null) return true;
        }
        return false;
    }

    // ---- the collector's view (weak tables): one index over both parts, array first

    /** Slots of both parts ({@link #keyAt}, {@link #valueAt} and {@link #clearAt} take 0..slots-1). */
    public int slots() {
        return array.length + hkeys.length;
    }

    /** The key of slot {@code i} (meaningful only where {@link #valueAt} is non-nil). */
    public Object keyAt(int i) {
        return i < array.length ? (Object) (long) (i + 1) : hkeys[i - array.length];
    }

    public Object valueAt(int i) {
        return i < array.length ? array[i] : hvals[i - array.length];
    }

    /** Removes the entry of slot {@code i} as assigning nil would (the key stays dead, so next still works). */
    public void clearAt(int i) {
        if (i < array.length) {
            array[i] = null;
        } else {
            if (sharedVals) ownVals();
            hvals[i - array.length] = null;
        }
    }
}
