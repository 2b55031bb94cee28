package dev.luavm.stdlib.math;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.lib.TableTemplate;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/**
 * The {@code math} bundle of Lua 5.3.6 (without the 5.2 compatibility functions {@code atan2},
 * {@code cosh}, {@code sinh}, {@code tanh}, {@code pow}, {@code frexp}, {@code ldexp},
 * {@code log10}: the {@code compat} bundle adds them, {@link MathCompat}).
 * Installing it creates the sandbox's random generator from the host's seed.
 */
public final class MathLibrary implements Library {
    /** {@code math.atan}, which is also the compat bundle's {@code math.atan2} (one function, as in lmathlib.c) */
    static final Builtin ATAN = Builtin.of("math.atan", MathFunctions::atan);
    private static final List<Builtin> FUNCTIONS = List.of(
        Builtin.ofFloat("math.abs", MathFunctions::abs, MathFunctions::absF, false),
        Builtin.ofFloat("math.acos", MathFunctions::acos, MathFunctions::acosF, true),
        Builtin.ofFloat("math.asin", MathFunctions::asin, MathFunctions::asinF, true),
        ATAN,
        Builtin.of("math.ceil", MathFunctions::ceil),
        Builtin.ofFloat("math.cos", MathFunctions::cos, MathFunctions::cosF, true),
        Builtin.ofFloat("math.deg", MathFunctions::deg, MathFunctions::degF, true),
        Builtin.ofFloat("math.exp", MathFunctions::exp, MathFunctions::expF, true),
        Builtin.of("math.floor", MathFunctions::floor),
        Builtin.of("math.fmod", MathFunctions::fmod),
        Builtin.of("math.log", MathFunctions::log),
        Builtin.of("math.max", MathFunctions::max),
        Builtin.of("math.min", MathFunctions::min),
        Builtin.of("math.modf", MathFunctions::modf),
        Builtin.ofFloat("math.rad", MathFunctions::rad, MathFunctions::radF, true),
        Builtin.of("math.random", MathRandom::random),
        Builtin.of("math.randomseed", MathRandom::randomseed),
        Builtin.ofFloat("math.sin", MathFunctions::sin, MathFunctions::sinF, true),
        Builtin.ofFloat("math.sqrt", MathFunctions::sqrt, MathFunctions::sqrtF, true),
        Builtin.ofFloat("math.tan", MathFunctions::tan, MathFunctions::tanF, true),
        Builtin.of("math.tointeger", MathFunctions::tointeger),
        Builtin.of("math.type", MathFunctions::type),
        Builtin.of("math.ult", MathFunctions::ult));
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = FUNCTIONS.stream().map(f -> LuaString.of(f.name)).toArray(LuaString[]::new);
    private static final LuaString PI = LuaString.of("pi");
    private static final LuaString HUGE = LuaString.of("huge");
    private static final LuaString MAXINTEGER = LuaString.of("maxinteger");
    private static final LuaString MININTEGER = LuaString.of("mininteger");
    private static final LuaString MATH = LuaString.of("math");
    /** boxed once: immutable values, shared like the keys */
    private static final Double PI_VALUE = Math.PI;
    private static final Double HUGE_VALUE = Double.POSITIVE_INFINITY;
    private static final Long MAXINTEGER_VALUE = Long.MAX_VALUE;
    private static final Long MININTEGER_VALUE = Long.MIN_VALUE;

    /** the library table, built once per instance (one LuaVM) and copied into each sandbox */
    private final TableTemplate template = TableTemplate.of(lib -> {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
        lib.put(PI, PI_VALUE);
        lib.put(HUGE, HUGE_VALUE);
        lib.put(MAXINTEGER, MAXINTEGER_VALUE);
        lib.put(MININTEGER, MININTEGER_VALUE);
    });

    @Override
    public String name() {
        return "math";
    }

    /** The random generator (the registry's userdata payload) continues in a restored sandbox. */
    @Override
    public List<dev.luavm.lib.Unpersister> unpersisters() {
        return List.of(new dev.luavm.lib.Unpersister() {
            @Override
            public String kind() {
                return Xoshiro256.KIND;
            }

            @Override
            public Object restore(dev.luavm.lib.SnapshotIn in) {
                in.memory().charge(4 * dev.luavm.meter.Sizes.REF);
                return Xoshiro256.restore(in);
            }
        });
    }

    @Override
    public void install(InstallContext ctx) {
        ctx.globals().put(MATH, template.copy(ctx.memory()));
        MathRandom.install(ctx.registry(), ctx.memory(), ctx.host().randomSeed());
    }
}
