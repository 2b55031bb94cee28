package dev.luavm.compiler;

/**
 * Converts a numeral as PUC's {@code luaO_str2num} does for the lexer: a decimal integer that
 * fits is a {@code Long} (one that overflows becomes a float), a hexadecimal integer wraps
 * around modulo 2^64, anything else that is a well-formed decimal or hexadecimal float is a
 * {@code Double}. Returns null for a malformed numeral.
 */
final class NumberParser {
    private NumberParser() {}

    static Object parse(String s) {
        if (s.length() > 1 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
            return parseHex(s.substring(2));
        }
        return parseDecimal(s);
    }

    private static Object parseDecimal(String s) {
        int i = 0;
        int n = s.length();
        int digits = 0;
        boolean isInt = true;
        while (i < n && LuaLexer.isDigit(s.charAt(i))) { i++; digits++; }
        if (i < n && s.charAt(i) == '.') {
            isInt = false;
            i++;
            while (i < n && LuaLexer.isDigit(s.charAt(i))) { i++; digits++; }
        }
        if (digits == 0) return null;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            isInt = false;
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int expDigits = 0;
            while (i < n && LuaLexer.isDigit(s.charAt(i))) { i++; expDigits++; }
            if (expDigits == 0) return null;
        }
        if (i != n) return null;
        if (isInt) {
            long v = 0;
            boolean overflow = false;
            for (int k = 0; k < n && !overflow; k++) {
                int d = s.charAt(k) - '0';
                if (v > (Long.MAX_VALUE - d) / 10) overflow = true;
                else v = v * 10 + d;
            }
            if (!overflow) return v;
        }
        return Double.parseDouble(s);
    }

    private static Object parseHex(String s) {
        int i = 0;
        int n = s.length();
        int digits = 0;
        long intValue = 0;
        while (i < n && LuaLexer.isXDigit(s.charAt(i))) {
            intValue = (intValue << 4) + Character.digit(s.charAt(i), 16); // wraps around
            i++;
            digits++;
        }
        int mantissaEnd = i;
        boolean isInt = true;
        if (i < n && s.charAt(i) == '.') {
            isInt = false;
            i++;
            while (i < n && LuaLexer.isXDigit(s.charAt(i))) { i++; digits++; }
            mantissaEnd = i;
        }
        if (digits == 0) return null;
        String exponent = "0";
        if (i < n && (s.charAt(i) == 'p' || s.charAt(i) == 'P')) {
            isInt = false;
            int start = ++i;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int expDigits = 0;
            while (i < n && LuaLexer.isDigit(s.charAt(i))) { i++; expDigits++; }
            if (expDigits == 0) return null;
            exponent = s.substring(start, i);
        }
        if (i != n) return null;
        if (isInt) return intValue;
        String mantissa = s.substring(0, mantissaEnd);
        if (mantissa.startsWith(".")) mantissa = "0" + mantissa;
        if (mantissa.endsWith(".")) mantissa = mantissa + "0";
        try {
            return Double.parseDouble("0x" + mantissa + "p" + exponent);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
