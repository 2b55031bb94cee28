package dev.luavm.stdlib.math;

import java.util.function.DoubleUnaryOperator;

/**
 * The float forms of math's pure functions of one number ({@code Builtin.floatFunction}, which
 * the compiled tier calls instead of the builtin where a loop applies one to a number). One enum
 * rather than a method reference each, for start-up: a method reference evaluated in a class
 * initialiser links an {@code invokedynamic} call site, which JDK 17's CDS archive does not keep
 * (benchmarks/PROFILE.md, "Start-up: builtins without invokedynamic").
 */
enum FloatFunction implements DoubleUnaryOperator {
    ABS, ACOS, ASIN, COS, DEG, EXP, RAD, SIN, SQRT, TAN;

    @Override
    public double applyAsDouble(double x) {
        return switch (this) {
            case ABS -> MathFunctions.absF(x);
            case ACOS -> MathFunctions.acosF(x);
            case ASIN -> MathFunctions.asinF(x);
            case COS -> MathFunctions.cosF(x);
            case DEG -> MathFunctions.degF(x);
            case EXP -> MathFunctions.expF(x);
            case RAD -> MathFunctions.radF(x);
            case SIN -> MathFunctions.sinF(x);
            case SQRT -> MathFunctions.sqrtF(x);
            case TAN -> MathFunctions.tanF(x);
        };
    }
}
