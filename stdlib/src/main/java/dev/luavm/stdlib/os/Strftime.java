package dev.luavm.stdlib.os;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * glibc's {@code strftime} in the "C" locale, for the conversions Lua 5.3 accepts
 * ({@code LUA_STRFTIMEOPTIONS} with C99: single letters, then {@code E} and {@code O} modified
 * forms, which mean the same as the plain ones in this locale).
 *
 * <p>Year-like numbers ({@code %Y}, {@code %C}, {@code %G}) print without padding, as glibc does
 * for years outside 1000-9999 ({@code "5-04-19"} for {@code %F} in year 5); {@code %C} and
 * {@code %y} split the year with floor division, so year -2 is century -1, year 98.
 */
final class Strftime {
    private Strftime() {}

    /** single-letter conversions valid in 5.3 (C99 list of {@code loslib.c}) */
    private static final String ONE = "aAbBcCdDeFgGhHIjmMnprRStTuUVwWxXyYzZ%";
    /** two-letter conversions: E and O modifiers */
    private static final String[] TWO = {
        "Ec", "EC", "Ex", "EX", "Ey", "EY",
        "Od", "Oe", "OH", "OI", "Om", "OM", "OS", "Ou", "OU", "OV", "Ow", "OW", "Oy"};

    private static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October", "November", "December"};

    /**
     * The length of the valid conversion specifier at {@code fmt[i..end)} (just after a '%'),
     * or 0 when there is none ({@code checkoption}).
     */
    static int optionLength(byte[] fmt, int i, int end) {
        if (i < end && ONE.indexOf(fmt[i] & 0xFF) >= 0 && fmt[i] != 0) return 1;
        if (end - i >= 2) {
            for (String two : TWO) {
                if (fmt[i] == two.charAt(0) && fmt[i + 1] == two.charAt(1)) return 2;
            }
        }
        return 0;
    }

    /** Appends the expansion of conversion {@code spec} (one letter, modifier dropped) for {@code t}. */
    static void convert(char spec, CivilTime t, ByteArrayOutputStream out) {
        switch (spec) {
            case 'a' -> ascii(out, DAYS[t.wday].substring(0, 3));
            case 'A' -> ascii(out, DAYS[t.wday]);
            case 'b', 'h' -> ascii(out, MONTHS[t.month].substring(0, 3));
            case 'B' -> ascii(out, MONTHS[t.month]);
            case 'c' -> expand("a b e H:M:S Y", t, out);
            case 'C' -> ascii(out, Long.toString(Math.floorDiv(year(t), 100)));
            case 'd' -> pad(out, t.day, 2, '0');
            case 'D', 'x' -> expand("m/d/y", t, out);
            case 'e' -> pad(out, t.day, 2, ' ');
            case 'F' -> expand("Y-m-d", t, out);
            case 'g' -> pad(out, Math.floorMod(isoYear(t), 100), 2, '0');
            case 'G' -> ascii(out, Long.toString(isoYear(t)));
            case 'H' -> pad(out, t.hour, 2, '0');
            case 'I' -> pad(out, t.hour % 12 == 0 ? 12 : t.hour % 12, 2, '0');
            case 'j' -> pad(out, t.yday + 1, 3, '0');
            case 'm' -> pad(out, t.month + 1, 2, '0');
            case 'M' -> pad(out, t.min, 2, '0');
            case 'n' -> out.write('\n');
            case 'p' -> ascii(out, t.hour < 12 ? "AM" : "PM");
            case 'r' -> expand("I:M:S p", t, out);
            case 'R' -> expand("H:M", t, out);
            case 'S' -> pad(out, t.sec, 2, '0');
            case 't' -> out.write('\t');
            case 'T', 'X' -> expand("H:M:S", t, out);
            case 'u' -> pad(out, t.wday == 0 ? 7 : t.wday, 1, '0');
            case 'U' -> pad(out, (t.yday - t.wday + 7) / 7, 2, '0');
            case 'V' -> pad(out, isoWeekDays(t) / 7 + 1, 2, '0');
            case 'w' -> pad(out, t.wday, 1, '0');
            case 'W' -> pad(out, (t.yday - (t.wday - 1 + 7) % 7 + 7) / 7, 2, '0');
            case 'y' -> pad(out, Math.floorMod(year(t), 100), 2, '0');
            case 'Y' -> ascii(out, Long.toString(year(t)));
            case 'z' -> zone(out, t.offset, false);
            case 'Z' -> {
                if (t.utc) ascii(out, "GMT");
                else if (t.offset == 0) ascii(out, "UTC");
                else zone(out, t.offset, true);
            }
            case '%' -> out.write('%');
            default -> throw new IllegalArgumentException("unchecked conversion " + spec);
        }
    }

    /** glibc computes the printed year as {@code tm_year + 1900} in C int arithmetic. */
    private static long year(CivilTime t) {
        return (int) t.year;
    }

    /** A fixed composite format: letters are conversions, anything else is literal. */
    private static void expand(String format, CivilTime t, ByteArrayOutputStream out) {
        for (int i = 0; i < format.length(); i++) {
            char ch = format.charAt(i);
            if (Character.isLetter(ch)) convert(ch, t, out);
            else out.write(ch);
        }
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    private static void pad(ByteArrayOutputStream out, long v, int width, char padding) {
        String digits = Long.toString(v);
        for (int i = digits.length(); i < width; i++) out.write(padding);
        ascii(out, digits);
    }

    /** {@code +hhmm}; for a zone name, minutes only when not whole hours ({@code +02}, {@code +0530}). */
    private static void zone(ByteArrayOutputStream out, int offset, boolean asName) {
        out.write(offset < 0 ? '-' : '+');
        int a = Math.abs(offset) / 60;
        pad(out, a / 60, 2, '0');
        if (!asName || a % 60 != 0) pad(out, a % 60, 2, '0');
    }

    // ---- ISO 8601 weeks, as glibc's iso_week_days

    /** Days since the Monday of ISO week 1 of the year of (yday, wday); negative before week 1. */
    private static int isoWeekDays(int yday, int wday) {
        int bigEnoughMultipleOf7 = (366 / 7 + 2) * 7;
        return yday - (yday - wday + 4 + bigEnoughMultipleOf7) % 7 + 4 - 1;
    }

    private static int isoWeekDays(CivilTime t) {
        int days = isoWeekDays(t.yday, t.wday);
        long y = t.year;
        if (days < 0) {
            return isoWeekDays(t.yday + (365 + (CivilTime.isLeap(y - 1) ? 1 : 0)), t.wday);
        }
        int d = isoWeekDays(t.yday - (365 + (CivilTime.isLeap(y) ? 1 : 0)), t.wday);
        return d >= 0 ? d : days;
    }

    private static long isoYear(CivilTime t) {
        long y = year(t);
        int days = isoWeekDays(t.yday, t.wday);
        if (days < 0) return y - 1;
        int d = isoWeekDays(t.yday - (365 + (CivilTime.isLeap(t.year) ? 1 : 0)), t.wday);
        return d >= 0 ? y + 1 : y;
    }
}
