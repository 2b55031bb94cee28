package dev.luavm.host;

import dev.luavm.LuaConversionException;
import dev.luavm.LuaHandle;
import dev.luavm.meter.GasMeter;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaFunction;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Userdata;

import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Converts values between Java and Lua for one sandbox. The rules, Java to Lua:
 * <pre>
 *   null                          nil
 *   Boolean                       boolean
 *   Long, Integer, Short, Byte    integer
 *   Double, Float                 float
 *   String, CharSequence, Char    string (UTF-8)
 *   byte[]                        string (the bytes as they are)
 *   Map                           table (keys converted too)
 *   List, other Collection, arrays   sequence table {v1, v2, ...}
 *   record                        table keyed by component names
 *   enum constant                 string (its name)
 *   LuaHandle                     the Lua value it stands for (same sandbox only)
 *   HostFunction                  a function calling it through the host gateway
 *   anything else                 userdata: opaque to Lua, the same object when it comes back
 * </pre>
 * Lua to Java: nil null, boolean Boolean, integer Long, float Double, string String when it is
 * valid UTF-8 and byte[] otherwise (or always byte[] in binary mode), a table whose keys are
 * exactly 1..n an {@code ArrayList} (an empty table only when it has an array part: it was
 * made from a Java list or array, or has held sequence items), any other table a
 * {@code LinkedHashMap} in traversal order (a string key that is not valid UTF-8 becomes a
 * String of one char per byte, ISO-8859-1, since byte[] keys are useless in a Java map),
 * userdata its payload, a function or coroutine a
 * {@link LuaHandle}. Metamethods are never run.
 *
 * <p>Conversion is bounded both ways: nesting beyond {@code maxDepth}, more than
 * {@code maxElements} values in one conversion, or a cycle fails with a
 * {@link LuaConversionException}. A structure shared twice (a DAG) converts to one shared object.
 * Recursion is capped by {@code maxDepth} (at most {@link #DEPTH_CEILING}), so the Java stack
 * cannot overflow. Java to Lua charges the sandbox's memory meter before each table and string.
 *
 * <p>Work: a conversion made for a run (a host call's arguments and results) takes a gas sink
 * and charges it before the work, by the gas rule of docs/STDLIB.md: 1 per value, and 1 per 8
 * bytes (or chars) of every string decoded or encoded, so a 32 MiB argument costs what copying
 * it costs. Conversions the host asks for between runs ({@code getGlobal}, results) charge
 * nothing: the host pays for its own work.
 */
public final class ValueConverter {
    /** Largest nesting depth any configuration may ask for. */
    public static final int DEPTH_CEILING = 1000;

    private final Handles handles;
    private final MemoryMeter meter;
    private final int maxDepth;
    private final long maxElements;
    private final boolean binaryStrings;
    private HostGateway gateway;

    /** Charges nothing: for conversions the host does for itself, between runs. */
    private static final LongConsumer FREE = new LongConsumer() { // not a lambda: start-up (PROFILE.md)
        @Override
        public void accept(long units) {
        }
    };

    /**
     * How values with no Java counterpart (functions, coroutines) cross: the sandbox makes its
     * {@link LuaHandle}s and takes back only its own. Internal: the sandbox provides it.
     */
    public interface Handles {
        /** Refuses functions and coroutines both ways (for converters with no sandbox). */
        Handles NONE = new Handles() {
            @Override
            public Object wrap(Object luaValue, String type) {
                throw new LuaConversionException("a " + type + " cannot be converted here");
            }

            @Override
            public Object unwrap(LuaHandle handle) {
                throw new LuaConversionException("a " + handle.type() + " handle cannot be converted here");
            }
        };

        /**
         * The handle standing for a Lua function or coroutine.
         *
         * @param luaValue the Lua value
         * @param type its Lua type name
         * @return the handle
         */
        Object wrap(Object luaValue, String type);

        /**
         * The Lua value a handle stands for, if it belongs to this sandbox.
         *
         * @param handle the handle
         * @return the Lua value
         */
        Object unwrap(LuaHandle handle);
    }

    /**
     * A converter for one sandbox.
     *
     * @param handles how functions and coroutines cross
     * @param meter the sandbox's memory meter, charged for what Java to Lua makes
     * @param maxDepth nesting bound, 1 to {@link #DEPTH_CEILING}
     * @param maxElements values per conversion
     * @param binaryStrings every Lua string to Java as byte[]
     */
    public ValueConverter(Handles handles, MemoryMeter meter, int maxDepth, long maxElements, boolean binaryStrings) {
        if (maxDepth < 1 || maxDepth > DEPTH_CEILING) {
            throw new IllegalArgumentException("conversion depth must be in 1.." + DEPTH_CEILING + ": " + maxDepth);
        }
        if (maxElements < 1) throw new IllegalArgumentException("conversion elements must be positive");
        this.handles = handles;
        this.meter = meter;
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.binaryStrings = binaryStrings;
    }

    /** Lets host functions passed as values become Lua functions. */
    void setGateway(HostGateway gateway) {
        this.gateway = gateway;
    }

    // ---------------------------------------------------------------- Lua to Java

    /** Converts one Lua value to Java. */
    public Object toJava(Object luaValue) {
        return new ToJava(FREE).convert(luaValue, 0);
    }

    /** Converts several Lua values (results, arguments) sharing one element budget. */
    public List<Object> toJavaAll(Object[] values, int from, int count) {
        return toJavaAll(values, from, count, FREE);
    }

    /**
     * Converts several Lua values sharing one element budget, charging {@code gas} before each
     * piece of work (1 per value, 1 per 8 bytes of each string).
     */
    public List<Object> toJavaAll(Object[] values, int from, int count, LongConsumer gas) {
        ToJava walk = new ToJava(gas);
        List<Object> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(walk.convert(values[from + i], 0));
        return out;
    }

    /** A Lua string as the host sees it under this converter's string mode. */
    public Object string(LuaString s) {
        return decode(s);
    }

    private Object decode(LuaString s) {
        if (binaryStrings) return s.toBytes();
        byte[] b = s.bytesUnsafe();
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException notUtf8) {
            return b.clone();
        }
    }

    /**
     * What the two conversion walks share: one element budget per conversion, and the guards
     * of a structure's conversion (converted once even when met twice, cycles and nesting beyond
     * {@code maxDepth} refused).
     */
    private abstract class Walk<S, R> {
        // the first structure in fields, the maps made on the second: most host calls convert only
        // scalars and strings, most results one flat table, and two IdentityHashMaps cost about
        // 1 KB per conversion
        private S first;
        private R firstResult;
        private boolean firstInProgress;
        private IdentityHashMap<S, R> done;
        private IdentityHashMap<S, Boolean> inProgress;
        private final String cyclicNoun;
        private final String nestedNoun;
        /** where the conversion's work is charged before it is done */
        final LongConsumer gas;
        private long elements;

        Walk(String cyclicNoun, String nestedNoun, LongConsumer gas) {
            this.cyclicNoun = cyclicNoun;
            this.nestedNoun = nestedNoun;
            this.gas = gas;
        }

        /** Counts one value against this conversion's element budget, and charges it. */
        final void count() {
            if (++elements > maxElements) throw tooManyElements();
            gas.accept(1);
        }

        final LuaConversionException tooManyElements() {
            return new LuaConversionException("value has more than " + maxElements + " elements");
        }

        /**
         * The result already made for structure {@code s}, or null after marking {@code s} in
         * progress (then {@link #leave} must follow); raises on a cycle or too deep a nesting.
         */
        final R enter(S s, int depth) {
            if (done == null) {
                if (first == null) {
                    if (depth >= maxDepth) throw tooDeep();
                    first = s;
                    firstInProgress = true;
                    return null;
                }
                if (s == first) {
                    if (firstInProgress) throw cyclic();
                    return firstResult;
                }
                done = new IdentityHashMap<>(8);
                inProgress = new IdentityHashMap<>(8);
                if (firstInProgress) inProgress.put(first, Boolean.TRUE);
                else done.put(first, firstResult);
            }
            R prior = done.get(s);
            if (prior != null) return prior;
            if (inProgress.containsKey(s)) throw cyclic();
            if (depth >= maxDepth) throw tooDeep();
            inProgress.put(s, Boolean.TRUE);
            return null;
        }

        final R leave(S s, R result) {
            if (done == null) { // s is the first structure
                firstInProgress = false;
                firstResult = result;
                return result;
            }
            inProgress.remove(s);
            done.put(s, result);
            return result;
        }

        private LuaConversionException cyclic() {
            return new LuaConversionException("cannot convert a cyclic " + cyclicNoun);
        }

        private LuaConversionException tooDeep() {
            return new LuaConversionException(nestedNoun + " nested deeper than " + maxDepth + " levels");
        }
    }

    private final class ToJava extends Walk<LuaTable, Object> {
        ToJava(LongConsumer gas) {
            super("table", "table", gas);
        }

        Object convert(Object v, int depth) {
            count();
            if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Double) return v;
            if (v instanceof LuaString s) {
                gas.accept(GasMeter.byteWork(s.length()));
                return decode(s);
            }
            if (v instanceof LuaTable t) return table(t, depth);
            if (v instanceof Userdata u) return u.payload();
            String type = v instanceof LuaFunction ? "function" : "thread";
            return handles.wrap(v, type);
        }

        private Object table(LuaTable t, int depth) {
            Object prior = enter(t, depth);
            if (prior != null) return prior;
            List<Object> keys = new ArrayList<>();
            List<Object> vals = new ArrayList<>();
            Object[] kv = new Object[2];
            Object k = null;
            boolean sequence = true;
            while (t.next(k, kv)) {
                k = kv[0];
                keys.add(k);
                vals.add(kv[1]);
                if (sequence && !(k instanceof Long l && l == keys.size())) sequence = false;
                if (keys.size() > maxElements) throw tooManyElements();
            }
            Object result;
            // an empty table with an array part (made from a Java list, or it held a sequence) stays a list
            if (sequence && (!keys.isEmpty() || t.arrayCapacity() > 0)) {
                List<Object> list = new ArrayList<>(vals.size());
                for (Object x : vals) list.add(convert(x, depth + 1));
                result = list;
            } else {
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < keys.size(); i++) {
                    Object key = convert(keys.get(i), depth + 1);
                    map.put(key instanceof byte[] b ? new String(b, StandardCharsets.ISO_8859_1) : key,
                            convert(vals.get(i), depth + 1));
                }
                result = map;
            }
            return leave(t, result);
        }
    }

    // ---------------------------------------------------------------- Java to Lua

    /**
     * Converts one Java value to Lua, charging the sandbox's memory meter. What it builds stays
     * {@link MemoryMeter#pin pinned} (counted by walks although nothing reaches it yet) until
     * the caller's {@link #unpin}: take a {@link #pinMark} first, unpin once the value is stored.
     */
    public Object toLua(Object javaValue) {
        return new ToLua(FREE).convert(javaValue, 0);
    }

    /** See {@link #toLua}: the mark to unpin to once the converted values are reachable. */
    public int pinMark() {
        return meter.pinMark();
    }

    /** Drops the pins of values converted since {@code mark} (they are reachable now, or garbage). */
    public void unpin(int mark) {
        meter.unpin(mark);
    }

    /** Converts several Java values sharing one element budget. */
    public Object[] toLuaAll(List<?> values) {
        return toLuaAll(values, FREE);
    }

    /**
     * Converts several Java values sharing one element budget, charging {@code gas} before each
     * piece of work (1 per value, 1 per 8 bytes or chars of each string).
     */
    public Object[] toLuaAll(List<?> values, LongConsumer gas) {
        ToLua walk = new ToLua(gas);
        Object[] out = new Object[values.size()];
        for (int i = 0; i < out.length; i++) out[i] = walk.convert(values.get(i), 0);
        return out;
    }

    /**
     * A Java string as a Lua string (UTF-8), charged to the meter before it is encoded (at
     * least one byte per char; the rest once the encoded length is known), and pinned.
     */
    public LuaString luaString(String s) {
        long atLeast = Sizes.string(s.length());
        meter.charge(atLeast);
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        long more = Sizes.string(bytes.length) - atLeast;
        if (more > 0) meter.charge(more);
        LuaString out = LuaString.wrap(bytes);
        meter.pin(out);
        return out;
    }

    /** A copy of {@code bytes} as a Lua string, charged before the copy is made, and pinned. */
    private LuaString luaBytes(byte[] bytes) {
        meter.charge(Sizes.string(bytes.length));
        LuaString out = LuaString.wrap(bytes.clone());
        meter.pin(out);
        return out;
    }

    private final class ToLua extends Walk<Object, LuaTable> {
        ToLua(LongConsumer gas) {
            super("structure", "value", gas);
        }

        Object convert(Object v, int depth) {
            count();
            if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Double) return v;
            if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
            if (v instanceof Float f) return f.doubleValue();
            if (v instanceof Character c) return luaString(c.toString());
            if (v instanceof CharSequence cs) {
                gas.accept(GasMeter.byteWork(cs.length()));
                return luaString(cs.toString());
            }
            if (v instanceof byte[] b) {
                gas.accept(GasMeter.byteWork(b.length));
                return luaBytes(b);
            }
            if (v instanceof LuaString s) return s;
            if (v instanceof Enum<?> e) return luaString(e.name());
            if (v instanceof LuaHandle h) return handles.unwrap(h);
            if (v instanceof HostFunction f && gateway != null) return gateway.wrap("(host callback)", f);
            if (v instanceof Map<?, ?> || v instanceof Collection<?> || v instanceof Record || isArray(v)) {
                return structure(v, depth);
            }
            meter.charge(Sizes.USERDATA);
            Userdata u = new Userdata(v, null);
            meter.pin(u);
            return u;
        }

        private Object structure(Object v, int depth) {
            LuaTable prior = enter(v, depth);
            if (prior != null) return prior;
            LuaTable t;
            if (v instanceof Map<?, ?> m) {
                t = new LuaTable(meter, 0, m.size());
                meter.pin(t); // its entries may start a walk before anything reaches it
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    Object key = convert(e.getKey(), depth + 1);
                    if (key == null) throw new LuaConversionException("map has a null key");
                    if (key instanceof Double d && d.isNaN()) throw new LuaConversionException("map has a NaN key");
                    t.put(key, convert(e.getValue(), depth + 1));
                }
            } else if (v instanceof Record r) {
                RecordComponent[] parts = r.getClass().getRecordComponents();
                t = new LuaTable(meter, 0, parts.length);
                meter.pin(t); // its entries may start a walk before anything reaches it
                for (RecordComponent p : parts) {
                    Object value;
                    try {
                        value = p.getAccessor().invoke(r);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        throw new LuaConversionException("cannot read record component '" + p.getName() + "'");
                    }
                    t.put(luaString(p.getName()), convert(value, depth + 1));
                }
            } else {
                List<?> items = v instanceof Collection<?> c ? new ArrayList<>(c) : arrayItems(v);
                // at least one array slot: an empty list comes back as a List, not a Map (see ToJava)
                t = new LuaTable(meter, Math.max(1, items.size()), 0);
                meter.pin(t); // its entries may start a walk before anything reaches it
                long i = 1;
                for (Object item : items) t.putInt(i++, convert(item, depth + 1));
            }
            return leave(v, t);
        }
    }

    private static boolean isArray(Object v) {
        return v.getClass().isArray();
    }

    private static List<?> arrayItems(Object a) {
        if (a instanceof Object[] o) return java.util.Arrays.asList(o);
        List<Object> out = new ArrayList<>();
        if (a instanceof int[] x) for (int e : x) out.add((long) e);
        else if (a instanceof long[] x) for (long e : x) out.add(e);
        else if (a instanceof double[] x) for (double e : x) out.add(e);
        else if (a instanceof float[] x) for (float e : x) out.add((double) e);
        else if (a instanceof short[] x) for (short e : x) out.add((long) e);
        else if (a instanceof boolean[] x) for (boolean e : x) out.add(e);
        else if (a instanceof char[] x) for (char e : x) out.add(String.valueOf(e));
        return out;
    }
}
