package dev.luavm.stdlib.os;

import static dev.luavm.stdlib.libs.FakeSandbox.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.luavm.stdlib.libs.FakeSandbox;
import dev.luavm.value.LuaString;
import dev.luavm.value.LuaTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expected values come from lua5.3 (5.3.6, glibc) run with {@code TZ=UTC} and, for local time,
 * {@code TZ=UTC-5:30} (offset +05:30, which the fake host injects as 19800 seconds).
 */
@org.junit.jupiter.api.extension.ExtendWith(dev.luavm.stdlib.SmallStackExtension.class) // a 128 KiB host thread in the small-stack run
class SafeOsLibraryTest {
    private static final int IST = 19800;
    private final FakeSandbox box = new FakeSandbox().install(new SafeOsLibrary());

    private void date(String expected, String format, long t) {
        box.host.zoneOffset = 0;
        assertEquals(LuaString.of(expected), box.call1("os.date", LuaString.of(format), t), format + " at " + t);
    }

    private void localDate(String expected, String format, long t) {
        box.host.zoneOffset = IST;
        assertEquals(LuaString.of(expected), box.call1("os.date", LuaString.of(format), t), format + " at " + t);
    }

    private static final String[] KEYS = {"year", "month", "day", "hour", "min", "sec", "wday", "yday"};

    private String show(LuaTable t) {
        List<String> out = new ArrayList<>();
        for (String k : KEYS) out.add(k + "=" + t.get(s(k)));
        return String.join(" ", out);
    }

    private LuaTable dateTable(Object... kv) {
        LuaTable t = box.table();
        for (int i = 0; i < kv.length; i += 2) t.put(s((String) kv[i]), kv[i + 1]);
        return t;
    }

    private void time(long expected, String normalised, Object... kv) {
        box.host.zoneOffset = 0;
        LuaTable t = dateTable(kv);
        assertEquals(expected, box.call1("os.time", t));
        assertEquals(normalised, show(t));
        assertEquals(false, t.get(s("isdst")));
    }

    private void localTime(long expected, String normalised, Object... kv) {
        box.host.zoneOffset = IST;
        LuaTable t = dateTable(kv);
        assertEquals(expected, box.call1("os.time", t));
        assertEquals(normalised, show(t));
    }

