package dev.luavm.value;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Conversions between Lua numbers and strings, as {@code lobject.c} does them:
 * {@link #parse} is {@code luaO_str2num} (used by the lexer's callers, {@code tonumber} and
 * string coercion), {@link #toLuaString(double)} is {@code tostring} with {@code "%.14g"}.
 */
public final class LuaNumbers {
    private LuaNumbers() {}

    /**
     * Converts a string to a Lua number as {@code lua_stringtonumber}: optional surrounding
     * whitespace, optional sign, decimal or hexadecimal integer (hex wraps around modulo 2^64,
     * decimal overflows to float), or a decimal or hexadecimal float. Returns {@code Long},
     * {@code Double} or null when the string is not a numeral ("inf" and "nan" are not).
     */
    public static Object parse(LuaString s) {
        return parse(s.bytesUnsafe(), 0, s.length());
    }

    /** Numerals up to this length are read within the base cost of what reads them. */
    public static final int FREE_NUMERAL_BYTES = 32;

    /**
     * Gas to charge before {@link #parse parsing} (or base-converting) {@code s}: the byte rule
     * over every byte for a string longer than {@link #FREE_NUMERAL_BYTES}, else 0. Whitespace
     * and digits are all read, so a 16 MiB numeral costs 2 Mi units, not one instruction.
     */
    public static long parseWork(LuaString s) {
        int n = s.length();
        return n <= FREE_NUMERAL_BYTES ? 0 : dev.luavm.meter.GasMeter.byteWork(n);
    }

    public static Object parse(byte[] b, int from, int to) {
        int i = from;
        while (i < to && isSpace(b[i])) i++;
        int end = to;
        while (end > i && isSpace(b[end - 1])) end--;
        if (i >= end) return null;
        Long asInt = parseInteger(b, i, end);
        if (asInt != null) return asInt;
        return parseFloat(b, i, end);
    }

    static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    private static int hexValue(byte c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    private static Long parseInteger(byte[] b, int i, int end) {
        boolean neg = false;
        if (b[i] == '-') {
            neg = true;
            i++;
        } else if (b[i] == '+') {
            i++;
        }
        if (i >= end) return null;
        long a = 0;
        if (end - i >= 2 && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            i += 2;
            if (i >= end) return null;
            for (; i < end; i++) {
                int d = hexValue(b[i]);
                if (d < 0) return null;
                a = a * 16 + d; // wraps around, as PUC
            }
        } else {
            final long maxBy10 = Long.MAX_VALUE / 10;
            final int maxLastDigit = (int) (Long.MAX_VALUE % 10);
            for (; i < end; i++) {
                int d = b[i] - '0';
                if (d < 0 || d > 9) return null;
                // unsigned, as PUC's lua_Unsigned: "-9223372036854775808" leaves a == 2^63, which
                // a signed compare would take for negative and let the next digit wrap around
                int vsMax = Long.compareUnsigned(a, maxBy10);
                if (vsMax >= 0 && (vsMax > 0 || d > maxLastDigit + (neg ? 1 : 0))) {
                    return null; // overflow: not accepted as an integer, read as a float
                }
                a = a * 10 + d;
            }
        }
        return neg ? -a : a;
    }

    private static Double parseFloat(byte[] b, int i, int end) {
        boolean neg = false;
        int start = i;
        if (b[i] == '-' || b[i] == '+') {
            neg = b[i] == '-';
            i++;
        }
        if (end - i >= 2 && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            Double d = parseHexFloat(b, i + 2, end);
            return d == null ? null : (neg ? -d : d);
        }
        // decimal: digits [. digits] [(e|E) [sign] digits], with at least one mantissa digit
        int digits = 0;
        int j = i;
        while (j < end && isDigit(b[j])) { j++; digits++; }
        if (j < end && b[j] == '.') {
            j++;
            while (j < end && isDigit(b[j])) { j++; digits++; }
        }
        if (digits == 0) return null;
        if (j < end && (b[j] == 'e' || b[j] == 'E')) {
            j++;
            if (j < end && (b[j] == '+' || b[j] == '-')) j++;
            int expDigits = 0;
            while (j < end && isDigit(b[j])) { j++; expDigits++; }
            if (expDigits == 0) return null;
        }
        if (j != end) return null;
        return Double.parseDouble(new String(b, start, end - start, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    /** Hexadecimal float after the "0x": hex digits with an optional point, optional binary exponent. */
    private static Double parseHexFloat(byte[] b, int i, int end) {
        long mantissa = 0;
        int exp = 0; // binary exponent adjustment
        int significant = 0;
        boolean anyDigit = false;
        boolean sticky = false;
        boolean seenDot = false;
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '.') {
                if (seenDot) return null;
                seenDot = true;
                continue;
            }
            int d = hexValue(c);
            if (d < 0) break;
            anyDigit = true;
            if (significant < 15) {
                if (mantissa != 0 || d != 0) significant++;
                mantissa = mantissa * 16 + d;
                if (seenDot) exp -= 4;
            } else {
                if (d != 0) sticky = true;
                if (!seenDot) exp += 4;
            }
        }
        if (!anyDigit) return null;
        if (i < end && (b[i] == 'p' || b[i] == 'P')) {
            i++;
            boolean eneg = false;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                eneg = b[i] == '-';
                i++;
            }
            if (i >= end || !isDigit(b[i])) return null;
            long e = 0;
            while (i < end && isDigit(b[i])) {
                if (e < 100000) e = e * 10 + (b[i] - '0');
                i++;
            }
            exp += (int) (eneg ? -e : e);
        }
        if (i != end) return null;
        if (sticky) mantissa |= 1; // keep rounding information of dropped digits
        return Math.scalb((double) mantissa, exp);
    }

    // ---- number to string

    public static LuaString toLuaString(long v) {
        return LuaString.ofLatin1(Long.toString(v));
    }

    public static LuaString toLuaString(double v) {
        return LuaString.ofLatin1(toString(v));
    }

    /** {@code tostring} of a float: {@code "%.14g"}, plus ".0" when it would read as an integer. */
    public static String toString(double v) {
        String s = formatG(v, 14, false);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c == '-' || (c >= '0' && c <= '9'))) return s;
        }
        return s + ".0";
    }

    /**
     * C's {@code %.<precision>g} (and {@code %#g} when {@code alternate}), correctly rounded
     * (round-half-even on the exact binary value, as glibc). Infinity and NaN print as
     * "inf", "-inf", "nan", "-nan".
     */
    public static String formatG(double v, int precision, boolean alternate) {
        if (Double.isNaN(v)) return (Double.doubleToRawLongBits(v) < 0) ? "-nan" : "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (precision == 0) precision = 1;
        boolean negative = v < 0 || (v == 0 && 1 / v < 0);
        String body;
        if (v == 0) {
            body = alternate ? "0." + "0".repeat(precision - 1) : "0";
        } else {
            BigDecimal bd = new BigDecimal(Math.abs(v)).round(new MathContext(precision, RoundingMode.HALF_EVEN));
            // exponent X of the rounded value in scientific notation
            int x = bd.precision() - bd.scale() - 1;
            if (x < -4 || x >= precision) {
                body = scientific(bd, precision - 1, alternate);
            } else {
                BigDecimal fixed = bd.setScale(Math.max(0, precision - 1 - x), RoundingMode.HALF_EVEN);
                body = fixed.toPlainString();
                if (!alternate) body = stripZeros(body);
                else if (body.indexOf('.') < 0) body = body + ".";
            }
        }
        return negative ? "-" + body : body;
    }

    /** d.ddde±XX with {@code decimals} digits after the point (already rounded to fit). */
    private static String scientific(BigDecimal bd, int decimals, boolean alternate) {
        String digits = bd.unscaledValue().toString();
        int exp = bd.precision() - bd.scale() - 1;
        StringBuilder m = new StringBuilder();
        m.append(digits.charAt(0));
        String rest = digits.substring(1);
        while (rest.length() < decimals) rest = rest + "0";
        if (rest.length() > decimals) rest = rest.substring(0, decimals);
        if (!alternate) {
            int k = rest.length();
            while (k > 0 && rest.charAt(k - 1) == '0') k--;
            rest = rest.substring(0, k);
        }
        if (!rest.isEmpty() || alternate) m.append('.').append(rest);
        m.append('e').append(exp < 0 ? '-' : '+');
        int ax = Math.abs(exp);
        if (ax < 10) m.append('0');
        m.append(ax);
        return m.toString();
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) return s;
        int k = s.length();
        while (s.charAt(k - 1) == '0') k--;
        if (s.charAt(k - 1) == '.') k--;
        return s.substring(0, k);
    }

    /**
     * Float to integer, exactly as {@code lua_numbertointeger}/{@code luaV_tointeger} mode 0:
     * the integer with the same value, or null when there is none (fractional, out of range, NaN).
     */
    public static Long floatToInteger(double d) {
        if (d >= -9.223372036854775808E18 && d < 9.223372036854775808E18) {
            long l = (long) d;
            if (l == d) return l;
        }
        return null;
    }
}
