package dev.luavm.audit;

/**
 * The script read the wall clock ({@code os.time}, {@code os.date}) and saw a value other than
 * the one recorded last. The run's first value is {@link RunStarted#clockMillis()}; each later
 * change is one of these, so a replay can answer read number {@code read} (counted from 1 in the
 * run) with the latest value recorded at or before it. Only changes are written, so a script
 * that reads the clock in a loop writes at most one event per millisecond of run time.
 *
 * @param read   the read's number in the run, from 1
 * @param millis the clock's reading, epoch milliseconds
 */
public record ClockReading(String sandbox, long run, long read, long millis) implements AuditEvent {}
