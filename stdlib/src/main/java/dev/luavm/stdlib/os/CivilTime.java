package dev.luavm.stdlib.os;

/**
 * A broken-down time ({@code struct tm}) and the conversions {@code gmtime}/{@code mktime} need,
 * in proleptic Gregorian calendar arithmetic on {@code long}s (Howard Hinnant's days-from-civil
 * algorithms), so no {@code java.time} zone rules or host state are involved.
 */
final class CivilTime {
    /** full year (tm_year + 1900) */
    final long year;
    /** 0-11 */
    final int month;
    /** 1-31 */
    final int day;
    final int hour;
    final int min;
    final int sec;
    /** 0-6, Sunday = 0 */
    final int wday;
    /** 0-365 */
    final int yday;
    /** seconds east of UTC this time was shifted by */
    final int offset;
    /** true for UTC ({@code "!"} formats) */
    final boolean utc;

    private CivilTime(long year, int month, int day, int hour, int min, int sec, int wday, int yday,
            int offset, boolean utc) {
        this.year = year;
        this.month = month;
        this.day = day;
        this.hour = hour;
        this.min = min;
        this.sec = sec;
        this.wday = wday;
        this.yday = yday;
        this.offset = offset;
        this.utc = utc;
    }

    /**
     * {@code gmtime} of {@code epochSeconds + offset}; null when the year does not fit a C
     * {@code int} {@code tm_year}, where glibc fails too.
     */
    static CivilTime of(long epochSeconds, int offset, boolean utc) {
        long t;
        try {
            t = Math.addExact(epochSeconds, offset);
        } catch (ArithmeticException overflow) {
            return null;
        }
        long days = Math.floorDiv(t, 86400);
        int secs = (int) Math.floorMod(t, 86400);
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long doe = z - era * 146097; // [0, 146096]
        long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; // [0, 399]
        long doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365], from March 1
        long mp = (5 * doy + 2) / 153; // [0, 11], March = 0
        int d = (int) (doy - (153 * mp + 2) / 5 + 1);
        int m = (int) (mp < 10 ? mp + 2 : mp - 10); // 0-11, January = 0
        long y = yoe + era * 400 + (m <= 1 ? 1 : 0);
        long tmYear = y - 1900;
        if (tmYear < Integer.MIN_VALUE || tmYear > Integer.MAX_VALUE) return null;
        int wday = (int) Math.floorMod(days + 4, 7); // 1970-01-01 was a Thursday
        int yday = (int) (days - daysFromCivil(y, 0, 1));
        return new CivilTime(y, m, d, secs / 3600, secs / 60 % 60, secs % 60, wday, yday, offset, utc);
    }

    /** Days since 1970-01-01 of the given date; {@code month} 0-11, {@code day} 1-31, no normalisation. */
    static long daysFromCivil(long y, int month, int day) {
        int m = month + 1;
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400; // [0, 399]
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1; // [0, 365]
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
        return era * 146097 + doe - 719468;
    }

    /**
     * Seconds since the epoch of a local date whose fields may be out of range, normalised as
     * {@code mktime} does (month 13 is January of the next year, day 0 the last of the previous
     * month, and so on). Fields are at most about 2^30 in magnitude, so nothing overflows.
     */
    static long localSeconds(long year, long month, long day, long hour, long min, long sec) {
        long months = year * 12 + month;
        long y = Math.floorDiv(months, 12);
        int m = (int) Math.floorMod(months, 12);
        long days = daysFromCivil(y, m, 1) + day - 1;
        return days * 86400 + hour * 3600 + min * 60 + sec;
    }

    static boolean isLeap(long y) {
        return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    }
}
