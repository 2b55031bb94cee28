package dev.luavm.bench;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * The engines by the names used in JMH params ({@code -p engine=...}), the command-line tools
 * and the results tables.
 *
 * <p>The luavm adapter is looked up by class name, so this module compiles before luavm's
 * public API exists; until it is built in (profile {@code luavm}) those two engines are
 * reported as unavailable.
 */
public final class Engines {

    /** luavm with gas and memory metering on (finite limits so large they never fire). */
    public static final String LUAVM_METERED = "luavm-metered";
    /** luavm with metering off ({@code Limits.unlimited()}). */
    public static final String LUAVM = "luavm";
    /** luavm metered, with the compiled tier on ({@code Tier.AUTO}: hot functions become JVM bytecode). */
    public static final String LUAVM_COMPILED = "luavm-compiled";
    /** LuaJ 3.0.1 interpreter (Lua 5.2). */
    public static final String LUAJ = "luaj";
    /** LuaJ 3.0.1 luajc: Lua compiled to JVM bytecode with BCEL. */
    public static final String LUAJC = "luajc";
    /** Luna 0.4.1 (Rembulan): Lua 5.3 compiled to JVM bytecode. */
    public static final String LUNA = "luna";

    /** Every engine, in table order: interpreters, then compilers (luavm-compiled beside luajc). */
    public static final List<String> ALL = List.of(LUAVM_METERED, LUAVM, LUAJ, LUAVM_COMPILED, LUAJC, LUNA);

    static final String LUAVM_ADAPTER = "dev.luavm.bench.LuavmEngine";

    private Engines() {
    }

    /** Creates the adapter for {@code name}; throws if the name is unknown or the engine is not built in. */
    public static Engine create(String name) {
        switch (name) {
            case LUAJ:
                return new LuajEngine(false);
            case LUAJC:
                return new LuajEngine(true);
            case LUNA:
                return new LunaEngine();
            case LUAVM:
            case LUAVM_METERED:
            case LUAVM_COMPILED:
                return createLuavm(!name.equals(LUAVM), name.equals(LUAVM_COMPILED) ? "auto" : "interp");
            default:
                throw new IllegalArgumentException("unknown engine '" + name + "'; known: " + ALL);
        }
    }

    /** Whether {@code name} can be created in this build. */
    public static boolean available(String name) {
        if (name.equals(LUAVM) || name.equals(LUAVM_METERED) || name.equals(LUAVM_COMPILED)) {
            try {
                Class.forName(LUAVM_ADAPTER);
                return true;
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return ALL.contains(name);
    }

    /** The engines of {@link #ALL} that {@link #available} says can be created. */
    public static List<String> availableEngines() {
        List<String> out = new ArrayList<>();
        for (String e : ALL) {
            if (available(e)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Engine createLuavm(boolean metered, String tier) {
        try {
            Class<?> c = Class.forName(LUAVM_ADAPTER);
            return (Engine) c.getConstructor(boolean.class, String.class).newInstance(metered, tier);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("luavm engine not built into this jar: luavm's public API "
                    + "is missing from the jar", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("luavm engine failed to start", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("luavm engine adapter is malformed", e);
        }
    }
}
