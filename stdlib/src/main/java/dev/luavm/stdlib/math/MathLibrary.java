package dev.luavm.stdlib.math;

import dev.luavm.lib.CallContext;
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
    static final Builtin ATAN = new Builtin("math.atan") { @Override public int call(CallContext c) { return MathFunctions.atan(c); } };
    private static final List<Builtin> FUNCTIONS = List.of(
        new Builtin("math.abs", FloatFunction.ABS, false) { @Override public int call(CallContext c) { return MathFunctions.abs(c); } },
        new Builtin("math.acos", FloatFunction.ACOS, true) { @Override public int call(CallContext c) { return MathFunctions.acos(c); } },
        new Builtin("math.asin", FloatFunction.ASIN, true) { @Override public int call(CallContext c) { return MathFunctions.asin(c); } },
        ATAN,
        new Builtin("math.ceil") { @Override public int call(CallContext c) { return MathFunctions.ceil(c); } },
        new Builtin("math.cos", FloatFunction.COS, true) { @Override public int call(CallContext c) { return MathFunctions.cos(c); } },
        new Builtin("math.deg", FloatFunction.DEG, true) { @Override public int call(CallContext c) { return MathFunctions.deg(c); } },
        new Builtin("math.exp", FloatFunction.EXP, true) { @Override public int call(CallContext c) { return MathFunctions.exp(c); } },
        new Builtin("math.floor") { @Override public int call(CallContext c) { return MathFunctions.floor(c); } },
        new Builtin("math.fmod") { @Override public int call(CallContext c) { return MathFunctions.fmod(c); } },
        new Builtin("math.log") { @Override public int call(CallContext c) { return MathFunctions.log(c); } },
        new Builtin("math.max") { @Override public int call(CallContext c) { return MathFunctions.max(c); } },
        new Builtin("math.min") { @Override public int call(CallContext c) { return MathFunctions.min(c); } },
        new Builtin("math.modf") { @Override public int call(CallContext c) { return MathFunctions.modf(c); } },
        new Builtin("math.rad", FloatFunction.RAD, true) { @Override public int call(CallContext c) { return MathFunctions.rad(c); } },
        new Builtin("math.random") { @Override public int call(CallContext c) { return MathRandom.random(c); } },
        new Builtin("math.randomseed") { @Override public int call(CallContext c) { return MathRandom.randomseed(c); } },
        new Builtin("math.sin", FloatFunction.SIN, true) { @Override public int call(CallContext c) { return MathFunctions.sin(c); } },
        new Builtin("math.sqrt", FloatFunction.SQRT, true) { @Override public int call(CallContext c) { return MathFunctions.sqrt(c); } },
        new Builtin("math.tan", FloatFunction.TAN, true) { @Override public int call(CallContext c) { return MathFunctions.tan(c); } },
        new Builtin("math.tointeger") { @Override public int call(CallContext c) { return MathFunctions.tointeger(c); } },
        new Builtin("math.type") { @Override public int call(CallContext c) { return MathFunctions.type(c); } },
        new Builtin("math.ult") { @Override public int call(CallContext c) { return MathFunctions.ult(c); } });
    /** the keys of {@link #FUNCTIONS}, built once: immutable, so shared by every sandbox */
    private static final LuaString[] KEYS = Builtin.keys(FUNCTIONS, false);
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
    private final TableTemplate template = TableTemplate.of(new java.util.function.Consumer<>() { @Override public void accept(LuaTable lib) {
        for (int i = 0; i < KEYS.length; i++) lib.put(KEYS[i], FUNCTIONS.get(i));
        lib.put(PI, PI_VALUE);
        lib.put(HUGE, HUGE_VALUE);
        lib.put(MAXINTEGER, MAXINTEGER_VALUE);
        lib.put(MININTEGER, MININTEGER_VALUE);
    }});

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
