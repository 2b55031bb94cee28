package dev.luavm.stdlib.math;

/**
 * NaN signs as PUC's results show them on x86-64 with glibc: an invalid operation on ordinary
 * operands ({@code sqrt(-1)}, {@code fmod(1, 0)}, {@code sin(inf)}) produces the processor's
 * default NaN, which has its sign bit set and prints as {@code -nan}; a NaN operand propagates
 * unchanged. Java's library returns a positive NaN in both cases, so results are fixed here.
 */
final class FloatResults {
    private FloatResults() {}

    /** The x86 "real indefinite": what {@code tostring} prints as {@code -nan}. */
    static final double DEFAULT_NAN = Double.longBitsToDouble(0xFFF8_0000_0000_0000L);

    /** {@code r}, computed from {@code a}, with PUC's NaN. */
    static double of(double r, double a) {
        if (r == r) return r;
        return a != a ? a : DEFAULT_NAN;
    }

    /** {@code r}, computed from {@code a}, for the glibc functions whose invalid results are a positive NaN. */
    static double positive(double r, double a) {
        if (r == r) return r;
        return a != a ? a : Double.NaN;
    }

    /** {@code r}, computed from {@code a} and {@code b}, with PUC's NaN (first NaN operand wins). */
    static double of(double r, double a, double b) {
        if (r == r) return r;
        if (a != a) return a;
        return b != b ? b : DEFAULT_NAN;
    }
}
