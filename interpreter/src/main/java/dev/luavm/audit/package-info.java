/**
 * The audit log of sandbox runs: the events ({@link dev.luavm.audit.RunStarted},
 * {@link dev.luavm.audit.HostCallEvent}, {@link dev.luavm.audit.ClockReadings},
 * {@link dev.luavm.audit.RunEnded}, and the recording's full-value channel
 * {@link dev.luavm.audit.Recorded}, which {@link dev.luavm.replay.Replayer} replays), the
 * {@link dev.luavm.audit.AuditSink} they go to ({@link dev.luavm.audit.MemoryAuditSink} here, a
 * sealed JSON Lines file in the {@code luavm-audit-jsonl} module, or the host's own), the
 * per-sandbox writer {@link dev.luavm.audit.AuditTrail}, which fails closed and keeps a run's log
 * bounded, and what events weigh ({@link dev.luavm.audit.AuditCost}).
 */
package dev.luavm.audit;
