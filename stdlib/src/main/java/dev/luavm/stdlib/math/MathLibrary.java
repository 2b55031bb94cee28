package dev.luavm.stdlib.math;

import dev.luavm.lib.InstallContext;
import dev.luavm.lib.Library;
import dev.luavm.value.Builtin;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.List;

/**
 * The {@code math} bundle of Lua 5.3.6 (without the 5.2 compatibility functions {@code cosh},
 * {@code sinh}, {@code tanh}, {@code pow}, {@code frexp}, {@code ldexp}, {@code log10}).
 * Installing it creates the sandbox's random generator from the host's seed.
 */
public final class MathLibrary implements Library {
    private static final List<Builtin> FUNCTIONS = List.of(
        Builtin.of("math.abs", MathFunctions::abs),
        Builtin.of("math.acos", MathFunctions::acos),
        Builtin.of("math.asin", MathFunctions::asin),
        Builtin.of("math.atan", MathFunctions::atan),
        Builtin.of("math.ceil", MathFunctions::ceil),
        Builtin.of("math.cos", MathFunctions::cos),
        Builtin.of("math.deg", MathFunctions::deg),
        Builtin.of("math.exp", MathFunctions::exp),
        Builtin.of("math.floor", MathFunctions::floor),
        Builtin.of("math.fmod", MathFunctions::fmod),
        Builtin.of("math.log", MathFunctions::log),
        Builtin.of("math.max", MathFunctions::max),
        Builtin.of("math.min", MathFunctions::min),
        Builtin.of("math.modf", MathFunctions::modf),
        Builtin.of("math.rad", MathFunctions::rad),
        Builtin.of("math.random", MathRandom::random),
        Builtin.of("math.randomseed", MathRandom::randomseed),
        Builtin.of("math.sin", MathFunctions::sin),
        Builtin.of("math.sqrt", MathFunctions::sqrt),
        Builtin.of("math.tan", MathFunctions::tan),
        Builtin.of("math.tointeger", MathFunctions::tointeger),
        Builtin.of("math.type", MathFunctions::type),
        Builtin.of("math.ult", MathFunctions::ult));

    @Override
    public String name() {
        return "math";
    }

    @Override
    public void install(InstallContext ctx) {
        LuaTable lib = ctx.newTable();
        for (Builtin f : FUNCTIONS) lib.put(LuaString.of(f.name), f);
        lib.put(LuaString.of("pi"), Math.PI);
        lib.put(LuaString.of("huge"), Double.POSITIVE_INFINITY);
        lib.put(LuaString.of("maxinteger"), Long.MAX_VALUE);
        lib.put(LuaString.of("mininteger"), Long.MIN_VALUE);
        ctx.globals().put(LuaString.of("math"), lib);
        MathRandom.install(ctx.registry(), ctx.memory(), ctx.host().randomSeed());
    }
}
