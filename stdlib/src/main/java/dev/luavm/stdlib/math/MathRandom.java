package dev.luavm.stdlib.math;

import dev.luavm.lib.CallContext;
import dev.luavm.meter.MemoryMeter;
import dev.luavm.meter.Sizes;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import dev.luavm.value.Userdata;

/**
 * {@code math.random} and {@code math.randomseed}. The generator lives in the sandbox registry
 * (a userdata under a private key), so two sandboxes never share a sequence.
 */
final class MathRandom {
    private MathRandom() {}

    /** registry key of the generator; scripts cannot reach the registry */
    private static final LuaString KEY = LuaString.of("dev.luavm.stdlib.math.random");

    /** Creates the sandbox's generator, seeded by the host. */
    static Xoshiro256 install(LuaTable registry, MemoryMeter memory, long seed) {
        memory.charge(Sizes.USERDATA + 4 * Sizes.REF);
        Xoshiro256 g = new Xoshiro256(seed);
        registry.put(KEY, new Userdata(g, null));
        return g;
    }

    private static Xoshiro256 generator(CallContext c) {
        if (c.registry().get(KEY) instanceof Userdata u && u.payload() instanceof Xoshiro256 g) return g;
        return install(c.registry(), c.memory(), c.host().randomSeed());
    }

    /** {@code math.random([m [, n]])} */
    static int random(CallContext c) {
        long low;
        long up;
        switch (c.nargs()) {
            case 0 -> {
                return c.ret(generator(c).nextDouble()); // a float in [0, 1)
            }
            case 1 -> {
                low = 1;
                up = c.checkInteger(1);
            }
            case 2 -> {
                low = c.checkInteger(1);
                up = c.checkInteger(2);
            }
            default -> throw c.error("wrong number of arguments");
        }
        if (!(low <= up)) throw c.argError(1, "interval is empty");
        if (!(low >= 0 || up <= Long.MAX_VALUE + low)) throw c.argError(1, "interval too large");
        return c.ret(low + generator(c).nextUpTo(up - low));
    }

    /** {@code math.randomseed(x)}: reseeds deterministically; as in 5.3 the number is truncated to an integer. */
    static int randomseed(CallContext c) {
        double x = c.checkNumber(1);
        generator(c).seed((long) x);
        return 0;
    }
}
