/**
 * The safe part of the {@code os} bundle: {@code os.time}, {@code os.clock}, {@code os.date} and
 * {@code os.difftime}, after PUC's {@code loslib.c} (Lua 5.3.6) with glibc's {@code strftime} in
 * the "C" locale. Nothing else of {@code os} exists here: no {@code execute}, {@code exit},
 * {@code getenv}, {@code remove}, {@code rename}, {@code tmpname} or {@code setlocale}.
 *
 * <p>Time comes only from the host ({@link dev.luavm.lib.HostEnvironment#currentTimeMillis()},
 * {@link dev.luavm.lib.HostEnvironment#cpuClockNanos()} for {@code os.clock}); local time is UTC shifted by
 * {@link dev.luavm.lib.HostEnvironment#zoneOffsetSeconds(long)}. Calendar arithmetic
 * ({@link CivilTime}) is proleptic Gregorian over {@code long}s, valid for every year a C
 * {@code int} can hold, as glibc's is. The zone has no name and no daylight-saving flag:
 * {@code isdst} is read but ignored by {@code os.time} and is always false in {@code os.date("*t")};
 * {@code %Z} prints {@code GMT} for UTC ({@code "!"}) and {@code UTC} or a numeric name such as
 * {@code +0530} for local time.
 */
package dev.luavm.stdlib.os;
