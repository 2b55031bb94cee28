package dev.luavm.jsr223;

import javax.script.Bindings;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An engine's own engine-scope {@link Bindings}: a live view of its sandbox's globals.
 * {@code put("x", 5)} sets the global {@code x} (converted as {@code Sandbox.setGlobal} converts),
 * {@code get("y")} reads the global {@code y} as Java (a table as a Map copy, a function as a
 * {@code LuaHandle}), and the key set is the names of the globals, libraries included.
 *
 * <p>Keys that are not Lua globals stay in Java: engine settings ({@code luavm.*}, read when the
 * sandbox is made, see {@link EngineSettings}), {@code javax.script.*} attributes (the file name,
 * the arguments) and keys that are not Lua names. Until the engine's first run there is no
 * sandbox yet, and globals put are held here and set when it is made.
 */
final class LuaBindings extends AbstractMap<String, Object> implements Bindings {
    private final LuaScriptEngine engine;
    /** settings, javax.script attributes, keys that are not Lua names */
    private final Map<String, Object> local = new LinkedHashMap<>();
    /** globals put before the sandbox exists */
    private final Map<String, Object> pending = new LinkedHashMap<>();

    LuaBindings(LuaScriptEngine engine) {
        this.engine = engine;
    }

    LuaScriptEngine engine() {
        return engine;
    }

    /** Globals put before the sandbox existed, to set in it now; forgotten here. */
    Map<String, Object> takePending() {
        Map<String, Object> p = new LinkedHashMap<>(pending);
        pending.clear();
        return p;
    }

    private static boolean isGlobal(String key) {
        return !EngineSettings.isSetting(key) && LuaScriptEngine.isLuaName(key);
    }

    private static String check(Object key) {
        Objects.requireNonNull(key, "key");
        if (!(key instanceof String s)) throw new ClassCastException("key is not a String");
        if (s.isEmpty()) throw new IllegalArgumentException("key is empty");
        return s;
    }

    @Override
    public Object put(String key, Object value) {
        check(key);
        if (!isGlobal(key)) {
            if (engine.started() && EngineSettings.KEYS.contains(key)) {
                throw new IllegalStateException(key + " configures the sandbox and must be set before the engine's first run");
            }
            return local.put(key, value);
        }
        if (!engine.started()) return pending.put(key, value);
        Object old = engine.sandbox().getGlobal(key);
        engine.sandbox().setGlobal(key, value);
        return old;
    }

    @Override
    public Object get(Object key) {
        String k = check(key);
        if (!isGlobal(k)) return local.get(k);
        if (!engine.started()) return pending.get(k);
        return engine.sandbox().getGlobal(k);
    }

    @Override
    public boolean containsKey(Object key) {
        String k = check(key);
        if (!isGlobal(k)) return local.containsKey(k);
        if (!engine.started()) return pending.containsKey(k);
        return engine.sandbox().getGlobal(k) != null;
    }

    @Override
    public Object remove(Object key) {
        String k = check(key);
        if (!isGlobal(k)) return local.remove(k);
        if (!engine.started()) return pending.remove(k);
        Object old = engine.sandbox().getGlobal(k);
        engine.sandbox().setGlobal(k, null);
        return old;
    }

    @Override
    public void putAll(Map<? extends String, ?> m) {
        for (Map.Entry<? extends String, ?> e : m.entrySet()) put(e.getKey(), e.getValue());
    }

    /**
     * The keys: Java-side ones, then the names of the globals (but {@code _G}, the globals
     * themselves, which cannot be converted to Java: it contains itself).
     */
    @Override
    public Set<String> keySet() {
        Set<String> keys = new java.util.LinkedHashSet<>(local.keySet());
        if (!engine.started()) {
            keys.addAll(pending.keySet());
        } else {
            for (String name : engine.sandbox().globalNames()) {
                if (isGlobal(name) && !name.equals("_G")) keys.add(name);
            }
        }
        return new AbstractSet<>() {
            @Override
            public Iterator<String> iterator() {
                Iterator<String> it = keys.iterator();
                return new Iterator<>() {
                    private String last;

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public String next() {
                        return last = it.next();
                    }

                    @Override
                    public void remove() {
                        LuaBindings.this.remove(last);
                    }
                };
            }

            @Override
            public int size() {
                return keys.size();
            }

            @Override
            public boolean contains(Object o) {
                return keys.contains(o);
            }
        };
    }

    /** Entries over {@link #keySet()}; each value is read (converted) when asked for. */
    @Override
    public Set<Entry<String, Object>> entrySet() {
        Set<String> keys = keySet();
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                Iterator<String> it = keys.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Entry<String, Object> next() {
                        String key = it.next();
                        return new Entry<>() {
                            @Override
                            public String getKey() {
                                return key;
                            }

                            @Override
                            public Object getValue() {
                                return get(key);
                            }

                            @Override
                            public Object setValue(Object value) {
                                return put(key, value);
                            }
                        };
                    }

                    @Override
                    public void remove() {
                        it.remove();
                    }
                };
            }

            @Override
            public int size() {
                return keys.size();
            }
        };
    }

    @Override
    public Collection<Object> values() {
        return new java.util.ArrayList<>(super.values());
    }
}