    @Test
    void everyConversionMatchesGlibc() {
        date("[Thu][Thursday][Jan][January][Thu Jan  1 00:00:00 1970][19][01][01/01/70][ 1][1970-01-01][70][1970][Jan][00][12][001][01][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][4][00][01][4][00][01/01/70][00:00:00][70][1970][+0000][%][Thu Jan  1 00:00:00 1970][19][01/01/70][00:00:00][70][1970][01][ 1][00][12][01][00][00][4][00][01][4][00][70]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 0L);
        date("[Sat][Saturday][Jan][January][Sat Jan  1 00:00:00 2000][20][01][01/01/00][ 1][2000-01-01][99][1999][Jan][00][12][001][01][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][6][00][52][6][00][01/01/00][00:00:00][00][2000][+0000][%][Sat Jan  1 00:00:00 2000][20][01/01/00][00:00:00][00][2000][01][ 1][00][12][01][00][00][6][00][52][6][00][00]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 946684800L);
        date("[Mon][Monday][Feb][February][Mon Feb 28 23:59:59 2000][20][28][02/28/00][28][2000-02-28][00][2000][Feb][23][11][059][02][59][\n][PM][11:59:59 PM][23:59][59][\t][23:59:59][1][09][09][1][09][02/28/00][23:59:59][00][2000][+0000][%][Mon Feb 28 23:59:59 2000][20][02/28/00][23:59:59][00][2000][28][28][23][11][02][59][59][1][09][09][1][09][00]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 951782399L);
        date("[Sat][Saturday][Jan][January][Sat Jan  1 00:00:00 2005][20][01][01/01/05][ 1][2005-01-01][04][2004][Jan][00][12][001][01][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][6][00][53][6][00][01/01/05][00:00:00][05][2005][+0000][%][Sat Jan  1 00:00:00 2005][20][01/01/05][00:00:00][05][2005][01][ 1][00][12][01][00][00][6][00][53][6][00][05]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 1104537600L);
        date("[Wed][Wednesday][Dec][December][Wed Dec 31 00:00:00 2008][20][31][12/31/08][31][2008-12-31][09][2009][Dec][00][12][366][12][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][3][52][01][3][52][12/31/08][00:00:00][08][2008][+0000][%][Wed Dec 31 00:00:00 2008][20][12/31/08][00:00:00][08][2008][31][31][00][12][12][00][00][3][52][01][3][52][08]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 1230681600L);
        date("[Tue][Tuesday][Apr][April][Tue Apr 19 09:46:40 5][0][19][04/19/05][19][5-04-19][05][5][Apr][09][09][109][04][46][\n][AM][09:46:40 AM][09:46][40][\t][09:46:40][2][16][16][2][16][04/19/05][09:46:40][05][5][+0000][%][Tue Apr 19 09:46:40 5][0][04/19/05][09:46:40][05][5][19][19][09][09][04][46][40][2][16][16][2][16][05]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", -62000000000L);
        date("[Fri][Friday][Oct][October][Fri Oct 15 19:33:20 -249][-3][15][10/15/51][15][-249-10-15][51][-249][Oct][19][07][288][10][33][\n][PM][07:33:20 PM][19:33][20][\t][19:33:20][5][41][41][5][41][10/15/51][19:33:20][51][-249][+0000][%][Fri Oct 15 19:33:20 -249][-3][10/15/51][19:33:20][51][-249][15][15][19][07][10][33][20][5][41][41][5][41][51]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", -70000000000L);
        date("[Sat][Saturday][Jan][January][Sat Jan  1 00:00:00 10000][100][01][01/01/00][ 1][10000-01-01][99][9999][Jan][00][12][001][01][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][6][00][52][6][00][01/01/00][00:00:00][00][10000][+0000][%][Sat Jan  1 00:00:00 10000][100][01/01/00][00:00:00][00][10000][01][ 1][00][12][01][00][00][6][00][52][6][00][00]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 253402300800L);
        date("[Tue][Tuesday][Nov][November][Tue Nov 14 22:13:20 2023][20][14][11/14/23][14][2023-11-14][23][2023][Nov][22][10][318][11][13][\n][PM][10:13:20 PM][22:13][20][\t][22:13:20][2][46][46][2][46][11/14/23][22:13:20][23][2023][+0000][%][Tue Nov 14 22:13:20 2023][20][11/14/23][22:13:20][23][2023][14][14][22][10][11][13][20][2][46][46][2][46][23]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 1700000000L);
        date("[Tue][Tuesday][Feb][February][Tue Feb 29 00:00:00 2000][20][29][02/29/00][29][2000-02-29][00][2000][Feb][00][12][060][02][00][\n][AM][12:00:00 AM][00:00][00][\t][00:00:00][2][09][09][2][09][02/29/00][00:00:00][00][2000][+0000][%][Tue Feb 29 00:00:00 2000][20][02/29/00][00:00:00][00][2000][29][29][00][12][02][00][00][2][09][09][2][09][00]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 951782400L);
        date("[Sat][Saturday][Nov][November][Sat Nov 20 17:46:40 2286][22][20][11/20/86][20][2286-11-20][86][2286][Nov][17][05][324][11][46][\n][PM][05:46:40 PM][17:46][40][\t][17:46:40][6][46][46][6][46][11/20/86][17:46:40][86][2286][+0000][%][Sat Nov 20 17:46:40 2286][22][11/20/86][17:46:40][86][2286][20][20][17][05][11][46][40][6][46][46][6][46][86]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 10000000000L);
        date("[Wed][Wednesday][Dec][December][Wed Dec 31 23:59:59 1969][19][31][12/31/69][31][1969-12-31][70][1970][Dec][23][11][365][12][59][\n][PM][11:59:59 PM][23:59][59][\t][23:59:59][3][52][01][3][52][12/31/69][23:59:59][69][1969][+0000][%][Wed Dec 31 23:59:59 1969][19][12/31/69][23:59:59][69][1969][31][31][23][11][12][59][59][3][52][01][3][52][69]", "![%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", -1L);
        localDate("[Thu][Thursday][Jan][January][Thu Jan  1 05:30:00 1970][19][01][01/01/70][ 1][1970-01-01][70][1970][Jan][05][05][001][01][30][\n][AM][05:30:00 AM][05:30][00][\t][05:30:00][4][00][01][4][00][01/01/70][05:30:00][70][1970][+0530][%][Thu Jan  1 05:30:00 1970][19][01/01/70][05:30:00][70][1970][01][ 1][05][05][01][30][00][4][00][01][4][00][70]", "[%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 0L);
        localDate("[Wed][Wednesday][Nov][November][Wed Nov 15 03:43:20 2023][20][15][11/15/23][15][2023-11-15][23][2023][Nov][03][03][319][11][43][\n][AM][03:43:20 AM][03:43][20][\t][03:43:20][3][46][46][3][46][11/15/23][03:43:20][23][2023][+0530][%][Wed Nov 15 03:43:20 2023][20][11/15/23][03:43:20][23][2023][15][15][03][03][11][43][20][3][46][46][3][46][23]", "[%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 1700000000L);
        localDate("[Sat][Saturday][Jan][January][Sat Jan  1 05:30:00 2005][20][01][01/01/05][ 1][2005-01-01][04][2004][Jan][05][05][001][01][30][\n][AM][05:30:00 AM][05:30][00][\t][05:30:00][6][00][53][6][00][01/01/05][05:30:00][05][2005][+0530][%][Sat Jan  1 05:30:00 2005][20][01/01/05][05:30:00][05][2005][01][ 1][05][05][01][30][00][6][00][53][6][00][05]", "[%a][%A][%b][%B][%c][%C][%d][%D][%e][%F][%g][%G][%h][%H][%I][%j][%m][%M][%n][%p][%r][%R][%S][%t][%T][%u][%U][%V][%w][%W][%x][%X][%y][%Y][%z][%%][%Ec][%EC][%Ex][%EX][%Ey][%EY][%Od][%Oe][%OH][%OI][%Om][%OM][%OS][%Ou][%OU][%OV][%Ow][%OW][%Oy]", 1104537600L);
    }

    @Test
    void osTimeNormalisesLikeMktime() {
        time(946684800L, "year=2000 month=1 day=1 hour=0 min=0 sec=0 wday=7 yday=1", "year", 2000L, "month", 1L, "day", 1L, "hour", 0L);
        time(946728000L, "year=2000 month=1 day=1 hour=12 min=0 sec=0 wday=7 yday=1", "year", 2000L, "month", 1L, "day", 1L);
        time(980730010L, "year=2001 month=1 day=29 hour=1 min=0 sec=10 wday=2 yday=29", "year", 2000L, "month", 14L, "day", -3L, "hour", 25L, "min", -1L, "sec", 70L);
        time(-219951892800L, "year=-5000 month=1 day=1 hour=12 min=0 sec=0 wday=4 yday=1", "year", -5000L, "month", 1L, "day", 1L);
        time(31556889832824000L, "year=1000000000 month=1 day=1 hour=12 min=0 sec=0 wday=7 yday=1", "year", 1000000000L, "month", 1L, "day", 1L);
        time(1709209815L, "year=2024 month=2 day=29 hour=12 min=30 sec=15 wday=5 yday=60", "year", 2024L, "month", 2L, "day", 29L, "hour", 12L, "min", 30L, "sec", 15L);
        time(1677672000L, "year=2023 month=3 day=1 hour=12 min=0 sec=0 wday=4 yday=60", "year", 2023L, "month", 2L, "day", 29L);
        time(19800L, "year=1970 month=1 day=1 hour=5 min=30 sec=0 wday=5 yday=1", "year", 1970L, "month", 1L, "day", 1L, "hour", 5L, "min", 30L);
        time(975538800L, "year=2000 month=11 day=29 hour=23 min=0 sec=0 wday=4 yday=334", "year", 2001L, "month", 0L, "day", 0L, "hour", -1L);
        time(983721600L, "year=2001 month=3 day=4 hour=16 min=0 sec=0 wday=1 yday=63", "year", s("2001"), "month", s("3"), "day", 0x1p+2, "hour", s("0x10"));
        localTime(946665000L, "year=2000 month=1 day=1 hour=0 min=0 sec=0 wday=7 yday=1", "year", 2000L, "month", 1L, "day", 1L, "hour", 0L);
        localTime(946708200L, "year=2000 month=1 day=1 hour=12 min=0 sec=0 wday=7 yday=1", "year", 2000L, "month", 1L, "day", 1L);
        localTime(980710210L, "year=2001 month=1 day=29 hour=1 min=0 sec=10 wday=2 yday=29", "year", 2000L, "month", 14L, "day", -3L, "hour", 25L, "min", -1L, "sec", 70L);
        localTime(-219951912600L, "year=-5000 month=1 day=1 hour=12 min=0 sec=0 wday=4 yday=1", "year", -5000L, "month", 1L, "day", 1L);
        localTime(31556889832804200L, "year=1000000000 month=1 day=1 hour=12 min=0 sec=0 wday=7 yday=1", "year", 1000000000L, "month", 1L, "day", 1L);
        localTime(1709190015L, "year=2024 month=2 day=29 hour=12 min=30 sec=15 wday=5 yday=60", "year", 2024L, "month", 2L, "day", 29L, "hour", 12L, "min", 30L, "sec", 15L);
        localTime(1677652200L, "year=2023 month=3 day=1 hour=12 min=0 sec=0 wday=4 yday=60", "year", 2023L, "month", 2L, "day", 29L);
        localTime(0L, "year=1970 month=1 day=1 hour=5 min=30 sec=0 wday=5 yday=1", "year", 1970L, "month", 1L, "day", 1L, "hour", 5L, "min", 30L);
        localTime(975519000L, "year=2000 month=11 day=29 hour=23 min=0 sec=0 wday=4 yday=334", "year", 2001L, "month", 0L, "day", 0L, "hour", -1L);
        localTime(983701800L, "year=2001 month=3 day=4 hour=16 min=0 sec=0 wday=1 yday=63", "year", s("2001"), "month", s("3"), "day", 0x1p+2, "hour", s("0x10"));
    }

    @Test
    void dateTable() {
        LuaTable t = (LuaTable) box.call1("os.date", s("!*t"), 946684799L + 86400 * 359 + 3 * 3600 + 25 * 60 + 8);
        assertEquals("year=2000 month=12 day=25 hour=3 min=25 sec=7 wday=2 yday=360", show(t));
        assertEquals(false, t.get(s("isdst")));
        box.host.zoneOffset = IST;
        LuaTable local = (LuaTable) box.call1("os.date", s("*t"), 0L);
        assertEquals("year=1970 month=1 day=1 hour=5 min=30 sec=0 wday=5 yday=1", show(local));
        // C compares the format up to its first '\0'
        assertEquals(LuaTable.class, box.call1("os.date", LuaString.ofLatin1("!*t\u0000x"), 0L).getClass());
    }

    @Test
    void defaultsComeFromTheHost() {
        box.host.millis = 946_684_800_999L;
        assertEquals(946684800L, box.call1("os.time"));
        assertEquals(s("Sat Jan  1 00:00:00 2000"), box.call1("os.date"));
        assertEquals(s("2000"), box.call1("os.date", s("%Y")));
        box.host.millis = -1500;
        assertEquals(-2L, box.call1("os.time"), "floor, not truncation, before the epoch");
        box.host.millis = -1;
        assertEquals("time result cannot be represented in this installation", box.error("os.time"));
        box.host.nanos = 2_500_000_000L;
        assertEquals(2.5, box.call1("os.clock"));
    }

    @Test
    void dateKeepsOtherBytes() {
        assertEquals(LuaString.ofLatin1("x\u0000y01\u00FF"), box.call1("os.date", LuaString.ofLatin1("x\u0000y%d\u00FF"), 0L));
        assertEquals(s(""), box.call1("os.date", s(""), 0L));
        assertEquals(s(""), box.call1("os.date", s("!"), 0L));
        assertEquals(s("-1|-1|99"), box.call1("os.date", s("!%Y|%C|%y"), -62167219200L - 86400));
    }

    @Test
    void zoneNames() {
        assertEquals(s("GMT +0000"), box.call1("os.date", s("!%Z %z"), 0L));
        assertEquals(s("UTC +0000"), box.call1("os.date", s("%Z %z"), 0L));
        box.host.zoneOffset = IST;
        assertEquals(s("+0530 +0530"), box.call1("os.date", s("%Z %z"), 0L));
        box.host.zoneOffset = -7200;
        assertEquals(s("-02 -0200"), box.call1("os.date", s("%Z %z"), 0L));
    }

    @Test
    void dateErrors() {
        assertEquals("bad argument #1 to 'os.date' (invalid conversion specifier '%Ez abc')", box.error("os.date", s("%Ez abc"), 0L));
        assertEquals("bad argument #1 to 'os.date' (invalid conversion specifier '%')", box.error("os.date", s("%"), 0L));
        assertEquals("bad argument #1 to 'os.date' (invalid conversion specifier '%E')", box.error("os.date", s("%E"), 0L));
        assertEquals("bad argument #1 to 'os.date' (invalid conversion specifier '%k')", box.error("os.date", s("%k"), 0L));
        assertEquals("bad argument #1 to 'os.date' (invalid conversion specifier '%')", box.error("os.date", LuaString.ofLatin1("%\u0000d"), 0L));
        assertEquals("time result cannot be represented in this installation", box.error("os.date", s("*t"), 1L << 60));
        assertEquals("time result cannot be represented in this installation", box.error("os.date", s("!%Y"), -(1L << 60)));
        assertEquals("bad argument #2 to 'os.date' (number has no integer representation)", box.error("os.date", s("!*t"), 1.5));
        assertEquals("bad argument #2 to 'os.date' (number expected, got string)", box.error("os.date", s("%Y"), s("x")));
        assertEquals(s("5"), box.call1("os.date", 5L, 0L));
        // the last year glibc can represent, and its int wrap-around when printed
        assertEquals(s("2147483647"), box.call1("os.date", s("!%Y"), 67767976233532799L));
        assertEquals(s("-2147483648"), box.call1("os.date", s("!%Y"), 67767976233532800L));
        assertEquals(s("1141709097"), box.call1("os.date", s("!%Y"), 1L << 55));
    }

    @Test
    void timeErrors() {
        assertEquals("field 'day' missing in date table", box.error("os.time", dateTable("year", 2000L, "month", 1L)));
        assertEquals("field 'month' missing in date table", box.error("os.time", dateTable("year", 2000L, "day", 1L)));
        assertEquals("field 'year' missing in date table", box.error("os.time", dateTable("month", 1L, "day", 1L)));
        assertEquals("field 'hour' is not an integer",
                box.error("os.time", dateTable("year", 2000L, "month", 1L, "day", 1L, "hour", s("x"))));
        assertEquals("field 'hour' is not an integer",
                box.error("os.time", dateTable("year", 2000L, "month", 1L, "day", 1L, "hour", 1.5)));
        assertEquals("field 'year' is out-of-bound", box.error("os.time", dateTable("year", 1L << 40, "month", 1L, "day", 1L)));
        assertEquals("field 'year' is out-of-bound", box.error("os.time", dateTable("year", 2147483647L, "month", 1L, "day", 1L)));
        assertEquals("field 'hour' is out-of-bound",
                box.error("os.time", dateTable("year", 2000L, "month", 1L, "day", 1L, "hour", 1L << 30)));
        assertEquals("time result cannot be represented in this installation",
                box.error("os.time", dateTable("year", 1969L, "month", 12L, "day", 31L, "hour", 23L, "min", 59L, "sec", 59L)));
        assertEquals("bad argument #1 to 'os.time' (table expected, got number)", box.error("os.time", 5L));
    }

    @Test
    void difftime() {
        assertEquals(2.0, box.call1("os.difftime", 5L, 3L));
        assertEquals("bad argument #2 to 'os.difftime' (number expected, got no value)", box.error("os.difftime", 5L));
        assertEquals("bad argument #1 to 'os.difftime' (number has no integer representation)", box.error("os.difftime", 5.5, 3L));
        assertEquals("bad argument #1 to 'os.difftime' (number expected, got no value)", box.error("os.difftime"));
    }

    @Test
    void onlyTimeFunctionsExist() {
        LuaTable os = (LuaTable) box.globals.get(s("os"));
        for (String absent : new String[] {"execute", "exit", "getenv", "remove", "rename", "tmpname", "setlocale"}) {
            assertNull(os.get(s(absent)), absent);
        }
        for (String present : new String[] {"clock", "date", "difftime", "time"}) {
            assertEquals(true, os.get(s(present)) != null, present);
        }
    }

    @Test
    void dateChargesPerFormatByte() {
        box.gasUsed = 0;
        box.call("os.date", s("%Y-%m-%d"), 0L);
        assertEquals(1 + 3 * 4, box.gasUsed); // 8 format bytes (1), 3 conversions of up to 32 bytes (4 each)
    }
}
