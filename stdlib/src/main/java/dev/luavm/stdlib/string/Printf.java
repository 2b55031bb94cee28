package dev.luavm.stdlib.string;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * The numeric conversions of C's {@code printf} as glibc performs them, for
 * {@code string.format}: {@code %d %i}, {@code %u %o %x %X}, {@code %e %E %f %g %G} and
 * {@code %a %A}, with the flags {@code - + space # 0}, a width and a precision.
 *
 * <p>Decimal conversions are exact: a double is converted to {@link BigDecimal} without loss
 * and rounded half-to-even, which is what glibc does in the default rounding mode, so
 * {@code %.0f} of 2.5 is "2" and {@code %.2f} of 0.125 is "0.12". {@code %a} follows glibc:
 * the leading hex digit is 1 for normal numbers and 0 for subnormals (exponent -1022), the
 * mantissa is printed without trailing zeros unless a precision is given, and rounding to a
 * precision may carry into the leading digit ("0x2p+0"), which glibc does not renormalise.
 */
final class Printf {
    private Printf() {}

    /** One conversion specification: {@code %[flags][width][.precision]conversion}. */
    static final class Spec {
        boolean left;     // '-'
        boolean plus;     // '+'
        boolean space;    // ' '
        boolean alt;      // '#'
        boolean zero;     // '0'
        int width;        // 0 when absent
        int precision = -1; // -1 when absent
        /** flags, width or precision present (PUC's test {@code form[2] != '\0'}) */
        boolean modified;
        int conversion;
    }

    // ---- integers

    /** {@code %d} and {@code %i}. */
    static String signedInteger(Spec f, long v) {
        String digits = v == 0 && f.precision == 0 ? "" : Long.toUnsignedString(v < 0 ? -v : v);
        digits = zeroExtend(digits, f.precision);
        String sign = v < 0 ? "-" : f.plus ? "+" : f.space ? " " : "";
        return pad(f, sign, "", digits, f.precision < 0);
    }

    /** {@code %u %o %x %X}: the integer's two's complement bits as an unsigned number. */
    static String unsignedInteger(Spec f, long v) {
        int radix = f.conversion == 'o' ? 8 : f.conversion == 'u' ? 10 : 16;
        String digits = v == 0 && f.precision == 0 ? "" : Long.toUnsignedString(v, radix);
        if (f.conversion == 'X') digits = digits.toUpperCase(Locale.ROOT);
        digits = zeroExtend(digits, f.precision);
        String prefix = "";
        if (f.alt) {
            if (f.conversion == 'o' && !digits.startsWith("0")) digits = "0" + digits;
            else if (f.conversion == 'x' && v != 0) prefix = "0x";
            else if (f.conversion == 'X' && v != 0) prefix = "0X";
        }
        return pad(f, "", prefix, digits, f.precision < 0);
    }

    private static String zeroExtend(String digits, int precision) {
        return digits.length() < precision ? "0".repeat(precision - digits.length()) + digits : digits;
    }

    // ---- floats

    private static boolean signBit(double v) {
        return Double.doubleToRawLongBits(v) < 0;
    }

    private static String sign(Spec f, double v) {
        return signBit(v) ? "-" : f.plus ? "+" : f.space ? " " : "";
    }

    /**
     * Gas for the big-number work of {@link #decimalFloat} beyond its output: the exact decimal
     * expansion of a double has about {@code 0.3 * |binary exponent| + 17} digits, rounded to the
     * precision, and costs more per digit than copying a byte (1 per 2 digits). Bounded by the
     * double's range and the two-digit precision: at most about 270 gas ({@code %99.99f} of 1e308).
     */
    static long decimalWork(Spec f, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return 0;
        int precision = f.precision < 0 ? 6 : f.precision;
        int digits = Math.abs(Math.getExponent(v)) * 3 / 10 + 17 + precision;
        return digits / 2;
    }

    /** {@code %e %E %f %g %G}. */
    static String decimalFloat(Spec f, double v) {
        int conv = f.conversion;
        boolean upper = conv == 'E' || conv == 'G';
        String body;
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            body = Double.isNaN(v) ? "nan" : "inf";
            return pad(f, sign(f, v), "", upper ? body.toUpperCase(Locale.ROOT) : body, false);
        }
        int precision = f.precision < 0 ? 6 : f.precision;
        double a = Math.abs(v);
        switch (conv) {
            case 'f':
                body = new BigDecimal(a).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
                if (f.alt && precision == 0) body += ".";
                break;
            case 'e': case 'E':
                body = scientific(a, precision, f.alt);
                break;
            default: // g, G
                body = dev.luavm.value.LuaNumbers.formatG(a, precision, f.alt);
        }
        if (upper) body = body.toUpperCase(Locale.ROOT);
        return pad(f, sign(f, v), "", body, true);
    }

    /** d.ddde+XX for a finite non-negative value, {@code decimals} digits after the point. */
    static String scientific(double a, int decimals, boolean alt) {
        String digits;
        int exp;
        if (a == 0) {
            digits = "0";
            exp = 0;
        } else {
            BigDecimal bd = new BigDecimal(a).round(new MathContext(decimals + 1, RoundingMode.HALF_EVEN));
            digits = bd.unscaledValue().toString();
            exp = bd.precision() - bd.scale() - 1;
        }
        StringBuilder m = new StringBuilder(decimals + 8);
        m.append(digits.charAt(0));
        if (decimals > 0 || alt) m.append('.');
        for (int i = 1; i <= decimals; i++) m.append(i < digits.length() ? digits.charAt(i) : '0');
        m.append('e').append(exp < 0 ? '-' : '+');
        int ax = Math.abs(exp);
        if (ax < 10) m.append('0');
        m.append(ax);
        return m.toString();
    }

    /** {@code %a %A}. */
    static String hexFloat(Spec f, double v) {
        boolean upper = f.conversion == 'A';
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            String body = Double.isNaN(v) ? "nan" : "inf";
            return pad(f, sign(f, v), "", upper ? body.toUpperCase(Locale.ROOT) : body, false);
        }
        String body = hexBody(Math.abs(v), f.precision, f.alt);
        if (upper) body = body.toUpperCase(Locale.ROOT);
        return pad(f, sign(f, v), upper ? "0X" : "0x", body, true);
    }

    /** The part of {@code %a} after "0x" for a finite non-negative value. */
    static String hexBody(double a, int precision, boolean alt) {
        long bits = Double.doubleToRawLongBits(a);
        int biased = (int) (bits >>> 52) & 0x7FF;
        long mant = bits & ((1L << 52) - 1);
        int lead;
        int exp;
        if (a == 0) {
            lead = 0;
            exp = 0;
        } else if (biased == 0) { // subnormal
            lead = 0;
            exp = -1022;
        } else {
            lead = 1;
            exp = biased - 1023;
        }
        String digits;
        if (precision < 0) {
            digits = mant == 0 ? "" : stripTrailingZeros(hex13(mant));
        } else if (precision < 13) {
            int drop = (13 - precision) * 4;
            long kept = mant >>> drop;
            long rest = mant & ((1L << drop) - 1);
            long half = 1L << (drop - 1);
            long lastDigit = precision > 0 ? kept : lead;
            if (rest > half || (rest == half && (lastDigit & 1) == 1)) {
                kept++;
                if (precision == 0 || (kept >>> (precision * 4)) != 0) { // carry into the leading digit
                    lead++;
                    kept = 0;
                }
            }
            digits = precision == 0 ? "" : zeroExtend(Long.toHexString(kept), precision);
        } else {
            digits = hex13(mant) + "0".repeat(precision - 13);
        }
        StringBuilder sb = new StringBuilder(24);
        sb.append(lead);
        if (!digits.isEmpty() || alt) sb.append('.').append(digits);
        sb.append('p').append(exp < 0 ? '-' : '+').append(Math.abs(exp));
        return sb.toString();
    }

    private static String hex13(long mant) {
        return zeroExtend(Long.toHexString(mant), 13);
    }

    private static String stripTrailingZeros(String s) {
        int k = s.length();
        while (k > 0 && s.charAt(k - 1) == '0') k--;
        return s.substring(0, k);
    }

    /**
     * Pads {@code sign + prefix + body} to the width: on the right with '-', else with zeros
     * between prefix and body when the '0' flag applies, else with spaces on the left.
     */
    static String pad(Spec f, String sign, String prefix, String body, boolean zeroAllowed) {
        int len = sign.length() + prefix.length() + body.length();
        if (f.width <= len) return sign + prefix + body;
        if (f.left) return sign + prefix + body + " ".repeat(f.width - len);
        if (f.zero && zeroAllowed) return sign + prefix + "0".repeat(f.width - len) + body;
        return " ".repeat(f.width - len) + sign + prefix + body;
    }
}
