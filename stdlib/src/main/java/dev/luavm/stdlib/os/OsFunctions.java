package dev.luavm.stdlib.os;

import dev.luavm.lib.CallContext;
import dev.luavm.stdlib.work.ByteWork;
import dev.luavm.value.LuaNumbers;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** {@code os.time}, {@code os.clock}, {@code os.date} and {@code os.difftime} ({@code loslib.c}). */
final class OsFunctions {
    private OsFunctions() {}

    /** {@code L_MAXDATEFIELD}: date fields must stay within {@code INT_MAX / 2} */
    private static final long MAX_DATE_FIELD = Integer.MAX_VALUE / 2;
    private static final LuaString DEFAULT_FORMAT = LuaString.of("%c");
    private static final String CANNOT_REPRESENT = "time result cannot be represented in this installation";

    private static long now(CallContext c) {
        return Math.floorDiv(c.host().currentTimeMillis(), 1000);
    }

    /** the instants java.time can look a zone offset up for (about years -1e9..1e9) */
    private static final long MIN_INSTANT = Instant.MIN.getEpochSecond();
    private static final long MAX_INSTANT = Instant.MAX.getEpochSecond();

    /**
     * Local time zone offset at {@code t} as the host reports it. Times beyond what java.time
     * represents (whose year may still fit a C {@code int}) take the offset at the nearest end,
     * where the zone rules are long settled, instead of throwing DateTimeException.
     */
    private static int zone(CallContext c, long t) {
        return c.host().zoneOffsetSeconds(Math.max(MIN_INSTANT, Math.min(MAX_INSTANT, t)));
    }

    /** {@code os.clock()}: the host's clock in seconds, as a float. */
    static int clock(CallContext c) {
        return c.ret(c.host().cpuClockNanos() / 1e9);
    }

    /** {@code os.difftime(t2, t1)}: {@code t2 - t1} in seconds, as a float. */
    static int difftime(CallContext c) {
        long t1 = c.checkInteger(1);
        long t2 = c.checkInteger(2);
        return c.ret((double) t1 - (double) t2);
    }

    /** {@code os.time([table])} */
    static int time(CallContext c) {
        long t;
        if (c.isNoneOrNil(1)) {
            t = now(c);
        } else {
            c.checkType(1, "table");
            Object tab = c.arg(1);
            long sec = field(c, tab, "sec", 0, 0);
            long min = field(c, tab, "min", 0, 0);
            long hour = field(c, tab, "hour", 12, 0);
            long day = field(c, tab, "day", -1, 0);
            long month = field(c, tab, "month", -1, 1);
            long year = field(c, tab, "year", -1, 1900);
            // isdst is ignored: the injected zone is a plain offset (see package-info)
            long local = CivilTime.localSeconds(year + 1900, month, day, hour, min, sec);
            t = local - zone(c, local - zone(c, local)); // invert local = t + offset(t)
            CivilTime norm = CivilTime.of(t, zone(c, t), false);
            if (norm == null) throw c.error(CANNOT_REPRESENT);
            setAllFields(c, tab, norm); // update the fields with the normalised values
        }
        if (t == -1) throw c.error(CANNOT_REPRESENT); // mktime's error value, refused as in PUC
        return c.ret(t);
    }

    /** {@code getfield}: an integer field of the date table, its default, or the 5.3 errors. */
    private static long field(CallContext c, Object tab, String key, long def, long delta) {
        Object v = c.index(tab, LuaString.of(key));
        Long res = toInteger(v);
        if (res == null) {
            if (v != null) throw c.error("field '" + key + "' is not an integer");
            if (def < 0) throw c.error("field '" + key + "' missing in date table");
            return def;
        }
        if (!(-MAX_DATE_FIELD <= res && res <= MAX_DATE_FIELD)) throw c.error("field '" + key + "' is out-of-bound");
        return res - delta;
    }

    private static Long toInteger(Object v) {
        if (v instanceof Long l) return l;
        if (v instanceof Double d) return LuaNumbers.floatToInteger(d);
        if (v instanceof LuaString s) {
            Object n = LuaNumbers.parse(s);
            if (n instanceof Long l) return l;
            if (n instanceof Double d) return LuaNumbers.floatToInteger(d);
        }
        return null;
    }

    private static void setAllFields(CallContext c, Object tab, CivilTime t) {
        c.setIndex(tab, LuaString.of("sec"), (long) t.sec);
        c.setIndex(tab, LuaString.of("min"), (long) t.min);
        c.setIndex(tab, LuaString.of("hour"), (long) t.hour);
        c.setIndex(tab, LuaString.of("day"), (long) t.day);
        c.setIndex(tab, LuaString.of("month"), (long) t.month + 1);
        c.setIndex(tab, LuaString.of("year"), t.year);
        c.setIndex(tab, LuaString.of("wday"), (long) t.wday + 1);
        c.setIndex(tab, LuaString.of("yday"), (long) t.yday + 1);
        c.setIndex(tab, LuaString.of("isdst"), Boolean.FALSE);
    }

    /** Gas per conversion: its output, at most 32 bytes (a {@code %c} of a far year), by the byte rule. */
    private static final long CONVERSION_GAS = 4;
    /** Output size of {@code os.date} at which the buffer is first checked against the memory cap. */
    private static final int DATE_CHUNK = 1 << 16;

    /** {@code os.date([format [, time]])} */
    static int date(CallContext c) {
        byte[] s = c.optString(1, DEFAULT_FORMAT).bytesUnsafe();
        long time = c.isNoneOrNil(2) ? now(c) : c.checkInteger(2);
        int i = 0;
        int end = s.length;
        boolean utc = end > 0 && s[0] == '!';
        if (utc) i++; // skip '!'
        CivilTime t = CivilTime.of(time, utc ? 0 : zone(c, time), utc);
        if (t == null) throw c.error(CANNOT_REPRESENT);
        if (isTableFormat(s, i)) {
            LuaTable r = c.newTable(0, 9);
            setAllFields(c, r, t);
            return c.ret(r);
        }
        ByteWork work = ByteWork.upTo(c, end - i); // the format, read and copied once
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long checkAt = DATE_CHUNK;
        while (i < end) {
            // the output so far (up to 32 bytes per conversion, paid for above) must fit in memory
            // beside what the script holds: checked each time it doubles
            if (out.size() >= checkAt) {
                c.memory().charge(out.size());
                checkAt = 2L * out.size();
            }
            if (s[i] != '%') { // a literal run, copied at once
                int j = i;
                while (j < end && s[j] != '%') {
                    work.step();
                    j++;
                }
                out.write(s, i, j - i);
                i = j;
                continue;
            }
            work.step();
            i++; // skip '%'
            c.chargeGas(CONVERSION_GAS);
            int n = Strftime.optionLength(s, i, end);
            if (n == 0) throw c.argError(1, "invalid conversion specifier '%" + cString(s, i) + "'");
            Strftime.convert((char) s[i + n - 1], t, out);
            i += n;
        }
        return c.ret(c.newString(out.toByteArray()));
    }

    /** {@code strcmp(s, "*t") == 0}: C compares up to the first '\0'. */
    private static boolean isTableFormat(byte[] s, int i) {
        return s.length - i >= 2 && s[i] == '*' && s[i + 1] == 't' && (s.length - i == 2 || s[i + 2] == 0);
    }

    /** The rest of the format as C's {@code %s} prints it: up to the first '\0'. */
    private static String cString(byte[] s, int from) {
        int to = from;
        while (to < s.length && s[to] != 0) to++;
        return new String(s, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
