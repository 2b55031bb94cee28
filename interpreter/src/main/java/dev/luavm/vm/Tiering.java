package dev.luavm.vm;

import dev.luavm.bytecode.Prototype;
import dev.luavm.value.LuaClosure;
import dev.luavm.vm.tier.FunctionCompiler;
import dev.luavm.vm.tier.Tier;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.WeakHashMap;

/**
 * One {@code LuaVM}'s compiled tier: the mode, the code generator, and the compiled code of
 * each prototype, defined as hidden classes of this VM (unloaded with it).
 *
 * <p>Tiering counts, never clocks: a closure's {@link LuaClosure#heat} counts entries of its
 * frames by the dispatch loop (calls, returns into it, resumptions) and, weighted, the gas
 * safepoints its loops reach (once per {@code GasMeter.CHECK_INTERVAL} units, so a long loop in
 * a function called once is compiled too, continuing from its pc). At the threshold the code is
 * looked up or generated once per prototype. Counts live in the closure, so in the sandbox;
 * the code cache is shared by the VM's sandboxes, which is safe because compiled and interpreted
 * runs are indistinguishable to a script (same output, errors and gas; the tests check it).
 *
 * <p>Generating code is not charged as gas, since gas must not depend on the tier; its work is
 * bounded by {@link #MAX_INSTRUCTIONS} per prototype and done at most once per prototype per VM.
 */
public final class Tiering {
    /** entries before a function is compiled in {@link Tier#AUTO} */
    public static final int AUTO_THRESHOLD = 500;
    /** heat added by a loop safepoint (about every 10,000 gas of a loop) */
    static final int LOOP_WEIGHT = AUTO_THRESHOLD / 4;
    /** longer functions stay interpreted (bounds code generation and the JVM's 64 KiB method limit) */
    public static final int MAX_INSTRUCTIONS = 2_000;

    /**
     * Instructions one sandbox may have compiled (new code only; code the VM already holds is
     * free). Generated classes live in the JVM's metaspace, outside the memory meter: without a
     * bound a script could load and heat thousands of functions to fill it. About 30 bytes of
     * class file per instruction, so a sandbox adds at most about a MiB, and the generation work a
     * script can cause (not charged as gas) stays bounded; past it, interpreted.
     */
    public static final int SANDBOX_BUDGET = 20_000;

    /** names kept for {@link #compiledFunctions} (a long-lived VM compiles without end) */
    static final int MAX_NAMES = 10_000;

    private static final Object DECLINED = new Object();
    /**
     * Generation ran out of Java stack (reached during a deep direct call or re-entry): not
     * cached and the budget given back, so a later entry at a shallower depth compiles it.
     */
    private static final Object RETRY = new Object();

    private final Tier mode;
    private final FunctionCompiler compiler;
    private final MethodHandles.Lookup lookup = MethodHandles.lookup();
    /** guarded by this */
    private final Map<Prototype, Object> code = new WeakHashMap<>();
    /** guarded by this */
    private final List<String> compiled = new ArrayList<>();
    /** guarded by this */
    private final List<String> failures = new ArrayList<>();
    private int serial;

    /** {@code compiler} may be null (then everything stays interpreted). */
    public Tiering(Tier mode, FunctionCompiler compiler) {
        this.mode = mode;
        this.compiler = compiler;
    }

    /** The code generator on the class path (module luavm-jit), or null when there is none. */
    public static FunctionCompiler findCompiler(ClassLoader loader) {
        for (FunctionCompiler c : ServiceLoader.load(FunctionCompiler.class, loader)) return c;
        return null;
    }

    public Tier mode() {
        return mode;
    }

    int threshold() {
        if (compiler == null) return Integer.MAX_VALUE;
        return switch (mode) {
            case INTERP -> Integer.MAX_VALUE;
            case AUTO -> AUTO_THRESHOLD;
            case COMPILE_ALL -> 1;
        };
    }

    /** Functions compiled so far ("main chunk of f.lua", "function <f.lua:3>"), in order; the first {@value #MAX_NAMES}. */
    public synchronized List<String> compiledFunctions() {
        return List.copyOf(compiled);
    }

    /** Generated classes the JVM refused (a generator bug; those functions stayed interpreted). */
    public synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    /** The dispatch loop's hook, reached when {@code cl}'s heat reaches the threshold. */
    static TierSupport code(LuaState st, LuaClosure cl) {
        Object j = cl.jit;
        if (j == null) {
            if (st.tiering == null) { // a bare LuaState (no LuaVM): interpreted; reached after 2^31 entries
                cl.heat = Integer.MIN_VALUE;
                return null;
            }
            j = st.tiering.codeFor(st, cl.proto);
            if (j == RETRY) {
                // the next attempt after AUTO_THRESHOLD more entries in any mode: a deep recursion
                // cannot make every call generate code again
                cl.heat = st.tierAt - AUTO_THRESHOLD;
                return null;
            }
            cl.jit = j;
        }
        if (j instanceof TierSupport t) {
            cl.heat = st.tierAt; // stays at the threshold: the next entry takes this path again
            return t;
        }
        cl.heat = Integer.MIN_VALUE; // declined: interpreted for the next 2^31 entries
        return null;
    }

    /** At a loop's gas safepoint: true when the loop should continue in compiled code. */
    static boolean backEdge(LuaState st, LuaClosure cl) {
        int h = cl.heat;
        if (h < 0 || st.tierAt == Integer.MAX_VALUE) return false;
        cl.heat = h = h + LOOP_WEIGHT > h ? h + LOOP_WEIGHT : h;
        return h + 1 >= st.tierAt;
    }

    private synchronized Object codeFor(LuaState st, Prototype p) {
        Object c = code.get(p);
        if (c != null) return c;
        if (p.code.length > st.tierBudget) return DECLINED; // this sandbox's budget (not cached: others may compile it)
        st.tierBudget -= p.code.length;
        try {
            c = generate(p);
        } catch (StackOverflowError e) {
            c = RETRY;
        }
        if (c == RETRY) {
            st.tierBudget += p.code.length;
            return RETRY;
        }
        code.put(p, c);
        return c;
    }

    private Object generate(Prototype p) {
        if (compiler == null || p.code.length > MAX_INSTRUCTIONS) return DECLINED;
        String name = FunctionCompiler.PACKAGE + "LuaFunction" + (serial++);
        byte[] bytes;
        try {
            bytes = compiler.compile(p, name);
        } catch (RuntimeException e) {
            if (failures.size() < MAX_NAMES) failures.add(describe(p) + ": " + e);
            return DECLINED;
        }
        if (bytes == null) return DECLINED;
        try {
            MethodHandles.Lookup hidden = lookup.defineHiddenClass(bytes, true);
            Object inst = hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
            if (compiled.size() < MAX_NAMES) compiled.add(describe(p));
            return inst;
        } catch (Throwable e) { // LinkageError (VerifyError, ClassFormatError): a generator bug
            if (e instanceof StackOverflowError) return RETRY;
            if (e instanceof VirtualMachineError vme) throw vme;
            if (failures.size() < MAX_NAMES) failures.add(describe(p) + ": " + e);
            return DECLINED;
        }
    }

    private static String describe(Prototype p) {
        String src = p.source.toString();
        String chunk = src.startsWith("@") || src.startsWith("=") ? src.substring(1) : "[string]";
        return p.lineDefined == 0 ? "main chunk of " + chunk : "function <" + chunk + ":" + p.lineDefined + ">";
    }
}
