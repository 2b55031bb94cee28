package dev.luavm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link TypedAccess#numberToString}: the texts below are what lua5.3's {@code tostring} prints. */
class NumberToStringTest {
    @Test
    void integersPrintInDecimal() {
        assertEquals("42", TypedAccess.numberToString(42L));
        assertEquals("-7", TypedAccess.numberToString(-7));
        assertEquals("9223372036854775807", TypedAccess.numberToString(Long.MAX_VALUE));
        assertEquals("-9223372036854775808", TypedAccess.numberToString(Long.MIN_VALUE));
    }

    @Test
    void floatsPrintAsPercent14g() {
        assertEquals("0.5", TypedAccess.numberToString(0.5));
        assertEquals("3.0", TypedAccess.numberToString(3.0));
        assertEquals("1e+100", TypedAccess.numberToString(1e100));
        assertEquals("inf", TypedAccess.numberToString(Double.POSITIVE_INFINITY));
        assertEquals("-inf", TypedAccess.numberToString(Double.NEGATIVE_INFINITY));
        assertEquals("0.3", TypedAccess.numberToString(0.1 + 0.2));
        assertEquals("9.007199254741e+15", TypedAccess.numberToString(Math.pow(2, 53)));
        assertEquals("1e+15", TypedAccess.numberToString(1e15));
        assertEquals("1.2345678901234e+14", TypedAccess.numberToString(123456789012345.0));
        assertEquals("-0.0", TypedAccess.numberToString(-0.0));
        assertEquals("4.9406564584125e-324", TypedAccess.numberToString(Double.MIN_VALUE));
        assertEquals("0.5", TypedAccess.numberToString(0.5f));
    }
}
