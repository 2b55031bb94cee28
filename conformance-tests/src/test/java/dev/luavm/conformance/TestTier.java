package dev.luavm.conformance;

import dev.luavm.LuaVM;
import dev.luavm.vm.Tiering;
import dev.luavm.vm.tier.Tier;

import java.lang.reflect.Method;
import java.util.List;

/**
 * The tier the long-running conformance checks run in (official suite, differential tester,
 * Jazzer targets, threat tests): system property {@code luavm.test.tier} = {@code interp},
 * {@code auto} or {@code compile-all}, e.g. {@code -Dluavm.test.tier=compile-all}. Unset, the
 * runtimes are built with the builder's default, as before. Only test code reads the property;
 * it reaches the VM through the public API ({@code LuaVM.builder().tier(...)}).
 */
public final class TestTier {
    /** The system property naming the tier. */
    public static final String PROPERTY = "luavm.test.tier";

    private TestTier() {}

    /** The tier {@code -Dluavm.test.tier} names, or null when it is unset or empty. */
    public static Tier requested() {
        String s = System.getProperty(PROPERTY);
        return s == null || s.isBlank() ? null : Tier.parse(s.strip());
    }

    /** {@link LuaVM#builder()} with the requested tier, if any. */
    public static LuaVM.Builder builder() {
        LuaVM.Builder b = LuaVM.builder();
        Tier t = requested();
        if (t != null) b.tier(t);
        return b;
    }

    /** A runtime in the requested tier, otherwise as {@link LuaVM#create()}. */
    public static LuaVM vm() {
        return builder().build();
    }

    /**
     * Generated classes the code generator threw on or the JVM refused so far in {@code vm}
     * ({@code Tiering.failures()}): those functions silently stay interpreted, so a compile-all
     * run must check this list is empty or it proves nothing about the compiled tier.
     */
    @SuppressWarnings("unchecked")
    public static List<String> compileFailures(LuaVM vm) {
        try {
            // package-private accessor: reflection keeps it out of the public API (as CompiledTierTest does)
            Method m = LuaVM.class.getDeclaredMethod("tiering");
            m.setAccessible(true);
            return ((Tiering) m.invoke(vm)).failures();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
