package dev.luavm.stdlib.math;

/**
 * The xoshiro256** generator (Blackman and Vigna), seeded through splitmix64. One instance per
 * sandbox, reached through the registry; never shared between sandboxes.
 */
final class Xoshiro256 implements dev.luavm.lib.Persistent {
    /** the kind a snapshot names the generator's state by */
    static final String KIND = "math.random";

    private long s0;
    private long s1;
    private long s2;
    private long s3;

    Xoshiro256(long seed) {
        seed(seed);
    }

    /** A generator continuing from a state a snapshot recorded ({@link #persist}). */
    static Xoshiro256 restore(dev.luavm.lib.SnapshotIn in) {
        Xoshiro256 g = new Xoshiro256(0);
        g.s0 = in.readLong();
        g.s1 = in.readLong();
        g.s2 = in.readLong();
        g.s3 = in.readLong();
        if ((g.s0 | g.s1 | g.s2 | g.s3) == 0) throw in.malformed("a random generator whose state is all zero");
        return g;
    }

    @Override
    public String persistKind() {
        return KIND;
    }

    /** The whole state: a restored sandbox's {@code math.random} continues the sequence. */
    @Override
    public void persist(dev.luavm.lib.SnapshotOut out) {
        out.writeLong(s0);
        out.writeLong(s1);
        out.writeLong(s2);
        out.writeLong(s3);
    }

    /** Resets the state from a 64-bit seed (splitmix64 expands it to 256 bits). */
    void seed(long seed) {
        long x = seed;
        s0 = splitmix(x += 0x9E3779B97F4A7C15L);
        s1 = splitmix(x += 0x9E3779B97F4A7C15L);
        s2 = splitmix(x += 0x9E3779B97F4A7C15L);
        s3 = splitmix(x + 0x9E3779B97F4A7C15L);
    }

    private static long splitmix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The next 64 random bits. */
    long next() {
        long result = Long.rotateLeft(s1 * 5, 7) * 9;
        long t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = Long.rotateLeft(s3, 45);
        return result;
    }

    /** A float uniformly in [0, 1): the top 53 bits scaled. */
    double nextDouble() {
        return (next() >>> 11) * 0x1.0p-53;
    }

    /**
     * An integer uniformly in {@code [0, n]}, {@code n} read as unsigned: random bits masked to
     * the smallest all-ones value covering {@code n}, redrawn while too large (on average fewer
     * than two draws).
     */
    long nextUpTo(long n) {
        long lim = n;
        lim |= lim >>> 1;
        lim |= lim >>> 2;
        lim |= lim >>> 4;
        lim |= lim >>> 8;
        lim |= lim >>> 16;
        lim |= lim >>> 32;
        long ran;
        do {
            ran = next() & lim;
        } while (Long.compareUnsigned(ran, n) > 0);
        return ran;
    }
}
