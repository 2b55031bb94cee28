package dev.luavm.cli;

import java.time.Duration;
import java.util.Locale;

/** Parses the CLI's sizes ({@code 64m}) and durations ({@code 500ms}, {@code 2s}). */
final class Quantities {
    private Quantities() {}

    /**
     * A byte size: a non-negative integer with an optional suffix {@code k}, {@code m} or
     * {@code g} (binary: 1k = 1024), case-insensitive, optionally followed by {@code b}/{@code ib}.
     */
    static long parseSize(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                default -> { }
            }
        }
        if (shift != 0) s = s.substring(0, s.length() - 1);
        long n = parseCount(s, text);
        if (n > (Long.MAX_VALUE >> shift)) throw new IllegalArgumentException("size too large: '" + text + "'");
        return n << shift;
    }

    /** A duration: a non-negative integer followed by {@code ms}, {@code s}, {@code m} or {@code h}; a bare number is seconds. */
    static Duration parseDuration(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("ms")) return Duration.ofMillis(parseCount(s.substring(0, s.length() - 2), text));
            if (s.endsWith("s")) return Duration.ofSeconds(parseCount(s.substring(0, s.length() - 1), text));
            if (s.endsWith("m")) return Duration.ofMinutes(parseCount(s.substring(0, s.length() - 1), text));
            if (s.endsWith("h")) return Duration.ofHours(parseCount(s.substring(0, s.length() - 1), text));
            return Duration.ofSeconds(parseCount(s, text));
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("duration too large: '" + text + "'");
        }
    }

    /** A non-negative integer count (underscores allowed as separators). */
    static long parseCount(String s, String original) {
        String digits = s.replace("_", "");
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("not a valid quantity: '" + original + "'");
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("quantity too large: '" + original + "'");
        }
    }
}
